#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='packaged versions are listed and imported into the cache'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

test_expect_success 'setup: a private archive and cache' '
	make_archive "$PWD/archive" && use_private_cache
'

test_expect_success 'kernels lists every version oldest first, none imported' '
	kernels >out &&
	awk "NR > 1 { print \$1, \$2, \$3, \$4, \$5 }" out >got &&
	cat >want <<-EOF &&
	6.1 6.1.1-1 6.1.1 local no
	6.1 6.1.2-1 6.1.2 local no
	6.1 6.1.2-2 6.1.2 local no
	6.12 6.12.1-1~deb12u1 6.12.1 local no
	EOF
	test_cmp want got
'

test_expect_success 'an upstream version picks the newest Debian revision' '
	kernel-tree 6.1.2 >out &&
	grep "^debian/6.1.2-2: imported as" out &&
	kq_git rev-parse -q --verify refs/tags/debian/6.1.2-2
'

test_expect_success 'the imported tree is the tarball, ignored files and all' '
	mkdir x && dpkg-deb --fsys-tarfile "$KQ_CACHE"/debs/linux-source-6.1_6.1.2-2_all.deb |
		tar -xOf - ./usr/src/linux-source-6.1.tar.xz | tar -xJf - -C x &&
	(cd x/linux-source-6.1 && git init -q && git add -A -f . &&
	 git write-tree) >want &&
	kq_git rev-parse "debian/6.1.2-2^{tree}" >got &&
	test_cmp want got &&
	kq_git ls-tree -r debian/6.1.2-2 >tree &&
	grep "^100755 blob .*	scripts/checkpatch.pl$" tree &&
	grep "^120000 blob .*	fs/dax/link.h$" tree &&
	grep "	drivers/a/very/long/path/.*/file-with-a-long-name.c$" tree &&
	grep "	.gitignore$" tree
'

test_expect_success 'author and date come from the package changelog' '
	kq_git log -1 --format="%an <%ae> %at" debian/6.1.2-2 >got &&
	echo "Test Uploader <uploader@example.org> 1785578400" >want &&
	test_cmp want got
'

test_expect_success 're-importing is a no-op and keeps the id' '
	id=$(kq_git rev-parse debian/6.1.2-2) &&
	kernel-tree 6.1.2-2 >out && grep "already imported" out &&
	test "$(kq_git rev-parse debian/6.1.2-2)" = "$id"
'

test_expect_success 'a higher version becomes the child of the highest lower one' '
	kernel-tree 6.12.1 &&
	test "$(kq_git rev-parse "debian/6.12.1-1_deb12u1^")" = \
	     "$(kq_git rev-parse debian/6.1.2-2)"
'

test_expect_success 'a lower version imported later gets the lower parent only' '
	kernel-tree 6.1.1-1 &&
	test_must_fail kq_git rev-parse -q --verify "debian/6.1.1-1^" &&
	test "$(kq_git rev-parse "debian/6.12.1-1_deb12u1^")" = \
	     "$(kq_git rev-parse debian/6.1.2-2)"
'

test_expect_success 'commit ids are reproducible in another cache' '
	KQ_CACHE=$PWD/cache2 kernel-tree 6.1.2-2 &&
	test "$(git --git-dir=cache2/linux.git rev-parse debian/6.1.2-2)" = \
	     "$(kq_git rev-parse debian/6.1.2-2)"
'

test_expect_success 'kernels marks imported versions' '
	kernels >out &&
	grep -E "^6.1 +6.1.2-2 +6.1.2 +local +yes [0-9a-f]+" out &&
	grep -E "^6.1 +6.1.2-1 +6.1.2 +local +no" out
'

test_expect_success 'an unknown version is one line naming the nearest, exit 2' '
	test_expect_code 2 kernel-tree 6.1.99 2>err &&
	test_line_count = 1 err &&
	grep "unknown kernel version .6.1.99.; packaged: 6.1.1-1 6.1.2-1 6.1.2-2" err
'

test_expect_success 'an apt failure is reported and leaves no tag' '
	mv archive/pool/linux-source-6.1_6.1.2-1_all.deb archive/ &&
	test_must_fail kernel-tree 6.1.2-1 2>err &&
	grep "apt-get download linux-source-6.1=6.1.2-1 failed" err &&
	grep "^E: " err &&
	test_must_fail kq_git rev-parse -q --verify refs/tags/debian/6.1.2-1 &&
	mv archive/linux-source-6.1_6.1.2-1_all.deb archive/pool/
