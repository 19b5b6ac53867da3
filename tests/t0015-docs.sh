#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='the documentation: a short README, reference pages that agree with -h, generated figures, no history, a walkthrough the tests run'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# history_words DIR: every line of DIR's text files that speaks of how the
# project was built rather than of the queue: a work session by number or
# as the current one, what was so until lately, an issue of the tracker by
# number.  (The words are spelled with a bracket here, so this file does
# not name them.)
history_words() (
	cd "$1" || return 1
	git ls-files -co --exclude-standard -z | xargs -0 grep -I -n -i -E \
		'\bst[o]ps? [0-9]+|\b(this|last|next|earlier|previous) (rou[n]d|st[o]p)s?\b|\buntil (rece[n]tly|th[i]s)\b|\bsince st[o]p\b|\bissu[e] #?[0-9]+'
	exit 0
)

test_expect_success 'README.md is at most 300 lines' '
	wc -l <"$REPO/README.md" >n && cat n && test "$(cat n)" -le 300
'

test_expect_success 'every usage block of a reference page is what the verb'"'"'s -h prints, every verb has a page, the figures are made from ci/bench.tsv' '
	docgen --check 2>err || { cat err; false; }
'

test_expect_success 'a drifted usage, a verb without a page, a figure not regenerated: each fails docgen --check, naming it' '
	mkdir copy && cp -r "$REPO/scripts" "$REPO/ci" "$REPO/README.md" copy/ &&
	(cd copy && git init -q . && git add -A) &&
	copy/scripts/docgen --check &&
	sed -i "s/^USAGE=\"usage: summary VERSION\.\.\./USAGE=\"usage: summary VERSION... [--drift]/" copy/scripts/summary &&
	grep -q -- "--drift" copy/scripts/summary &&
	test_expect_code 1 copy/scripts/docgen --check 2>err &&
	grep "^docgen: scripts/doc/topics.md: a usage block is not what the verb.s -h prints" err &&
	copy/scripts/docgen --write 2>/dev/null && copy/scripts/docgen --check &&
	grep -F "usage: summary VERSION... [--drift]" copy/scripts/doc/topics.md &&
	printf "#!/bin/sh\necho \"usage: orphan\"\n" >copy/scripts/orphan && chmod +x copy/scripts/orphan &&
	test_expect_code 1 copy/scripts/docgen --check 2>err &&
	grep "^docgen: scripts/orphan has no reference page" err && rm copy/scripts/orphan &&
	printf "2026-12-01T00:00Z\tabc\t7.3.4-1~bpo13+1\t2\t0.90\twarm:make\t123.4\t-\t-\twarm\n" >>copy/ci/bench.tsv &&
	test_expect_code 1 copy/scripts/docgen --check 2>err &&
	grep "^figures: README.md.s table is not the one" err &&
	copy/scripts/figures --write && copy/scripts/figures --check &&
	grep -F "| warm \`make\`, nothing changed | 123.4 s (2m03s) | 7.3.4-1~bpo13+1, 2 cores, ref 0.90 | 2026-12-01 \`abc\` |" copy/README.md &&
	printf "2026-12-01T00:00Z\tabc\tonly three\n" >>copy/ci/bench.tsv &&
	test_expect_code 2 copy/scripts/figures 2>err && test_line_count = 1 err &&
	grep "bench.tsv:[0-9]*: not ten tab-separated fields" err
'

