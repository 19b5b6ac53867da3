#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034,SC2154
test_description='send: a fixture topic on the real 7.3 tree as a b4 series, dry run and real
sends to an SMTP server on 127.0.0.1, the refusals, v2 with changes and range-diff'
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

need_real_kernel

# The send tests need a green boot record; the mm selftests are t0400's.
export KQ_BOOT_MM=0
# t0400's track: the fixture's integration kernel (that track's topics and
# this one) then comes from the ccache t0400's kernel filled.
track=7.3

file=drivers/misc/dummy-irq.c
# msgs DIR: the messages in DIR (b4 -o folder or the SMTP sink), relative paths
msgs() { find "$1" -name "*.eml" | sort; }
out() { echo "results/$(cat version)/send-snd/$1"; }
# hdr NAME FILE: an unfolded header, read by send's own program
hdr() { awk -v h="$1" -f "$S/lib/header.awk" "$2"; }
# addrs: the bare addresses of a To/Cc list on stdin, one per line, sorted
addrs() { tr "," "\n" | sed -n "s/.*<\(.*\)>.*/\1/p; /</!s/^ *\([^ ]*@[^ ]*\) *$/\1/p" | sort -u; }
conf() { git config -f data/branches/snd.conf "$@"; }
# gcfg KEY VALUE: set a key in the test's global git config (the user's ~/.gitconfig)
gcfg() { git config --file "$PWD/gitconfig" "$@"; }
export GIT_CONFIG_GLOBAL=$PWD/gitconfig
# refused PATTERN: the last send refused in one line matching PATTERN, exit 1
refused() { test_line_count "=" 1 err && grep -E "^send: refusing to send snd v[0-9]+: .*$1" err; }

test_expect_success 'setup: the repository with a two-patch fixture topic, committed' '
	v=$(KQ_CACHE=$REAL_CACHE kernels --newest $track) && echo "$v" >version &&
	KQ_CACHE=$REAL_CACHE kernel-tree "$v" >/dev/null &&
	tag=debian/$(sed "s/~/_/" version) && echo "$tag" >tag &&
	use_fixture_cache "$REAL_CACHE" "$tag" &&
	{ test -e "$KQ_CACHE/ccache" || ln -s "$REAL_CACHE/ccache" "$KQ_CACHE/ccache"; } &&
	{ kq_git tag -l "sent/*" | xargs -r git --git-dir="$KQ_CACHE/linux.git" tag -d >/dev/null; } &&
	git clone -q "$REPO" data &&
	git -C data config user.name "Fixture Author" && git -C data config user.email fixture@example.org &&
	mkdir -p data/kernel-patches/snd &&
	rm -rf wt && kq_git worktree prune && kq_git worktree add -q --detach wt "$tag" &&
	sed -i "s/static int count = 0;/static int count;/" "wt/$file" &&
	printf "misc: dummy-irq: Do not initialise a static to 0\n\nStatics start at 0.\n\nSigned-off-by: Fixture Author <fixture@example.org>\n" >m1 &&
	fgit -C wt commit -qa -F "$PWD/m1" &&
	sed -i "s/	if (irq < 0) {/	if (irq <= 0) {/" "wt/$file" &&
	printf "misc: dummy-irq: Reject irq 0\n\nIRQ 0 is not a valid line here.\n\nSigned-off-by: Ada Lovelace <ada@lovelace.dev>\n" >m2 &&
	git -C wt -c user.name="Ada Lovelace" -c user.email=ada@lovelace.dev commit -qa -F "$PWD/m2" &&
	git -C wt format-patch -q --zero-commit --no-signature -o "$PWD/data/kernel-patches/snd" "$tag..HEAD" &&
	(cd data/kernel-patches/snd && { echo "# base: $(cat ../../../version)"; ls -- *.patch; } >series) &&
	printf "misc: dummy-irq: two small cleanups\n\nA fixture series for the send tests.\n" >data/cover-letters/snd.txt &&
	cat >data/branches/snd.conf <<-EOC &&
	[topic]
		name = snd
		prefix = misc
		state = active
		tracks = $track
		patches = kernel-patches/snd
		cover = cover-letters/snd.txt
		description = send fixture
	[track "$track"]
		build-only-part = patch 2 (dummy-irq probe): no guest test loads dummy-irq
	EOC
	git -C data add . && git -C data commit -qm "snd: the fixture topic" &&
	export KQ_ROOT=$PWD/data
'

