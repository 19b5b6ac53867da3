#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='sparse-findings.awk: a file sparse stopped reporting on is unchecked, not clean'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# findings LOG OBJECTS...: the awk over LOG; findings on stdout, the
# unchecked and checked lists in the files of those names.
findings() {
	local log=$1
	shift
	printf '%s\n' "$@" >objs && : >unchecked && : >checked &&
	awk -v src=/w -v objs=objs -v unchecked=unchecked -v checked=checked -v label= \
		-v types="^(incorrect type|restricted|cast)" \
		-f "$S/lib/paths.awk" -f "$S/lib/sparse-findings.awk" "$log"
}

test_expect_success 'a file whose sparse output ends in "too many warnings" is unchecked with where it stopped; the others are checked, their findings kept' '
	cat >log <<-\EOF &&
	  CHECK   drivers/a.c
	drivers/a.c:3:9: warning: Using plain integer as NULL pointer
	drivers/a.c:104:9: warning: too many warnings
	  CHECK   drivers/b.c
	drivers/b.c:12:13: warning: incorrect type in assignment (different base types)
	drivers/b.c:12:13:    expected int [assigned] ret
	drivers/b.c:12:13:    got restricted vm_fault_t
	EOF
	findings log drivers/a.o drivers/b.o >out &&
	echo "drivers/b.c|12|fault-in-int|incorrect type in assignment (different base types); expected int [assigned] ret; got restricted vm_fault_t" >want &&
	test_cmp want out &&
	echo "drivers/a.c|sparse|sparse stopped reporting at drivers/a.c:104: too many warnings" >want &&
	test_cmp want unchecked &&
	echo drivers/b.c >want && test_cmp want checked
'

test_done
