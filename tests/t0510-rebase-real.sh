#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='rebase: the real topics walked through the newest packaged kernels of their tracks'
KQ_CACHE=${KQ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmfault-queue}
export KQ_CACHE
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"
use_results_copy

need_real_kernel

sums() { (cd "$REPO" && find branches kernel-patches cover-letters -type f | sort | xargs md5sum); }

# The newest two versions of each track: every track gets a real move with
# its range-diff, and a new machine imports a few versions, not all twenty
# (the whole walk is make chain; t0500 walks every version of a synthetic
# chain).
test_expect_success 'the chain walks every active topic up to the newest kernel of each of its tracks' '
	sums >before &&
	rebase --chain --last 2 >out 2>err &&
	cat out &&
	sums >after && test_cmp before after &&
	grep "^track 6.1: " out && grep "^track 6.12: " out &&
	python3 - "$KQ_RESULTS" "$REPO/branches" <<-\EOP
	import configparser, glob, json, os, subprocess, sys
	results, branches = sys.argv[1:]
	tracks = [l.split()[0] for l in open(os.path.join(os.path.dirname(branches), "scripts/tracks")) if l.strip() and not l.startswith("#")]
	newest = {t: subprocess.check_output(["kernels", "--newest", t], text=True).strip() for t in tracks}
	for conf in sorted(glob.glob(branches + "/*.conf")):
	    get = lambda k: subprocess.run(["git", "config", "-f", conf, k], capture_output=True, text=True).stdout.strip()
	    if get("topic.state") != "active":
	        continue
	    name = get("topic.name")
	    for track in get("topic.tracks").split():
	        r = json.load(open(os.path.join(results, newest[track], "rebase-%s.json" % name)))
	        assert r["status"] in ("ok", "base"), (name, track, r["status"])
	EOP
'

test_expect_success 'every move the walk made has its range-diff' '
	python3 - "$KQ_RESULTS" <<-\EOP
	import glob, json, os, sys
	n = 0
	for f in glob.glob(sys.argv[1] + "/*/rebase-*.json"):
	    r = json.load(open(f))
	    if r["status"] == "ok":
	        assert os.path.getsize(r["range_diff"]) > 0, f
	        n += 1
	assert n > 0
	print(n, "moves")
	EOP
'

test_expect_success 'every rebase record the walk wrote fits the schema' '
	records_written >recs && grep -q "/rebase-" recs && validate_listed recs
'

test_done