test_expect_success 'an SMTP server on 127.0.0.1 (aiosmtpd) takes mail' '
	{ "$SHARNESS_TEST_DIRECTORY/smtp-sink.py" "$PWD/smtp" & echo $! >smtp.pid; } &&
	for i in $(seq 100); do test -s smtp/port && break; sleep 0.1; done &&
	test -s smtp/port && cat smtp/port
'

test_expect_success 'the README'"'"'s dry run writes a threaded series, says why it is not sendable, connects to nobody' '
	gcfg sendemail.smtpserver 127.0.0.1 && gcfg sendemail.smtpserverport "$(cat smtp/port)" &&
	run_readme_step send TOPIC=snd && test "$(cat walk.send.rc)" = 0 &&
	cp walk.send.1.out out && cat out &&
	grep -E "^send snd v1 on $(ere "$(cat version)"): 3 messages in .* \(dry run: nothing was sent\)$" out &&
	test_line_count = 3 <(msgs "$(out v1)") &&
	grep -x "  not sendable yet: the git identity .Fixture Author <fixture@example.org>. is a placeholder: replies would go nowhere" out &&
	grep -x "  not sendable yet: no checks on $(cat version) (make check TOPIC=snd KERNEL=$(cat version))" out &&
	grep -x "  not sendable yet: no boot on $(cat version) (make boot KERNEL=$(cat version))" out &&
	! test -e smtp/connections
'

test_expect_success 'subjects, threading, base-commit and change-id are what b4 prep should make' '
	set -- $(msgs "$(out v1)") &&
	test "$(hdr Subject "$1")" = "[PATCH 0/2] misc: dummy-irq: two small cleanups" &&
	test "$(hdr Subject "$2")" = "[PATCH 1/2] misc: dummy-irq: Do not initialise a static to 0" &&
	test "$(hdr Subject "$3")" = "[PATCH 2/2] misc: dummy-irq: Reject irq 0" &&
	cover_id=$(hdr Message-Id "$1") &&
	test "$(hdr In-Reply-To "$2")" = "$cover_id" && test "$(hdr In-Reply-To "$3")" = "$cover_id" &&
	grep -x "base-commit: $(kq_git rev-parse "$(cat tag)^{commit}")" "$1" &&
	grep -E "^change-id: [0-9]{8}-b4-snd-[0-9a-f]{12}$" "$1" &&
	grep "A fixture series for the send tests." "$1"
'

test_expect_success 'To and Cc are who get_maintainer.pl names for the touched file' '
	kq_git show "$(cat tag):MAINTAINERS" >MAINTAINERS &&
	set -- $(msgs "$(out v1)") &&
	{ hdr To "$1"; hdr Cc "$1"; } | tr "," "\n" | sed "s/^ *//; s/ *$//" | grep . | sort >got &&
	awk "/^DUMMY IRQ|^CHAR and MISC DRIVERS/ { on = 1; next } /^$/ { on = 0 } on && /^[ML]:/" MAINTAINERS >entries &&
	test -s entries &&
	for who in $(sed -n "s/^M:.*<\(.*\)>.*/\1/p; s/^L:\t\([^ ]*\).*/\1/p" entries | sort -u); do
		grep -F "$who" got || { echo "missing $who"; return 1; }
	done
'

test_expect_success 'the patches git am cleanly onto the base' '
	rm -rf am && kq_git worktree prune && kq_git worktree add -q --detach am "$(cat tag)" &&
	set -- $(msgs "$(out v1)") &&
	fgit -C am am -q "$PWD/$2" "$PWD/$3" &&
	test "$(git -C am rev-list --count "$(cat tag)..HEAD")" = 2 &&
	git -C am diff "$(cat tag)" HEAD -- "$file" | grep "^+	if (irq <= 0) {"
'

