#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='addresses: a made-up address is a placeholder; a no-reply one is a real author, never a sender'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"
. "$S/lib/addresses.sh"

test_expect_success 'made-up addresses are placeholders, and take no mail either way' '
	for a in "" a@example.org b@EXAMPLE.com c@localhost d@host.localdomain e@x.invalid f@y.test \
		your.email@domain.tld "maintainers@users.noreply.a-seed.example"; do
		placeholder "$a" || { echo "not a placeholder: $a"; return 1; }
	done
'

test_expect_success 'a GitHub no-reply address is a real contributor, not a placeholder, and takes no replies' '
	for a in 1234567+jane@users.noreply.github.com jane@users.noreply.github.com bot@no-reply.example.net; do
		no_replies "$a" || { echo "takes replies?: $a"; return 1; }
	done &&
	! placeholder 1234567+jane@users.noreply.github.com &&
	! placeholder jane@users.noreply.github.com
'

test_expect_success 'a real address is neither' '
	for a in dev@kernel.org jane.doe@gmail.com maintainer@lists.infradead.org; do
		! placeholder "$a" && ! no_replies "$a" || { echo "misread: $a"; return 1; }
	done
'

test_done
