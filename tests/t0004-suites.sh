#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='the queue'"'"'s own apt configuration: suites from a list, signatures checked, /etc/apt untouched'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# suite_dir ARCHIVE SUITE KEY DEBS...: a signed suite (dists/SUITE, as
# Debian's archive lays it out) holding DEBS, its InRelease signed by KEY.
suite_dir() {
	local a=$1 s=$2 key=$3 d
	shift 3
	d=$a/dists/$s/main/binary-amd64
	mkdir -p "$d" "$a/pool/$s" &&
	cp "$@" "$a/pool/$s/" &&
	(cd "$a" && apt-ftparchive packages "pool/$s" >"dists/$s/main/binary-amd64/Packages" 2>/dev/null) &&
	apt-ftparchive -o "APT::FTPArchive::Release::Suite=$s" -o "APT::FTPArchive::Release::Codename=$s" \
		-o APT::FTPArchive::Release::Architectures=amd64 -o APT::FTPArchive::Release::Components=main \
		release "$a/dists/$s" >"$a/Release.tmp" 2>/dev/null &&
	mv "$a/Release.tmp" "$a/dists/$s/Release" &&
	gpg --batch --yes --local-user "$key" --clearsign -o "$a/dists/$s/InRelease" "$a/dists/$s/Release"
}