test_expect_success 'refused without checks, boot, identity or SMTP server: one line, nothing sent' '
	cp data/branches/snd.conf conf.before && gcfg --unset sendemail.smtpserver &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "placeholder.*; no SMTP server configured \(git config sendemail.smtpserver\): b4 0.12 would fall back to the kernel.org web endpoint; no checks on .*; no boot on " &&
	! test -e smtp/connections && test_cmp conf.before data/branches/snd.conf &&
	test -z "$(kq_git tag -l "sent/*")"
'

test_expect_success 'the checks and the boot of the topic are green (real check, real QEMU boot)' '
	check snd "$(cat version)" >check.out 2>&1 || { cat check.out; false; } &&
	boot "$(cat version)" >boot.out 2>&1 || { cat boot.out; false; } &&
	grep -E "^boot .*: PASS in" boot.out && grep -E "^  snd +booted" boot.out
'

test_expect_success 'a check that is not pass (error, warn, no status) is refused by name; the cover says what sparse did not check' '
	rec=$KQ_RESULTS/$(cat version)/check-snd.json &&
	cp "$rec" check.good &&
	test_when_finished "cp check.good \"$rec\"" &&
	python3 - "$rec" <<-\EOP &&
	import json, sys
	r = json.load(open(sys.argv[1]))
	r["checks"]["sparse"]["status"] = "error"
	r["checks"]["sparse"]["unchecked"] = ["drivers/misc/dummy-irq.c"]
	r["checks"]["w1"]["status"] = "warn"
	del r["checks"]["build"]["status"]
	json.dump(r, open(sys.argv[1], "w"))
	EOP
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "checks not green on [^ ]+: sparse error, w1 warn, build missing \(sparse could not check: drivers/misc/dummy-irq.c\)" &&
	! grep "checkpatch" err &&
	send snd >out 2>err &&
	grep "not sendable yet: checks not green" out &&
	cat $(msgs "$(out v1)") | tr "\n" " " | tr -s " " >flat &&
	grep -F "sparse could not check drivers/misc/dummy-irq.c" flat &&
	! test -e smtp/connections
'

test_expect_success 'a check record of other check code or settings, a boot without the mm selftests its boot line names: each refused' '
	rec=$KQ_RESULTS/$(cat version)/check-snd.json &&
	cp "$rec" check.good &&
	test_when_finished "cp check.good \"$rec\"" &&
	sed -i "s/\"tool\": \"[0-9a-f]*\"/\"tool\": \"0123456789abcdef0123456789abcdef01234567\"/" "$rec" &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "the checks on [^ ]+ were made by other check code or settings \(tool 0123456789ab, now [0-9a-f]{12}\)" &&
	cp check.good "$rec" &&
	KQ_SPARSE=/bin/true test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "the checks on [^ ]+ were made by other check code or settings" &&
	test_when_finished "git -C data checkout -q branches/snd.conf" &&
	conf topic.boot mm &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "the boot on [^ ]+ ran without the kernel.s mm selftests, which topic.boot names" &&
	! test -e smtp/connections
'

test_expect_success 'an unset identity, a placeholder sendemail.from, uncommitted patch files, another CONFIRM, no terminal: each refused' '
	gcfg sendemail.smtpserver 127.0.0.1 &&
	git -C data config --unset user.email &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "the git identity is unset \(git config user.name / user.email\)$" &&
	git -C data config user.email sender@vmfault-queue.dev &&
	git -C data config user.name "Fixture Sender" &&
	gcfg sendemail.from "Fixture Sender <sender@example.com>" &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "sendemail.from .Fixture Sender <sender@example.com>. is a placeholder address$" &&
	gcfg --unset sendemail.from &&
	echo "# local note" >>data/kernel-patches/snd/series &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "uncommitted changes in kernel-patches/snd/series: commit what you send$" &&
	git -C data checkout -q kernel-patches/snd/series &&
	test_expect_code 1 send --send --confirm fsdax snd >out 2>err &&
	refused "CONFIRM=fsdax names another topic$" &&
	test_expect_code 1 send --send snd </dev/null >out 2>err &&
	refused "no confirmation \(run at a terminal, or CONFIRM=snd\)$" &&
	! test -e smtp/connections
'

test_expect_success 'no recipients (get_maintainer.pl replaced by a command naming nobody): refused' '
	gcfg b4.send-auto-to-cmd /bin/true && gcfg b4.send-auto-cc-cmd /bin/true &&
	{ send --send --confirm snd snd >out 2>err; echo $? >rc; } &&
	gcfg --unset b4.send-auto-to-cmd && gcfg --unset b4.send-auto-cc-cmd &&
	cat err && test "$(cat rc)" = 1 && test_line_count = 1 err && grep "^send: no recipients: get_maintainer.pl found nobody for the files of snd$" err &&
	! test -e smtp/connections
'

test_expect_success 'v1 sent as the README says, with CONFIRM: the SMTP server got the series for the maintainers' '
	run_readme_step send-for-real TOPIC=snd CONFIRM=snd &&
	cp walk.send-for-real.1.out out && cat out && test "$(cat walk.send-for-real.rc)" = 0 &&
	grep -E "^send snd v1 on $(ere "$(cat version)"): 3 messages to [0-9]+ recipients via 127.0.0.1:$(cat smtp/port)$" out &&
	grep -E "^sent snd v1: tag sent/snd-v1, cover <.*>$" out &&
	mkdir v1 && mv smtp/*.eml v1/ && test_line_count = 3 <(msgs v1) &&
	set -- $(msgs v1) &&
	test "$(hdr Subject "$1")" = "[PATCH 0/2] misc: dummy-irq: two small cleanups" &&
	test "$(hdr Subject "$3")" = "[PATCH 2/2] misc: dummy-irq: Reject irq 0" &&
	test "$(hdr From "$1")" = "Fixture Sender <sender@vmfault-queue.dev>" &&
	test "$(hdr X-Envelope-From "$1")" = sender@vmfault-queue.dev &&
	test "$(hdr In-Reply-To "$2")" = "$(hdr Message-Id "$1")" &&
	test "$(hdr In-Reply-To "$3")" = "$(hdr Message-Id "$1")" &&
	{ hdr To "$1"; echo ,; hdr Cc "$1"; } | addrs >headers &&
	sed -n "s/^X-Envelope-To: //p" "$1" | sort -u >envelope &&
	test_cmp headers envelope &&
	grep -F "$(kq_git show "$(cat tag):MAINTAINERS" | sed -n "/^CHAR and MISC DRIVERS/,/^$/s/^M:.*<\(.*\)>.*/\1/p" | head -n 1)" envelope &&
	grep -x "base-commit: $(kq_git rev-parse "$(cat tag)^{commit}")" "$1" &&
	grep -E "^change-id: [0-9]{8}-b4-snd-[0-9a-f]{12}$" "$1" &&
	rm -rf am && kq_git worktree prune && kq_git worktree add -q --detach am "$(cat tag)" &&
	fgit -C am am -q "$PWD/$2" "$PWD/$3" && test "$(git -C am rev-list --count "$(cat tag)..HEAD")" = 2
