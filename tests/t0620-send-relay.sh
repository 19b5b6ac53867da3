#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='send-relay: each message journaled once the SMTP server took it; a resumed series skips what went out and answers the cover that did'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

hdr() { awk -v h="$1" -f "$S/lib/header.awk" "$2"; }
# mail N OF ID [IN-REPLY-TO]: message N/OF of a series, Message-Id <ID>
mail() {
	printf "From: Fixture Sender <sender@vmfault-queue.dev>\nTo: maint@example.org\nSubject: [PATCH v2 %s/%s] misc: dummy-irq: part %s\nMessage-Id: <%s>\n" "$1" "$2" "$1" "$3"
	[ -z "${4:-}" ] || printf "In-Reply-To: <%s>\nReferences: <%s>\n" "$4" "$4"
	printf "\nbody %s\n" "$1"
}
relay() { send-relay -i -f sender@vmfault-queue.dev maint@example.org; }

test_expect_success 'an SMTP server on 127.0.0.1 takes mail' '
	{ "$SHARNESS_TEST_DIRECTORY/smtp-sink.py" "$PWD/smtp" & echo $! >smtp.pid; } &&
	for i in $(seq 100); do test -s smtp/port && break; sleep 0.1; done &&
	test -s smtp/port &&
	export KQ_RELAY_SERVER=127.0.0.1 KQ_RELAY_PORT=$(cat smtp/port) KQ_RELAY_JOURNAL=$PWD/journal KQ_RELAY_RESUME=no
'

test_expect_success 'a message the server takes is relayed with its envelope and journaled; one it refuses is not journaled, exit 1 naming the refusal' '
	echo 2 >smtp/refuse-at &&
	mail 0 2 c1@x | relay &&
	test_expect_code 1 relay <<-EOF 2>err &&
	$(mail 1 2 p1@x c1@x)
	EOF
	test_line_count = 1 err && grep "^send-relay: 127.0.0.1:[0-9]* did not take the message: .*refused by the test server" err &&
	test_line_count = 1 journal && printf "0\t<c1@x>\t[PATCH v2 0/2] misc: dummy-irq: part 0\n" | test_cmp - journal &&
	ls smtp/*.eml >got && test_line_count = 1 got &&
	grep -x "X-Envelope-From: sender@vmfault-queue.dev" smtp/001.eml && grep -x "X-Envelope-To: maint@example.org" smtp/001.eml
'

test_expect_success 'resumed: the journaled cover is not sent again; the rest answers it, not the cover of this run' '
	export KQ_RELAY_RESUME=yes &&
	mail 0 2 c2@x | relay 2>err && grep "went out before as <c1@x>: not sent again" err &&
	mail 1 2 p1b@x c2@x | relay && mail 2 2 p2b@x c2@x | relay &&
	ls smtp/*.eml >got && test_line_count = 3 got &&
	test "$(hdr In-Reply-To smtp/002.eml)" = "<c1@x>" && test "$(hdr References smtp/003.eml)" = "<c1@x>" &&
	! grep -F "c2@x" smtp/002.eml smtp/003.eml &&
	cut -f1,2 journal >j && printf "0\t<c1@x>\n1\t<p1b@x>\n2\t<p2b@x>\n" | test_cmp - j &&
	mail 1 2 p1c@x c2@x | relay 2>err && grep "went out before as <p1b@x>" err &&
	ls smtp/*.eml >got && test_line_count = 3 got
'

test_expect_success 'a server that cannot be reached: exit 1, one line, nothing journaled' '
	cp journal journal.before &&
	KQ_RELAY_PORT=9 KQ_RELAY_RESUME=no test_expect_code 1 relay <<-EOF 2>err &&
	$(mail 3 3 p3@x c1@x)
	EOF
	test_line_count = 1 err && grep "^send-relay: 127.0.0.1:9 did not take the message" err &&
	test_cmp journal.before journal
'

test_expect_success 'bad input: no recipient, no journal, an unknown option, no Message-Id; one line, exit 2' '
	test_expect_code 2 send-relay -i </dev/null 2>err && test_line_count = 1 err && grep "no recipients" err &&
	mail 1 1 a@x | KQ_RELAY_JOURNAL= test_expect_code 2 send-relay x@y 2>err && grep "KQ_RELAY_JOURNAL is not set" err &&
	test_expect_code 2 send-relay --bcc x@y </dev/null 2>err && grep "unknown option .--bcc." err &&
	printf "Subject: [PATCH 1/1] x\n\nbody\n" | test_expect_code 2 send-relay x@y 2>err && grep "without a Message-Id" err
'

test_expect_success 'stop the SMTP server' '
	kill "$(cat smtp.pid)"
'

test_done