test_expect_success 'links: every page the README links exists, every reference page is linked from the README, links between pages resolve' '
	grep -o "](scripts/doc/[a-z0-9-]*\.md)" "$REPO/README.md" | sed "s/^](//;s/)$//" | sort -u >linked &&
	while read -r p; do test -f "$REPO/$p" || { echo "missing: $p"; return 1; }; done <linked &&
	(cd "$REPO" && ls scripts/doc/*.md) >pages &&
	test_cmp pages linked &&
	for p in $(cat pages); do
		grep -o "]([a-z0-9-]*\.md)" "$REPO/$p" | sed "s/^](//;s/)$//" | while read -r l; do
			test -f "$REPO/scripts/doc/$l" || { echo "$p: no page $l"; exit 1; }
		done || return 1
	done
'

test_expect_success 'every make target make help names is in the README'"'"'s verbs table' '
	make -s -C "$REPO" help | sed -n "s/^make \([a-z-]*\).*/\1/p" | sort -u >targets &&
	test_line_count -ge 20 targets &&
	for t in $(cat targets); do
		grep -E "^\| .*\`make $t[\` ]" "$REPO/README.md" >/dev/null || { echo "not in the verbs table: make $t"; return 1; }
	done
'

test_expect_success 'no text of the repository speaks of how it was built (and the lint finds it when one does)' '
	history_words "$REPO" >found && test_must_be_empty found &&
	mkdir probe && (cd probe && git init -q . &&
		printf "fast since %s 41\nas until th%s %s\nsee %s 24\nthe round trip of an errno\n" st""op i""s ro""und iss""ue >notes.md &&
		printf "a %s 12 test\n" st""op >t.sh) &&
	history_words probe >found && cat found &&
	test_line_count = 4 found && ! grep "round trip" found
'

test_expect_success 'the walkthrough: each step a block of make commands of real targets and variables, each run by a test from the README' '
	sed -n "s/^<!-- walkthrough: \([a-z-]*\) -->$/\1/p" "$REPO/README.md" >steps &&
	test_line_count -ge 6 steps &&
	for step in $(cat steps); do
		readme_step "$step" >cmds && test -s cmds || { echo "step $step: no commands"; return 1; }
		while read -r make target vars; do
			test "$make" = make || { echo "step $step: not make: $make"; return 1; }
			case $target in ""|*=*) vars="$target $vars"; target=all ;; esac
			grep -q "^$target:" "$REPO/Makefile" || { echo "step $step: no target $target"; return 1; }
			for v in $vars; do
				grep -qF "\$($(printf "%s" "${v%%=*}"))" "$REPO/Makefile" || { echo "step $step: the Makefile reads no ${v%%=*}"; return 1; }
			done
		done <cmds &&
		if test "$step" = main; then
			# make itself: the verbs of run-tracks --make, which t0035 runs
			grep -q "run-tracks .*--make" "$REPO/Makefile" && grep -q -- "--make" "$SHARNESS_TEST_DIRECTORY/t0035-run-tracks.sh"
		else
			grep -l "run_readme_step $step\b" "$SHARNESS_TEST_DIRECTORY"/t[0-9]*.sh >by || { echo "step $step: no test runs it"; return 1; }
		fi || return 1
	done
'

test_expect_success 'the README'"'"'s blind spots are tests/gen-shapes --blind; each names shapes a tool is not asked to see, and every such shape is named' '
	sed -n "/^<!-- blind spots: /,/^<!-- end of blind spots -->/p" "$REPO/README.md" |
		sed -n "s/^| \(sparse\|spatch\) | \(.*\) | \(.*\) |$/\1|\2|\3/p" >readme.blind &&
	"$REPO/tests/gen-shapes" --blind >gen.blind && test -s gen.blind &&
	test_cmp gen.blind readme.blind &&
	rm -rf shapes && "$REPO/tests/gen-shapes" shapes &&
	for tool in sparse spatch; do
		# the shapes the tool is not asked to see, and those the table names
		awk -F"|" -v t="$tool" "\$2 == \"mixing\" && index(\",\" \$4 \",\", \",\" t \",\") == 0 { print \$1 }" shapes/shapes | sort >not.$tool &&
		{ grep "^$tool|" gen.blind || :; } | cut -d"|" -f2 | tr -d " " | tr , "\n" >pat.$tool &&
		: >named.$tool &&
		while read -r pat; do
			awk -F"|" "{ print \$1 }" shapes/shapes | grep -x "$(echo "$pat" | sed "s/\*/.*/")" >m || { echo "$tool: $pat names no shape"; return 1; }
			cat m >>named.$tool
		done <pat.$tool &&
		sort named.$tool >named.sorted &&
		test_cmp not.$tool named.sorted || return 1
	done
'

test_done