'

test_expect_success 'v1 carries the sender'"'"'s authorship and sign-off, a real author keeps hers' '
	set -- $(msgs v1) &&
	grep -x "you certify the DCO for 2 patches as Fixture Sender <sender@vmfault-queue.dev>" out &&
	grep -x "  author: misc: dummy-irq: Do not initialise a static to 0: yours (was Fixture Author <fixture@example.org>)" out &&
	grep -x "  author: misc: dummy-irq: Reject irq 0: keeps Ada Lovelace <ada@lovelace.dev>, your sign-off added" out &&
	! grep -il "fixture@example.org\|Fixture Author\|noreply" v1/*.eml &&
	! grep "^From: " <(sed "1,/^$/d" "$2") &&
	grep "^Signed-off-by: " "$2" >sob1 && echo "Signed-off-by: Fixture Sender <sender@vmfault-queue.dev>" >want1 &&
	test_cmp want1 sob1 &&
	sed "1,/^$/d" "$3" | grep -m1 "^From: " >from2 && echo "From: Ada Lovelace <ada@lovelace.dev>" >want2 &&
	test_cmp want2 from2 &&
	grep "^Signed-off-by: " "$3" >sob2 &&
	printf "Signed-off-by: Ada Lovelace <ada@lovelace.dev>\nSigned-off-by: Fixture Sender <sender@vmfault-queue.dev>\n" >want3 &&
	test_cmp want3 sob2 &&
	git -C am log --reverse --format="%an <%ae>" "$(cat tag)..HEAD" >authors &&
	printf "Fixture Sender <sender@vmfault-queue.dev>\nAda Lovelace <ada@lovelace.dev>\n" >want4 &&
	test_cmp want4 authors &&
	for m in "$2" "$3"; do
		(cd am && perl scripts/checkpatch.pl --strict --color=never "$OLDPWD/$m") >cp.out 2>&1 || { cat cp.out; return 1; }
	done &&
	grep -q "^From: Fixture Author <fixture@example.org>" data/kernel-patches/snd/0001-*.patch
'

# testing_paragraph FILE: the generated "How this series was tested" lines.
testing_paragraph() { sed -n "/^How this series was tested/,/^\(---\)\{0,1\}$/p" "$1"; }

test_expect_success 'the cover says how v1 was tested, from the records, in one piece' '
	set -- $(msgs v1) && v=$(cat version) &&
	testing_paragraph "$1" >testing && cat testing &&
	tr "\n" " " <testing | tr -s " " >flat &&
	grep -F "It applies to Debian'"'"'s linux-source $v (upstream ${v%%-*})." flat &&
	grep -F "checkpatch.pl --strict is clean" flat &&
	grep -F "every touched object builds" flat &&
	grep -F "Booted in QEMU (x86_64, TCG) on $v with every topic of the queue merged, verdict PASS" flat &&
	grep -F "Not run in a guest, only built: patch 2 (dummy-irq probe): no guest test loads dummy-irq." flat &&
	grep -F "Prepared on upstream v${v%%-*}: built, checked and booted on Debian'"'"'s linux-source $v, which is v${v%%-*} with Debian'"'"'s patches. The base-commit below names the queue'"'"'s import of that package, not an upstream commit." flat &&
	! grep -E "^[A-Za-z0-9_-]+: " testing &&
	awk "/^How this series was tested/ { t = NR } /^base-commit: / { b = NR } END { exit !(t && b && t < b) }" "$1"
'

test_expect_success 'the testing paragraph counts the kernel'"'"'s mm selftests for a topic that names them, and a build-only part' '
	v=6.12.3-1 && mkdir -p mmres/$v &&
	printf "%s\n" "ok|dax.a" "ok|mm.cow.x" "ok|mm.cow.y" "skip|mm.cow.#3" "fails-on-base|mm.hmm-tests.z" >mm.results &&
	echo "t|0|booted|guest tests: dax mm" >mm.topics &&
	python3 "$S/lib/records.py" write boot mmres/$v/boot.json kernel=str:$v topic=null: tool=str:0 \
		started=str:2026-01-01T00:00:00Z duration_s=num:1 reproducer=str:x track=str:6.12 commit=str:0 \
		selftest=null: verdict=str:PASS reasons=words: accel=str:tcg qemu_exit=int:3 build_s=num:1 \
		boot_s=num:1 config=str:x console=str:x results=table:mm.results:status,name \
		topics=table:mm.topics:topic,tip,how,detail &&
	python3 "$S/lib/cover_testing.py" mmres t "$v" 0 "dax mm" "" "--part=patch 2 (x): no guest runs it" 6.12=$v >para &&
	cat para && tr "\n" " " <para | tr -s " " >flat &&
	grep -F "1 of 1 guest tests and KUnit cases that drive this code passed (dax.a)" flat &&
	grep -F "In the same boot, the kernel'"'"'s own mm selftests (tools/testing/selftests/mm of that tree" flat &&
	grep -F ": 2 results pass, 1 skipped, 0 new failures (1 fail on the base kernel too)." flat &&
	grep -F "Not run in a guest, only built: patch 2 (x): no guest runs it." flat &&
	python3 "$S/lib/cover_testing.py" mmres t "$v" 0 "dax" "" 6.12=$v >para2 &&
	! grep -F "mm selftests" para2
'

test_expect_success 'a single-patch series keeps the testing paragraph whole below its ---' '
	send amdkfd "$(cat version)" >out 2>err || { cat out err; false; } &&
	m=$(find "$KQ_RESULTS/$(cat version)/send-amdkfd/v1" -name "*.eml") &&
	test "$(echo "$m" | wc -l)" = 1 &&
	testing_paragraph "$m" >testing1 && cat testing1 &&
	test "$(wc -l <testing1)" -ge 8 &&
	grep -F "Not run in a guest, only built: svm_migrate_to_ram runs on" testing1 &&
	! grep -E "^[A-Za-z0-9_-]+: " testing1 &&
	awk "/^---$/ && !d { d = NR } /^How this series was tested/ { t = NR } /^diff --git / && !g { g = NR } END { exit !(d < t && t < g) }" "$m"
'

test_expect_success 'after v1: the sent tag, the manifest and the record' '
	set -- $(msgs v1) &&
	change=$(sed -n "s/^change-id: //p" "$1") &&
	kq_git rev-parse -q --verify refs/tags/sent/snd-v1 &&
	test "$(conf topic.sent-version)" = 1 &&
	test "$(conf topic.change-id)" = "$change" &&
	test "$(conf topic.sent-from)" = "$(git -C data rev-parse HEAD)" &&
	topics snd >/dev/null &&
	rec=results/$(cat version)/send-snd.json &&
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(d[\"version\"], d[\"change_id\"], d[\"cover_message_id\"], d[\"tag\"], len(d[\"subjects\"]))" "$rec" >rec &&
	echo "1 $change $(hdr Message-Id "$1") sent/snd-v1 3" >want && test_cmp want rec &&
	python3 "$S/lib/records.py" get "$rec" "subjects.*" >subjects.rec &&
	for m in $(msgs v1); do hdr Subject "$m"; done >subjects.want && test_cmp subjects.want subjects.rec &&
	python3 "$S/lib/records.py" get "$rec" "to.*" >to.rec && test -s to.rec &&
	! grep -v "@" to.rec
'

test_expect_success 'v1 again before the manifest is committed: refused, nothing sent' '
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "uncommitted changes in branches/snd.conf" &&
	test -z "$(msgs smtp)"
'

test_expect_success 'a changed patch: refused until checked and booted again' '
	git -C data commit -qam "snd: sent v1" &&
	rm -rf wt2 && kq_git worktree prune && kq_git worktree add -q --detach wt2 "$(cat tag)" &&
	fgit -C wt2 am -q "$PWD"/data/kernel-patches/snd/0001-*.patch &&
	sed -i "s/	if (irq < 0) {/	if (irq <= 0 || irq >= NR_IRQS) {/" "wt2/$file" &&
	printf "misc: dummy-irq: Reject irq 0 and lines past NR_IRQS\n\nIRQ 0 is not a valid line here, nor is one past NR_IRQS.\n\nSigned-off-by: Fixture Author <fixture@example.org>\n" >m3 &&
	fgit -C wt2 commit -qa -F "$PWD/m3" &&
	rm data/kernel-patches/snd/0002-*.patch &&
	git -C wt2 format-patch -q --zero-commit --no-signature -o "$PWD/data/kernel-patches/snd" HEAD^..HEAD --start-number 2 &&
	(cd data/kernel-patches/snd && { echo "# base: $(cat ../../../version)"; ls -- *.patch; } >series) &&
	git -C data add -A kernel-patches/snd &&
	git -C data commit -qm "snd: also reject lines past NR_IRQS" &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "the checks ran on [0-9a-f]{12}, the topic is now [0-9a-f]{12} .*the last boot on .* does not contain " &&
	check snd "$(cat version)" >check.out 2>&1 || { cat check.out; false; } &&
	boot "$(cat version)" >boot.out 2>&1 || { cat boot.out; false; }
'

test_expect_success 'v2 at the terminal: a wrong answer sends nothing, the topic name sends' '
	echo fsdax >answer && test_expect_code 1 script -qec "send --send snd" /dev/null <answer >out 2>&1 &&
	grep "refusing to send snd v2: not confirmed (.fsdax. typed)" out &&
	test -z "$(msgs smtp)" &&
	echo snd >answer && script -qec "send --send snd" /dev/null <answer >out 2>&1 || { cat out; false; } &&
	grep "sent snd v2: tag sent/snd-v2" out &&
	mkdir v2 && mv smtp/*.eml v2/ && test_line_count = 3 <(msgs v2)
'

test_expect_success 'v2: same change-id, numbered v2, "Changes in v2" with the log and the range-diff' '
	set -- $(msgs v2) && v1cover=$(msgs v1 | head -n 1) &&
	test "$(hdr Subject "$1")" = "[PATCH v2 0/2] misc: dummy-irq: two small cleanups" &&
	test "$(hdr Subject "$3")" = "[PATCH v2 2/2] misc: dummy-irq: Reject irq 0 and lines past NR_IRQS" &&
	grep -x "change-id: $(sed -n "s/^change-id: //p" "$v1cover")" "$1" &&
	sed -n "/^Changes in v2:/,/^---/p" "$1" >changes && cat changes &&
	grep -x -- "- snd: also reject lines past NR_IRQS" changes &&
	! grep -- "- snd: sent v1" changes &&
	grep -x -- "- Range-diff against v1:" changes &&
	grep -E "^\| +1: +[0-9a-f]+ = 1: +[0-9a-f]+ misc: dummy-irq: Do not initialise a static to 0$" changes &&
	grep -E "^\| +2: +[0-9a-f]+ ! 2: +[0-9a-f]+ misc: dummy-irq: Reject irq 0" changes &&
	grep -F "|     ++	if (irq <= 0 || irq >= NR_IRQS) {" changes &&
	grep -E "^\| +Signed-off-by: Fixture Sender" changes &&
	test "$(grep -c "^Signed-off-by:" "$1")" = 0 &&
	test "$(conf topic.sent-version)" = 2 &&
	kq_git rev-parse -q --verify refs/tags/sent/snd-v2
'

# The replies a maintainer would save after v2: a Reviewed-by on the cover
# (for every patch), an Acked-by on patch 2, a Tested-by from somebody who
# was not sent the series, and a Reviewed-by that answers v1.
reply() { python3 "$SHARNESS_TEST_DIRECTORY/mkreply.py" "$@"; }
test_expect_success 'make trailers: the review of v2 goes back into the patch files, strangers and v1 left out' '
	git -C data commit -qam "snd: sent v2" &&
	set -- $(msgs v2) && : >replies.mbox &&
	reply replies.mbox "$1" "Arnd Bergmann <arnd@arndb.de>" "Reviewed-by: Arnd Bergmann <arnd@arndb.de>" &&
	reply replies.mbox "$3" "Greg Kroah-Hartman <gregkh@linuxfoundation.org>" "Acked-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>" &&
	reply replies.mbox "$2" "Some Stranger <stranger@elsewhere.dev>" "Tested-by: Some Stranger <stranger@elsewhere.dev>" &&
	reply replies.mbox "$(msgs v1 | tail -n 1)" "Arnd Bergmann <arnd@arndb.de>" "Reviewed-by: Arnd Bergmann <arnd@arndb.de>" &&
	run_readme_step trailers TOPIC=snd MBOX="$PWD/replies.mbox" &&
	cp walk.trailers.1.out out && cat out && test "$(cat walk.trailers.rc)" = 0 &&
	grep -x "trailers snd v2: 3 new trailers" out &&
	p1=$(ls data/kernel-patches/snd/0001-*.patch) && p2=$(ls data/kernel-patches/snd/0002-*.patch) &&
	grep -x "  ${p1##*/}: +Reviewed-by: Arnd Bergmann <arnd@arndb.de>" out &&
	grep -x "  ${p2##*/}: +Acked-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>" out &&
	grep -x "  ${p2##*/}: +Reviewed-by: Arnd Bergmann <arnd@arndb.de>" out &&
	grep -x "  not taken: Tested-by: Some Stranger <stranger@elsewhere.dev> (patch 1): stranger@elsewhere.dev did not receive v2 (SLOPPY=yes takes it)" out &&
	grep "  not taken: Reviewed-by: Arnd Bergmann <arnd@arndb.de> (unknown message): a reply to .\[PATCH 2/2\] misc: dummy-irq: Reject irq 0., not a message of v2" out &&
	sed -n "/^Signed-off-by\|^[A-Z][a-z]*-by: /p" "$p1" >t1 &&
	printf "Reviewed-by: Arnd Bergmann <arnd@arndb.de>\nSigned-off-by: Fixture Author <fixture@example.org>\n" >w1 && test_cmp w1 t1 &&
	sed -n "/^[A-Z][a-z-]*-by: /p" "$p2" >t2 &&
	printf "Acked-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\nReviewed-by: Arnd Bergmann <arnd@arndb.de>\nSigned-off-by: Fixture Author <fixture@example.org>\n" >w2 &&
	test_cmp w2 t2 &&
	git -C data diff --numstat -- kernel-patches | awk "{ a += \$1; d += \$2 } END { exit !(a == 3 && d == 0) }"