test_expect_success 'setup: two signed suites, one signed by a stranger, one missing' '
	export GNUPGHOME=$PWD/gnupg && mkdir -m 700 gnupg &&
	gpg --batch --passphrase "" --quick-gen-key "Test Archive <archive@example.org>" ed25519 sign never 2>/dev/null &&
	gpg --batch --passphrase "" --quick-gen-key "Stranger <stranger@example.org>" ed25519 sign never 2>/dev/null &&
	gpg --export "Test Archive" >archive-keyring.gpg &&
	mkdir debs &&
	make_deb debs linux-source-6.1 6.1.1-1 &&
	make_deb debs linux-source-6.12 6.12.1-1~deb12u1 &&
	make_deb debs linux-source-7.3 7.3.1-1~bpo13+1 &&
	suite_dir "$PWD/archive" stable "Test Archive" debs/linux-source-6.1_6.1.1-1_all.deb debs/linux-source-6.12_*.deb &&
	suite_dir "$PWD/archive" backports "Test Archive" debs/linux-source-7.3_*.deb &&
	suite_dir "$PWD/archive" forged "Stranger" debs/linux-source-6.1_6.1.1-1_all.deb &&
	cat >suites <<-EOF &&
	# suite     archive                    components
	stable      file:${PWD// /%20}/archive   main
	backports   file:${PWD// /%20}/archive   main
	forged      file:${PWD// /%20}/archive   main
	gone        file:${PWD// /%20}/nowhere   main
	EOF
	unset APT_CONFIG && use_private_cache &&
	export KQ_SUITES=$PWD/suites KQ_APT_KEYRING=$PWD/archive-keyring.gpg &&
	find /etc/apt -type f -exec md5sum {} + | sort >etc-apt.before
'

test_expect_success 'kernels lists every version with its suite; each unusable suite is one line' '
	kernels >out 2>err &&
	awk "NR > 1 { print \$1, \$2, \$4, \$5 }" out >got &&
	cat >want <<-EOF &&
	6.1 6.1.1-1 stable no
	6.12 6.12.1-1~deb12u1 stable no
	7.3 7.3.1-1~bpo13+1 backports no
	EOF
	test_cmp want got &&
	grep "^apt: suite forged (file:.*) cannot be used: .*" err &&
	grep "^apt: suite gone (file:.*) cannot be used: .*" err &&
	test "$(grep -c "cannot be used" err)" = 2 &&
	grep "kernels: no suite carries linux-source-7.2" err
'

test_expect_success 'the configuration is the queue'"'"'s own: the keyring alone is trusted, never trusted=yes, /etc/apt untouched' '
	grep -c "^deb file:" "$KQ_CACHE/apt/sources.list" >n &&
	test "$(cat n)" = 4 &&
	! grep -r "trusted=yes" "$KQ_CACHE/apt/sources.list" "$KQ_CACHE/apt/apt.conf" &&
	grep "Dir::Etc::trustedparts \"$KQ_CACHE/apt/trusted.gpg.d\"" "$KQ_CACHE/apt/apt.conf" &&
	ls "$KQ_CACHE/apt/trusted.gpg.d" >keys && echo archive-keyring.gpg >want && test_cmp want keys &&
	cmp "$KQ_APT_KEYRING" "$KQ_CACHE/apt/trusted.gpg.d/archive-keyring.gpg" &&
	grep "Dir::State::lists \"$KQ_CACHE/apt/lists\"" "$KQ_CACHE/apt/apt.conf" &&
	find /etc/apt -type f -exec md5sum {} + | sort >etc-apt.after &&
	test_cmp etc-apt.before etc-apt.after
'

test_expect_success 'the host'"'"'s apt configuration is not read: of it only how it reaches the archive is taken, never a setting that accepts an unsigned suite' '
	mkdir host-parts unsigned &&
	cat >host-parts/99host <<-EOF &&
	Acquire::AllowInsecureRepositories "true";
	APT::Get::AllowUnauthenticated "true";
	Acquire::Check-Valid-Until "false";
	Acquire::http::Proxy "http://127.0.0.1:9/";
	EOF
	echo "Dir::Etc::parts \"$PWD/host-parts\";" >host-apt.conf &&
	suite_dir "$PWD/unsigned" plain "Test Archive" debs/linux-source-6.1_6.1.1-1_all.deb &&
	rm "$PWD/unsigned/dists/plain/InRelease" &&
	echo "plain file:${PWD// /%20}/unsigned main" >unsigned-suites &&
	KQ_HOST_APT_CONFIG=$PWD/host-apt.conf KQ_SUITES=$PWD/unsigned-suites KQ_APT=$PWD/apt-u \
		test_expect_code 1 kernels >out 2>err &&
	grep "^apt: suite plain (file:.*) cannot be used: " err &&
	! grep -q 6.1.1 out &&
	APT_CONFIG=$PWD/apt-u/apt.conf apt-config dump >dump &&
	grep -x "Dir::Etc::parts \"$PWD/apt-u/apt.conf.d\";" dump &&
	grep -x "Dir::Etc::main \"$PWD/apt-u/apt.conf.main\";" dump &&
	grep -x "Acquire::Check-Valid-Until \"false\";" dump &&
	grep -x "Acquire::http::Proxy \"http://127.0.0.1:9/\";" dump &&
	! grep -E "(AllowInsecureRepositories|AllowUnauthenticated) \"(1|true|yes)\"" dump &&
	ls apt-u/apt.conf.d >parts && echo 50access >want && test_cmp want parts
'

test_expect_success 'a version of a signed suite is downloaded through it and imported' '
	kernel-tree 7.3.1 >out &&
	grep "debian/7.3.1-1_bpo13+1: imported as" out &&
	kernels --track 7.3 >out &&
	grep -E "^7.3 +7.3.1-1~bpo13\+1 +7.3.1 +backports +yes" out
'

test_expect_success 'the forged suite'"'"'s package is never offered' '
	test_expect_code 2 kernels --suite forged 2>err &&
	test_line_count = 1 err &&
	grep "suite forged cannot be used: " err
'

test_expect_success 'fresh lists are not fetched again; stale ones are, and a new version appears' '
	kernels >/dev/null 2>err && ! grep "apt: updating" err &&
	make_deb debs linux-source-7.3 7.3.2-1~bpo13+1 &&
	suite_dir "$PWD/archive" backports "Test Archive" debs/linux-source-7.3_*.deb &&
	kernels --track 7.3 >out 2>err && ! grep -q 7.3.2 out &&
	KQ_APT_MAX_AGE=0 kernels --track 7.3 >out 2>err &&
	grep "apt: updating" err &&
	grep -E "^7.3 +7.3.2-1~bpo13\+1 +7.3.2 +backports +no" out
'

test_expect_success 'bad input is one line, exit 2, and writes nothing' '
	ls -R "$KQ_CACHE" >before &&
	test_expect_code 2 kernels --suite nosuch 2>err &&
	test_line_count = 1 err && grep "unknown suite .nosuch. (suites: stable backports forged gone;" err &&
	test_expect_code 2 kernels --track 9.9 2>err &&
	test_line_count = 1 err && grep "unknown track .9.9." err &&
	test_expect_code 2 kernels --track 7.2 2>err &&
	grep "no suite carries linux-source-7.2" err && ! grep -v "^apt: suite" err | grep -v "no suite carries" &&
	test_expect_code 2 kernels --suite gone 2>err &&
	grep "suite gone cannot be used: " err &&
	ls -R "$KQ_CACHE" >after && test_cmp before after
'

test_expect_success 'a suites file with a bad line is one line naming it, exit 2' '
	echo "lonely" >bad-suites &&
	KQ_SUITES=$PWD/bad-suites test_expect_code 2 kernels 2>err &&
	test_line_count = 1 err && grep "bad-suites: a line needs a suite, an archive and components" err
'

test_expect_success 'no usable suite at all is an error naming the suites file' '
	printf "gone file:/nowhere main\n" >gone-suites &&
	KQ_SUITES=$PWD/gone-suites KQ_APT=$PWD/apt2 test_expect_code 1 kernels 2>err &&
	grep "none of the suites in .*gone-suites can be used" err
'

test_done
