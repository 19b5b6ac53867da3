# shellcheck shell=bash
# What the scan searches the whole tree for: its patterns, one place for
# scripts/scan and the bench stages that time the same searches.

# SCAN_USES: a C file using the type, its constants or its helpers.
# SCAN_EVENTS: a trace event header mentioning the type or its constants.
# SCAN_TABLES: a file that can hold a __print_flags() table of fault codes
# (a use, or a VM_FAULT_ define naming an entry or going on to the next
# line; amdgpu's register masks are neither).
# (PCRE: git grep -P; -E reads them alike, slower, see make bench STAGES=greps)
# shellcheck disable=SC2034  # used by the scripts that source this file
SCAN_USES='vm_fault_t|VM_FAULT_|vmf_[a-z_]+\(|handle_mm_fault\('
SCAN_EVENTS='vm_fault_t|VM_FAULT_'
# shellcheck disable=SC2034
SCAN_TABLES='__print_flags|define.*VM_FAULT_.*("|\\$)'

# scan_candidates GREP...: the scan's candidate sources, sorted: every C
# file matching SCAN_USES, and every file instantiating (CREATE_TRACE_POINTS)
# a trace event header that matches SCAN_EVENTS.  GREP... is the git grep
# to run in the worktree, the current directory (scan: its cached tgrep;
# bench: git grep); no match is not an error, any other failure is.
scan_candidates() {
	local uses events inst=
	uses=$("$@" -l -P "$SCAN_USES" -- '*.c') || [ $? -eq 1 ] || return 1
	events=$("$@" -l -P "$SCAN_EVENTS" -- 'include/trace/events/*.h' '*trace*.h') || [ $? -eq 1 ] || return 1
	[ -z "$events" ] || events=$(printf '%s\n' "$events" | sed 's|.*/||; s|\.h$||' | sort -u | paste -sd'|')
	if [ -n "$events" ]; then
		inst=$(trace_instantiators "$events" "$@") || return 1
	fi
	printf '%s\n' "$uses" "$inst" | { grep . || true; } | sort -u
}

# trace_instantiators NAMES GREP...: the C files that instantiate
# (CREATE_TRACE_POINTS) a trace event header named in NAMES (its base
# names without .h, an ERE alternation), including it as
# <trace/events/NAME.h> or "NAME.h"; GREP... as for scan_candidates, the
# worktree the current directory.  The scan and check's trace_users.
trace_instantiators() {
	local names=$1 inst
	shift
	inst=$("$@" -l -E "^#define CREATE_TRACE_POINTS" -- '*.c') || [ $? -eq 1 ] || return 1
	# (grep finding none of the includes in a batch is not an error)
	printf '%s\n' "$inst" | xargs -r grep -l -E "#include [<\"](trace/events/)?($names)\.h[>\"]" || true
}