'

test_expect_success 'SLOPPY=yes takes the stranger too; a reply to a patch changed since v2 is reported, not taken' '
	git -C data stash -q &&
	trailers --sloppy snd replies.mbox >out 2>&1 || { cat out; false; } &&
	grep -x "  $(ls data/kernel-patches/snd/0001-*.patch | sed "s|.*/||"): +Tested-by: Some Stranger <stranger@elsewhere.dev>" out &&
	git -C data checkout -q kernel-patches && git -C data stash pop -q &&
	cp -r data/kernel-patches/snd keep &&
	sed -i "s/irq >= NR_IRQS/irq >= nr_irqs/" data/kernel-patches/snd/0002-*.patch &&
	: >late.mbox && set -- $(msgs v2) &&
	reply late.mbox "$3" "Arnd Bergmann <arnd@arndb.de>" "Tested-by: Arnd Bergmann <arnd@arndb.de>" &&
	trailers snd late.mbox >out 2>&1 || { cat out; false; } &&
	grep "  not taken: Tested-by: Arnd Bergmann <arnd@arndb.de> (patch 2): patch 2 changed since v2 was sent" out &&
	! grep -q "Tested-by" data/kernel-patches/snd/0002-*.patch &&
	rm -rf data/kernel-patches/snd && mv keep data/kernel-patches/snd &&
	git -C data add -A kernel-patches/snd && git -C data commit -qm "snd: collect the review of v2"
