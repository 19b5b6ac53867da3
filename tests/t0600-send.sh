#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034,SC2154
test_description='send: a fixture topic on the real 6.12 tree prepared as a b4 series, dry run'
REAL_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

need_real_kernel

file=drivers/misc/dummy-irq.c
# msgs VERSION: the messages, relative to the trash directory (no spaces)
msgs() { find "results/$(cat version)/send-snd/$1" -name "*.eml" | sort; }
# hdr NAME FILE: an unfolded header
hdr() { awk -v h="$1: " '/^$/ { exit } /^[ \t]/ { sub(/^[ \t]+/, " "); c = c $0; next } { if (index(c, h) == 1) print substr(c, length(h) + 1); c = $0 } END { if (index(c, h) == 1) print substr(c, length(h) + 1) }' "$2"; }

test_expect_success 'setup: a two-patch fixture topic, its repository committed' '
	v=$(KQ_CACHE=$REAL_CACHE kernels --newest 6.12) && echo "$v" >version &&
	KQ_CACHE=$REAL_CACHE kernel-tree "$v" >/dev/null &&
	tag=debian/$(sed "s/~/_/" version) && echo "$tag" >tag &&
	use_fixture_cache "$REAL_CACHE" "$tag" &&
	mkdir -p data/branches data/kernel-patches/snd data/cover-letters g &&
	git init -q g && kq_git show "$tag:$file" >g/dummy-irq.c && git -C g add . && fgit -C g commit -qm base &&
	kq_git worktree prune && rm -rf wt && kq_git worktree add -q --detach wt "$tag" &&
	sed -i "s/static int count = 0;/static int count;/" "wt/$file" &&
	printf "misc: dummy-irq: Do not initialise a static to 0\n\nStatics start at 0.\n\nSigned-off-by: Fixture Author <fixture@example.org>\n" >m1 &&
	fgit -C wt commit -qa -F "$PWD/m1" &&
	sed -i "s/	if (irq < 0) {/	if (irq <= 0) {/" "wt/$file" &&
	printf "misc: dummy-irq: Reject irq 0\n\nIRQ 0 is not a valid line here.\n\nSigned-off-by: Fixture Author <fixture@example.org>\n" >m2 &&
	fgit -C wt commit -qa -F "$PWD/m2" &&
	git -C wt format-patch -q --zero-commit --no-signature -o "$PWD/data/kernel-patches/snd" "$tag..HEAD" &&
	(cd data/kernel-patches/snd && { echo "# base: $(cat ../../../version)"; ls -- *.patch; } >series) &&
	printf "misc: dummy-irq: two small cleanups\n\nA fixture series for the send tests.\n" >data/cover-letters/snd.txt &&
	cat >data/branches/snd.conf <<-EOC &&
	[topic]
		name = snd
		prefix = misc
		state = active
		tracks = 6.12
		patches = kernel-patches/snd
		cover = cover-letters/snd.txt
		description = send fixture
	EOC
	git init -q data && fgit -C data add . && fgit -C data commit -qm fixture &&
	git -C data config user.name "Fixture Author" && git -C data config user.email fixture@example.org &&
	export KQ_ROOT=$PWD/data
'

test_expect_success 'a listener on 127.0.0.1 records every connection (for the no-SMTP check)' '
	python3 -c "
import socket, sys
s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(5)
open(\"port\", \"w\").write(str(s.getsockname()[1]))
s.settimeout(600)
while True:
    try:
        c, a = s.accept()
    except OSError:
        break
    open(\"connections\", \"a\").write(\"connection\\n\"); c.close()
" &
	echo $! >listener && for i in $(seq 50); do test -s port && break; sleep 0.1; done && test -s port
'

test_expect_success 'the dry run writes a threaded series for the maintainers and connects to nobody' '
	port=$(cat port) &&
	GIT_CONFIG_GLOBAL=$PWD/gitconfig git config --global sendemail.smtpserver 127.0.0.1 &&
	GIT_CONFIG_GLOBAL=$PWD/gitconfig git config --global sendemail.smtpserverport "$port" &&
	GIT_CONFIG_GLOBAL=$PWD/gitconfig send snd >out 2>err &&
	cat out &&
	grep -E "^send snd v1 on $(cat version): 3 messages in .* \(dry run: nothing was sent\)$" out &&
	test_line_count = 3 <(msgs v1) &&
	! test -e connections
'

test_expect_success 'subjects, threading, base-commit and change-id are what b4 prep should make' '
	set -- $(msgs v1) &&
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
	set -- $(msgs v1) &&
	{ hdr To "$1"; hdr Cc "$1"; } | tr "," "\n" | sed "s/^ *//; s/ *$//" | grep . | sort >got &&
	awk "/^DUMMY IRQ|^CHAR and MISC DRIVERS/ { on = 1; next } /^$/ { on = 0 } on && /^[ML]:/" MAINTAINERS >entries &&
	test -s entries &&
	for who in $(sed -n "s/^M:.*<\(.*\)>.*/\1/p; s/^L:\t\([^ ]*\).*/\1/p" entries | sort -u); do
		grep -F "$who" got || { echo "missing $who"; return 1; }
	done
'

test_expect_success 'the patches git am cleanly onto the base' '
	kq_git worktree prune && rm -rf am && kq_git worktree add -q --detach am "$(cat tag)" &&
	set -- $(msgs v1) &&
	fgit -C am am -q "$PWD/$2" "$PWD/$3" &&
	test "$(git -C am rev-list --count "$(cat tag)..HEAD")" = 2 &&
	git -C am diff "$(cat tag)" HEAD -- "$file" | grep "^+	if (irq <= 0) {"
'

test_expect_success 'a series sent before keeps its change-id and the next version number' '
	git config -f data/branches/snd.conf topic.change-id 20260101-b4-snd-0123456789ab &&
	git config -f data/branches/snd.conf topic.sent-version 2 &&
	GIT_CONFIG_GLOBAL=$PWD/gitconfig send snd >out &&
	set -- $(msgs v3) &&
	test "$(hdr Subject "$1")" = "[PATCH v3 0/2] misc: dummy-irq: two small cleanups" &&
	grep -x "change-id: 20260101-b4-snd-0123456789ab" "$1" &&
	! test -e connections
'

test_expect_success 'bad input: one line, exit 2' '
	test_expect_code 2 send nosuch 2>err && test_line_count = 1 err && grep "unknown topic .nosuch." err &&
	test_expect_code 2 send snd 6.1.192-3 2>err && test_line_count = 1 err && grep "does not target track 6.1" err
'

test_expect_success 'stop the listener' '
	kill "$(cat listener)" 2>/dev/null; true
'

test_done