'

test_expect_success 'an import killed mid-stream leaves no tag and no lock; a rerun completes' '
	mkdir -p killer && cat >killer/xz <<-\EOF &&
	#!/bin/sh
	# emit a little of the tar stream, then die as if interrupted
	/usr/bin/xz "$@" | head -c 3000
	kill -9 $$
	EOF
	chmod +x killer/xz &&
	test_must_fail env PATH="$PWD/killer:$PATH" kernel-tree 6.1.2-1 2>err &&
	grep "no tag was written" err &&
	test_must_fail kq_git rev-parse -q --verify refs/tags/debian/6.1.2-1 &&
	flock -n "$KQ_CACHE/lock" true &&
	kernel-tree 6.1.2-1 >out && grep "imported as" out &&
	kq_git cat-file -e debian/6.1.2-1:fs/dax.c
'

test_expect_success 'xz failing at the end of a whole stream (its integrity check) leaves no tag, says so truly, and a rerun imports' '
	mkdir -p latefail && cat >latefail/xz <<-\EOF &&
	#!/bin/sh
	# the whole stream, then the failure xz reports on a bad check at its end
	/usr/bin/xz "$@"
	echo "xz: (stdin): Compressed data is corrupt" >&2
	exit 1
	EOF
	chmod +x latefail/xz &&
	{ kq_git tag -d debian/6.1.2-2 >/dev/null 2>&1 || :; } &&
	test_must_fail env PATH="$PWD/latefail:$PATH" kernel-tree 6.1.2-2 2>err &&
	grep "no tag was written" err &&
	test_must_fail kq_git rev-parse -q --verify refs/tags/debian/6.1.2-2 &&
	! kq_git for-each-ref | grep -v "refs/tags/debian/" &&
	kernel-tree 6.1.2-2 >out && grep "debian/6.1.2-2: imported as" out
'

test_expect_success 'a cached .deb that differs from what the signed index lists is not imported: fetched again' '
	kq_git tag -d debian/6.1.2-2 >/dev/null &&
	deb=$KQ_CACHE/debs/linux-source-6.1_6.1.2-2_all.deb && test -s "$deb" &&
	cp "$deb" good.deb &&
	cp "$(ls archive/pool/linux-source-6.1_6.1.1-1_all.deb)" "$deb" &&
	kernel-tree 6.1.2-2 >out 2>err &&
	grep "does not match the SHA256 the package index lists; downloading it again" err &&
	cmp good.deb "$deb" &&
	kq_git cat-file -p debian/6.1.2-2:fs/dax.c | grep -F "/* -2 */"
'

test_expect_success 'a corrupt tarball is refused with the reason' '
	mkdir -p badw/pkg/usr/src badw/pkg/DEBIAN &&
	head -c 5000 /dev/urandom | xz -0 >badw/pkg/usr/src/linux-source-6.12.tar.xz &&
	printf "Package: linux-source-6.12\nVersion: 6.12.2-1~deb12u1\nArchitecture: all\nMaintainer: T <t@e.org>\nDescription: bad\n" >badw/pkg/DEBIAN/control &&
	dpkg-deb --root-owner-group -b badw/pkg archive/pool/linux-source-6.12_6.12.2-1~deb12u1_all.deb >/dev/null &&
	refresh_archive "$PWD/archive" &&
	test_must_fail kernel-tree 6.12.2 2>err &&
	grep "tar2fi: " err && grep "no tag was written" err &&
	test_must_fail kq_git rev-parse -q --verify "refs/tags/debian/6.12.2-1_deb12u1"
'

test_expect_success 'a second run waits for the lock instead of racing' '
	flock "$KQ_CACHE/lock" sleep 3 &
	sleep 0.5 &&
	rm -f "$KQ_CACHE"/debs/linux-source-6.1_6.1.1-1_all.deb &&
	kq_git tag -d debian/6.1.1-1 &&
	kernel-tree 6.1.1-1 >out 2>err &&
	grep "waiting for another run" err && grep "imported as" out &&
	wait
'

test_done
