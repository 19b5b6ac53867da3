#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='records: one module writes and reads every record, and refuses what does not fit'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

R="python3 $S/lib/records.py"
common='kernel=str:6.12.1-1 topic=str:t tool=str:0 started=str:2026-01-01T00:00:00Z duration_s=num:1.5s reproducer=str:make'
apply_fields='track=str:6.12 status=str:ok branch=str:b base=str:0 tip=str:1 patches=int:2 patches_sha1=str:0 failed=null:'

test_expect_success 'a record is written with the common fields first, one field per line' '
	$R write apply a.json $common $apply_fields &&
	head -n 3 a.json >head && printf "{\n  \"kind\": \"apply\",\n  \"kernel\": \"6.12.1-1\",\n" >want &&
	test_cmp want head &&
	test "$(wc -l <a.json)" = 17 &&
	$R validate a.json &&
	test "$($R get a.json duration_s patches status | paste -sd" ")" = "1.5 2 ok"
'

test_expect_success 'hostile strings: quotes, backslashes, tabs, ESC, non-UTF-8 bytes survive' '
	printf "say \"hi\"\tback\\\\slash \033[31mred\033[0m \377\376 end\n\nsecond|with|bars\n" >hostile &&
	printf "a.c|3|x \"q\" \\\\ \033 \377\n" >table &&
	$R write apply h.json $common $apply_fields "failed=text:hostile" &&
	$R write scan s.json $common topic=null: apply=str:none commit=str:0 configs=lines:hostile files=int:1 \
		findings=words: "unchecked=table:table:file,tool,reason" workarounds=words: &&
	$R validate h.json s.json &&
	python3 - <<-\EOP
	import json
	h = json.load(open("h.json", encoding="utf-8"))
	raw = open("hostile", "rb").read().decode("utf-8", errors="replace")
	assert h["failed"] == raw, (h["failed"], raw)
	assert "\x1b[31m" in h["failed"] and "\ufffd" in h["failed"] and "\t" in h["failed"]
	s = json.load(open("s.json", encoding="utf-8"))
	assert s["configs"] == [l for l in raw.splitlines() if l.strip()], s["configs"]
	assert s["unchecked"] == [{"file": "a.c", "tool": "3", "reason": "x \"q\" \\ \x1b \ufffd"}], s["unchecked"]
	EOP
	grep -F "\\u001b[31m" h.json
'

test_expect_success 'what does not fit the schema is refused, and the old record stays' '
	cp a.json before.json &&
	test_expect_code 1 $R write apply a.json $common track=str:6.12 status=str:ok branch=str:b base=str:0 \
		tip=str:1 patches_sha1=str:0 failed=null: 2>err &&
	test_line_count = 1 err && grep "patches: missing" err &&
	test_expect_code 1 $R write apply a.json $common $apply_fields status=str:maybe 2>err &&
	grep "status: .maybe. is not one of ok|fail" err &&
	test_expect_code 1 $R write apply a.json $common $apply_fields extra=str:x 2>err &&
	grep "extra: not in the schema" err &&
	test_expect_code 1 $R write apply a.json $common $apply_fields started=str:yesterday 2>err &&
	grep "started: .yesterday. is not YYYY-MM-DDTHH:MM:SSZ" err &&
	test_expect_code 2 $R write nosuchkind a.json $common 2>err && grep "unknown kind" err &&
	test_expect_code 2 $R write apply a.json $common $apply_fields patches=int:two 2>err &&
	test_line_count = 1 err && grep "patches:" err &&
	test_expect_code 2 $R write apply a.json $common $apply_fields failed=lines:/no/such/file 2>err &&
	test_line_count = 1 err &&
	test_cmp before.json a.json && ! ls a.json.tmp* 2>/dev/null
'

test_expect_success 'validate names every fault of a file; get fails on a missing field' '
	echo "{\"kind\": \"check\", \"kernel\": 1}" >bad.json && echo "not json" >worse.json &&
	test_expect_code 1 $R validate a.json bad.json worse.json >out &&
	grep "^bad.json: kernel: 1 is not a string$" out && grep "^bad.json: checks: missing$" out &&
	grep "^worse.json: not JSON" out && ! grep "^a.json" out &&
	test_expect_code 1 $R get a.json no.such.field 2>err && grep "no field no.such.field" err
'

test_expect_success 'the reference page documents exactly the schema the module enforces' '
	$R schema >schema.md &&
	sed -n "/^<!-- records-schema -->$/,/^<!-- \/records-schema -->$/p" "$REPO/scripts/doc/records.md" | sed "1d;\$d" >readme.md &&
	test_cmp schema.md readme.md
'

# JSON made or read by hand: a printf of "key": pairs, the old awk escapers,
# a sed that digs a field out of a record.
hand_json='printf .*\\?"[a-z_]+\\?": |json_str|json_list|sed .*"(started|tip|kernel|status)"'

test_expect_success 'no script builds JSON by hand or reads it with sed or grep' '
	cat >probe <<-\EOP &&
	printf '"'"'{\n  "topic": "%s",\n'"'"' "$t"
	printf "{\"topic\": \"%s\"}" "$t"
	note "at $(sed -n '"'"'s/.*"started": "\(.*\)".*/\1/p'"'"' "$rec")"
	EOP
	grep -cE "$hand_json" probe >n && test "$(cat n)" = 3 &&
	{ (cd "$REPO/scripts" && git grep -nE "$hand_json" -- . ":!lib/records.py") || true; } >hand &&
	test_must_be_empty hand
'

test_done
