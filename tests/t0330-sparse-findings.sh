#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC1091,SC2034
test_description='sparse-findings.awk: a file sparse stopped reporting on is unchecked, not clean'
. /usr/share/sharness/sharness.sh
. "$SHARNESS_TEST_DIRECTORY/lib-kq.sh"

# the errors that are type diagnostics, as the scan has them
types=$(sed -n "s/^SPARSE_TYPE_DIAGNOSTICS='\\(.*\\)'\$/\\1/p" "$SHARNESS_TEST_DIRECTORY/../scripts/lib/kbuild.sh")

# findings LOG OBJECTS...: the awk over LOG; findings on stdout, the
# unchecked and checked lists in the files of those names.
findings() {
	local log=$1
	shift
	printf '%s\n' "$@" >objs && : >unchecked && : >checked &&
	awk -v src=/w -v objs=objs -v unchecked=unchecked -v checked=checked -v label= \
		-v types="$types" \
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

# Every diagnostic sparse prints about a restricted type (sparse's
# evaluate.c: warning()/sparse_error() and the info() lines continuing
# them), once naming vm_fault_t, once naming another restricted type.
# forms: "kind|diagnostic lines, \n-separated".
cat >forms <<-\EOF
int-in-fault|warning: incorrect type in assignment (different base types)\n   expected restricted vm_fault_t [usertype] ret\n   got int
fault-in-int|warning: incorrect type in initializer (different base types)\n   expected int code\n   got restricted vm_fault_t
errno-return|warning: incorrect type in return expression (different base types)\n   expected restricted vm_fault_t\n   got int
fault-return|warning: incorrect type in return expression (different base types)\n   expected int\n   got restricted vm_fault_t
argument|warning: incorrect type in argument 1 (different base types)\n   expected int code\n   got restricted vm_fault_t
fault-in-int|warning: invalid assignment: |=\n   left side has type int\n   right side has type restricted vm_fault_t
int-in-fault|warning: invalid assignment: |=\n   left side has type restricted vm_fault_t\n   right side has type int
int-in-fault|warning: bad assignment (+=) to restricted vm_fault_t
cast|warning: cast to restricted vm_fault_t
cast|warning: cast from restricted vm_fault_t
compare|warning: restricted vm_fault_t degrades to integer
compare|error: incompatible types in comparison expression (different base types):\n   restricted vm_fault_t *\n   int *
other|error: incompatible types in conditional expression (different base types):\n   restricted vm_fault_t\n   int *
compare|error: incompatible types for operation (+):\n   restricted vm_fault_t *\n   restricted vm_fault_t *
compare|error: incompatible type for operation (-):\n   restricted vm_fault_t *
EOF

# log_of FORM FILE LINE TYPE: sparse's log of one form at FILE:LINE, the
# restricted type named TYPE (a continuation line is "FILE:LINE:COL:    ...").
log_of() {
	printf '  CHECK   %s\n' "$2"
	printf '%b\n' "${1#*|}" | sed -e "s/vm_fault_t/$4/g" -e "1s|^|$2:$3:9: |" -e "2,\$s|^   |$2:$3:9:    |"
}

test_expect_success 'every form of a restricted-type diagnostic naming vm_fault_t is a finding of its kind; the same naming __le32 is none; the file stays checked' '
	test -n "$types" && test_line_count = 15 forms &&
	n=0 &&
	while IFS= read -r form; do
		n=$((n + 1)) &&
		log_of "$form" drivers/f$n.c $((10 + n)) vm_fault_t >log.$n &&
		findings log.$n drivers/f$n.o >out.$n || return 1
		test_line_count = 1 out.$n || { cat log.$n out.$n; return 1; }
		test "$(cut -d"|" -f1-3 out.$n)" = "drivers/f$n.c|$((10 + n))|${form%%|*}" ||
			{ echo "form $n: $(cat out.$n)"; return 1; }
		test_must_be_empty unchecked || { cat log.$n unchecked; return 1; }
		log_of "$form" drivers/g$n.c 7 __le32 >other.$n &&
		findings other.$n drivers/g$n.o >out.$n &&
		test_must_be_empty out.$n || return 1
	done <forms &&
	test "$n" = 15
'

test_expect_success 'a continued diagnostic keeps every line it names in its message' '
	log_of "$(sed -n 6p forms)" drivers/a.c 5 vm_fault_t >log &&
	grep -x "drivers/a.c:5:9:    right side has type restricted vm_fault_t" log &&
	findings log drivers/a.o >out &&
	echo "drivers/a.c|5|fault-in-int|invalid assignment: |=; left side has type int; right side has type restricted vm_fault_t" >want &&
	test_cmp want out &&
	log_of "$(sed -n 12p forms)" drivers/b.c 6 vm_fault_t >log &&
	findings log drivers/b.o >out &&
	echo "drivers/b.c|6|compare|incompatible types in comparison expression (different base types):; restricted vm_fault_t *; int *" >want &&
	test_cmp want out
'

test_done