'

test_expect_success 'v3: the server refuses the second message; what went out is journaled, a plain rerun is refused, RESUME sends only the rest, in the same thread' '
	check snd "$(cat version)" >check3.out 2>&1 || { cat check3.out; false; } &&
	boot "$(cat version)" >boot3.out 2>&1 || { cat boot3.out; false; } &&
	echo 2 >smtp/refuse-at &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	cat out err &&
	journal=$KQ_RESULTS/$(cat version)/send-snd.v3.journal &&
	grep -E "^send: b4 send stopped after 1 of 3 messages went out to 127\.0\.0\.1:$(cat smtp/port) \($(ere "$journal");.*refused by the test server.*make send TOPIC=snd SEND=yes RESUME=yes sends the other 2 in the same thread$" err &&
	test_line_count = 1 "$journal" && cut -f1 "$journal" >nums && echo 0 | test_cmp - nums &&
	test_line_count = 1 <(ls smtp/*.eml) &&
	cover3=$(hdr Message-Id smtp/*.eml) && test "$(cut -f2 "$journal")" = "$cover3" &&
	test_expect_code 1 send --send --confirm snd snd >out 2>err &&
	refused "v3 was partly sent: 1 message\(s\) \(0 $(ere "$cover3")\) went out .*RESUME=yes\)$" &&
	test_line_count = 1 <(ls smtp/*.eml) &&
	send snd >out 2>err && grep "not sendable yet: v3 was partly sent" out &&
	run_readme_step send-for-real TOPIC=snd CONFIRM=snd RESUME=yes &&
	cp walk.send-for-real.1.out out && cat out && test "$(cat walk.send-for-real.rc)" = 0 &&
	grep -E "^sent snd v3: tag sent/snd-v3, cover $(ere "$cover3")$" out &&
	test_line_count = 3 "$journal" && cut -f1 "$journal" >nums && printf "0\n1\n2\n" | test_cmp - nums
'

test_expect_success 'v3 went out once, whole, threaded under the cover that went first, with the collected tags and Changes in v3' '
	rm -rf v3 && mkdir v3 && mv smtp/*.eml v3/ && set -- $(msgs v3) &&
	test_line_count = 3 <(msgs v3) &&
	for m in "$@"; do hdr Subject "$m"; done | sort | uniq -d >twice && test_must_be_empty twice &&
	test "$(hdr In-Reply-To "$2")" = "$(hdr Message-Id "$1")" &&
	test "$(hdr In-Reply-To "$3")" = "$(hdr Message-Id "$1")" &&
	grep -F "$(hdr Message-Id "$1")" <(hdr References "$3") &&
	test "$(hdr Subject "$1")" = "[PATCH v3 0/2] misc: dummy-irq: two small cleanups" &&
	sed -n "/^Changes in v3:/,/^---/p" "$1" >changes3 && cat changes3 &&
	grep -x -- "- snd: collect the review of v2" changes3 &&
	grep -x -- "- Collected Reviewed-by from Arnd Bergmann <arnd@arndb.de>" changes3 &&
	grep -x -- "- Collected Acked-by from Greg Kroah-Hartman <gregkh@linuxfoundation.org>" changes3 &&
	grep "^[A-Z][a-z-]*-by: " "$3" >t3 &&
	printf "Acked-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\nReviewed-by: Arnd Bergmann <arnd@arndb.de>\nSigned-off-by: Fixture Sender <sender@vmfault-queue.dev>\n" >w3 &&
	test_cmp w3 t3
'

test_expect_success 'make trailers: bad input, one line, exit 2' '
	test_expect_code 2 trailers snd no-such.mbox 2>err && test_line_count = 1 err && grep "no-such.mbox" err &&
	test_expect_code 2 trailers nosuch replies.mbox 2>err && test_line_count = 1 err &&
	test_expect_code 2 make -s -C "$REPO" trailers TOPIC=snd 2>err && grep "set MBOX" err
'

test_expect_success 'bad input: one line, exit 2' '
	test_expect_code 2 send nosuch 2>err && test_line_count = 1 err && grep "unknown topic .nosuch." err &&
	test_expect_code 2 send snd 6.1.192-3 2>err && test_line_count = 1 err && grep "does not target track 6.1" err &&
	test_expect_code 2 send --confirm snd snd 2>err && test_line_count = 1 err && grep "confirm without --send" err &&
	test_expect_code 2 make -s -C "$REPO" send TOPIC=snd KERNEL=newest-6.1 2>err &&
	test "$(grep -c "^send: " err)" = 1 && grep "^send: .*does not target track 6.1" err
'

test_expect_success 'stop the SMTP server: it is gone' '
	pid=$(cat smtp.pid) && kill "$pid" &&
	for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done &&
	! kill -0 "$pid" 2>/dev/null
'

test_expect_success 'every record this script wrote fits the schema' '
	records_written >recs && grep -q "/send-snd.json$" recs && grep -q "/check-snd.json$" recs &&
	validate_listed recs
'

test_done
