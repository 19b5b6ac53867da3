#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='check every real topic on the real newest 6.12'
KQ_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
export KQ_CACHE
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"
use_results_copy

need_real_kernel

test_expect_success 'no check fails for any active 6.12 topic' '
	v=$(kernels --newest 6.12) && echo "$v" >version &&
	check all "$v" >out 2>err &&
	cat out &&
	! grep -E "^[^ ]+ +[a-z0-9]+ +fail " out
'

test_expect_success 'each topic has a record; conversion topics removed vm_fault_t warnings' '
	v=$(cat version) &&
	for t in $(cd "$REPO/branches" && grep -l "tracks = .*6\.12" *.conf | sed "s/\.conf$//"); do
		test "$(git config -f "$REPO/branches/$t.conf" topic.state)" = active || continue
		python3 - "$KQ_RESULTS/$v/check-$t.json" "$t" <<-\EOP || return 1
		import json, sys
		r = json.load(open(sys.argv[1]))
		assert r["topic"] == sys.argv[2], r["topic"]
		c = r["checks"]
		assert c["checkpatch"]["status"] == "pass" and c["build"]["status"] == "pass", c
		# what the base already had is information: nothing new is a pass
		for k in ("sparse", "w1"):
		    assert not c[k]["new"], (k, c[k]["new"])
		    assert c[k]["status"] == "pass", (k, c[k])
		    assert ("%d kept from the base" % len(c[k]["kept"])) in c[k]["summary"], (k, c[k])
		assert r["objects"], "no objects"
		# a conversion removes vm_fault_t warnings; a test topic adds a
		# KUnit suite and must simply not add any
		removed = r["checks"]["sparse"]["removed"]
		if not any(o.endswith("_kunit.o") for o in r["objects"]):
		    assert any("vm_fault_t" in w for w in removed), (sys.argv[2], removed)
		EOP
	done
'

test_expect_success 'the check records of every real topic fit the schema' '
	ls "$KQ_RESULTS/$(cat version)"/check-*.json >recs &&
	test "$(wc -l <recs)" -ge 5 && validate_listed recs
'

test_done
