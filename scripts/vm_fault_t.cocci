// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_fault_t mixing, found without a kernel config: the second opinion to
 * sparse for files that sparse cannot check (parse errors, other
 * architectures, options allmodconfig leaves off).
 *
 * scripts/scan fills in two placeholders before running spatch:
 *   FAULT_FNS  regex of every function this tree declares as returning
 *              vm_fault_t (their results are vm_fault_t even where the
 *              declaration lives in a header spatch does not read);
 *   FAULT_OPS  regex of vm_operations_struct members returning vm_fault_t.
 *
 * Each match prints one line: file|line|kind|detail.  Kinds:
 *   fault-in-int   a vm_fault_t value stored in an integer
 *   int-in-fault   an integer or errno stored in a vm_fault_t
 *   errno-return   a vm_fault_t function returning an integer or errno
 *   fault-return   an integer function returning a vm_fault_t
 *   cast           a vm_fault_t cast to or from another type (no __force)
 *   compare        an integer compared or masked with VM_FAULT_* bits
 *   argument       a vm_fault_t passed as an argument of another type
 *   container      a vm_fault_t hidden in another container (xarray
 *                  entry, pointer)
 * A constant 0 is a valid vm_fault_t and is never reported.
 */

virtual report

@initialize:python@
@@
import re

seen = set()
# The integer functions the file being read defines (rule int_fn), and
# that file: spatch reads one file after another in one process.
int_names = set()
int_file = [None]
# (file, function, index) -> type of the integer parameters of the
# functions each file defines.
int_params = {}
# ... and of the vm_fault_t parameters.
fault_params = {}

# Integer types a fault code must not live in (spelled as spatch prints
# them; typedefs are known only when this file declares them or they are
# the kernel's usual fixed-width names).
INTS = set("""int|unsigned int|signed int|unsigned|signed|long|unsigned long|
long int|unsigned long int|long long|unsigned long long|short|unsigned short|
char|unsigned char|signed char|u8|u16|u32|u64|s8|s16|s32|s64|__u32|__u64|
__s32|__s64|size_t|ssize_t|uint|ulong""".replace("\n", "").split("|"))

def isint(t):
	return " ".join(t.split()) in INTS

def emit(p, kind, detail):
	key = (p[0].file, p[0].line, kind)
	if key in seen:
		return
	seen.add(key)
	print("%s|%s|%s|%s" % (p[0].file, p[0].line, kind,
				 " ".join(detail.split())))

def forced(p):
	"""A cast spelled with __force is a deliberate boundary crossing."""
	try:
		with open(p[0].file, errors="replace") as f:
			lines = f.readlines()
	except OSError:
		return False
	first = int(p[0].line) - 1
	last = int(p[0].line_end)
	code = re.sub(r"/\*.*?\*/|//.*", "", "".join(lines[first:last]), flags=re.S)
	return "__force" in code

// Integer functions defined in this file (their results are not faults),
// as a set of names the rules below test their calls against: a rule
// inheriting the name instead (identifier int_fn.g) runs once per integer
// function, each time over the whole file, most of spatch's time on a
// large file (kernel/events/core.c: 6 of 9 seconds).  The set is emptied
// at the file's first function definition, before int_fn adds to it; a
// file without one has no body for those rules to match in.
@any_fn@
identifier h;
position p;
@@
h@p(...) { ... }

@script:python depends on any_fn@
p << any_fn.p;
@@
if int_file[0] != p[0].file:
	int_file[0] = p[0].file
	int_names.clear()

@int_fn@
identifier g;
@@
int g(...) { ... }

@script:python depends on int_fn@
g << int_fn.g;
@@
int_names.add(g)

// A vm_fault_t kept in an integer.  A fault code is a vm_fault_t
// expression, a call of a vm_fault_t function or fault op, or a VM_FAULT_*
// constant (alone, or'ed, or picked by ?:): with --no-includes spatch does
// not know the constants' type, so they are spelled out.
@fault_in_int@
type T;
T x;
vm_fault_t e;
identifier f =~ "FAULT_FNS";
expression E, E1, E2;
identifier op =~ "FAULT_OPS";
identifier C =~ "^VM_FAULT_";
position p;
@@
(
 x =@p e
|
 x =@p f(...)
|
 x =@p E->op(...)
|
 x =@p C
|
 x =@p C | E1
|
 x =@p E1 | C
|
 x =@p E1 ? C : E2
|
 x =@p E1 ? E2 : C
|
 x |=@p C
|
 x |=@p e
|
 x |=@p f(...)
|
 x |=@p E->op(...)
)

@script:python depends on fault_in_int@
p << fault_in_int.p;
T << fault_in_int.T;
x << fault_in_int.x;
@@
if isint(T):
	emit(p, "fault-in-int", "%s %s holds a vm_fault_t" % (T, x))

@fault_in_int_decl@
type T;
vm_fault_t e;
identifier f =~ "FAULT_FNS";
identifier v;
expression E, E1, E2;
identifier op =~ "FAULT_OPS";
identifier C =~ "^VM_FAULT_";
position p;
@@
(
 T v@p = e;
|
 T v@p = f(...);
|
 T v@p = E->op(...);
|
 T v@p = C;
|
 T v@p = C | E1;
|
 T v@p = E1 | C;
|
 T v@p = E1 ? C : E2;
|
 T v@p = E1 ? E2 : C;
)

@script:python depends on fault_in_int_decl@
p << fault_in_int_decl.p;
T << fault_in_int_decl.T;
v << fault_in_int_decl.v;
@@
if isint(T):
	emit(p, "fault-in-int", "%s %s initialised with a vm_fault_t" % (T, v))

// An integer or errno stored in a vm_fault_t.
@int_in_fault@
vm_fault_t v;
int e;
identifier ig : script:python () { ig in int_names };
identifier E =~ "^E[A-Z0-9]+$";
position p;
@@
(
 v =@p -E
|
 v =@p ig(...)
|
 v =@p e
|
 v |=@p -E
|
 v |=@p ig(...)
|
 v |=@p e
)

@script:python depends on int_in_fault@
p << int_in_fault.p;
v << int_in_fault.v;
e << int_in_fault.e = "";
@@
if e.strip() != "0" and "VM_FAULT_" not in e:
	emit(p, "int-in-fault", "vm_fault_t %s assigned an integer" % v)

// A fault handler returning an errno or an integer.  One rule per shape,
// "exists" so that every return is its own match (within <... ...> all
// matches would have to bind the same values).
@errno_return exists@
identifier fn;
identifier E =~ "^E[A-Z0-9]+$";
position p;
@@
vm_fault_t fn(...)
{
... when any
 return@p -E;
}

@script:python depends on errno_return@
p << errno_return.p;
fn << errno_return.fn;
E << errno_return.E;
@@
emit(p, "errno-return", "%s() returns vm_fault_t but returns -%s" % (fn, E))

@errno_return_int exists@
identifier fn;
int e;
position p;
@@
vm_fault_t fn(...)
{
... when any
 return@p e;
}

@script:python depends on errno_return_int@
p << errno_return_int.p;
fn << errno_return_int.fn;
e << errno_return_int.e;
@@
if e.strip() != "0" and "VM_FAULT_" not in e:
	emit(p, "errno-return", "%s() returns vm_fault_t but returns an integer" % fn)

@errno_return_call exists@
identifier fn;
identifier ig : script:python () { ig in int_names };
position p;
@@
vm_fault_t fn(...)
{
... when any
 return@p ig(...);
}

@script:python depends on errno_return_call@
p << errno_return_call.p;
fn << errno_return_call.fn;
@@
emit(p, "errno-return", "%s() returns vm_fault_t but returns an integer" % fn)

// ... or an errno in one arm of a ?: it returns.
@errno_return_arm exists@
identifier fn;
identifier E =~ "^E[A-Z0-9]+$";
identifier ig : script:python () { ig in int_names };
int e;
expression E1, E2;
position p;
@@
vm_fault_t fn(...)
{
... when any
(
 return@p E1 ? E2 : -E;
|
 return@p E1 ? -E : E2;
|
 return@p E1 ? E2 : ig(...);
|
 return@p E1 ? ig(...) : E2;
|
 return@p E1 ? E2 : e;
|
 return@p E1 ? e : E2;
)
}

@script:python depends on errno_return_arm@
p << errno_return_arm.p;
fn << errno_return_arm.fn;
e << errno_return_arm.e = "";
@@
if e.strip() != "0" and "VM_FAULT_" not in e:
	emit(p, "errno-return", "%s() returns vm_fault_t but one arm of ?: is an integer" % fn)

// An integer function returning a vm_fault_t (value, call or constant).
@fault_return exists@
type T;
identifier fn;
vm_fault_t e;
identifier f =~ "FAULT_FNS";
identifier op =~ "FAULT_OPS";
identifier C =~ "^VM_FAULT_";
expression E, E1, E2;
position p;
@@
T fn(...)
{
... when any
(
 return@p e;
|
 return@p f(...);
|
 return@p E->op(...);
|
 return@p E1 ? e : E2;
|
 return@p E1 ? E2 : e;
|
 return@p E1 ? f(...) : E2;
|
 return@p E1 ? E2 : f(...);
|
 return@p E1 ? E->op(...) : E2;
|
 return@p E1 ? E2 : E->op(...);
|
 return@p C;
|
 return@p C | E1;
|
 return@p E1 | C;
|
 return@p E1 ? C : E2;
|
 return@p E1 ? E2 : C;
)
}

@script:python depends on fault_return@
p << fault_return.p;
fn << fault_return.fn;
T << fault_return.T;
@@
if isint(T):
	emit(p, "fault-return", "%s() returns %s but returns a vm_fault_t" % (fn, T))

// Casts that drop or invent the type.
@cast_from disable drop_cast@
type T != vm_fault_t;
vm_fault_t e;
identifier f =~ "FAULT_FNS";
identifier op =~ "FAULT_OPS";
identifier C =~ "^VM_FAULT_";
expression E;
position p;
@@
(
 (T)e@p
|
 (T)f@p(...)
|
 (T)E->op@p(...)
|
 (T)C@p
)

@script:python depends on cast_from@
p << cast_from.p;
T << cast_from.T;
@@
if not forced(p):
	emit(p, "cast", "vm_fault_t cast to %s" % T)

@cast_to disable drop_cast@
expression e;
position p;
@@
 (vm_fault_t)e@p

@script:python depends on cast_to@
p << cast_to.p;
e << cast_to.e;
@@
if e.strip() != "0" and not e.startswith("VM_FAULT_") and not forced(p):
	emit(p, "cast", "%s cast to vm_fault_t" % e)

// An errno made a vm_fault_t by a cast: a __force silences sparse, and
// the value is still not a fault code.
@cast_errno disable drop_cast@
identifier E =~ "^E[A-Z0-9]+$";
identifier ig : script:python () { ig in int_names };
// a variable, not a constant: "(__force vm_fault_t)0x010000" is how a
// fault code is defined (arch/*/mm/fault.c's VM_FAULT_BADMAP)
idexpression int e;
position p;
@@
(
 (vm_fault_t)-E@p
|
 (vm_fault_t)ig@p(...)
|
 (vm_fault_t)e@p
)

@script:python depends on cast_errno@
p << cast_errno.p;
e << cast_errno.e = "";
@@
if e.strip() != "0":
	emit(p, "cast", "an integer cast to vm_fault_t%s" % (" (__force)" if forced(p) else ""))

// A fault code tested as an errno: compared with -E..., or signed.
@compare_errno@
vm_fault_t e;
identifier f =~ "FAULT_FNS";
identifier op =~ "FAULT_OPS";
identifier C =~ "^VM_FAULT_";
identifier E =~ "^E[A-Z0-9]+$";
expression X, Y;
binary operator b = {<,>,<=,>=};
position p;
@@
(
 e@p == -E
|
 e@p != -E
|
 f@p(...) == -E
|
 f@p(...) != -E
|
 X->op@p(...) == -E
|
 X->op@p(...) != -E
|
 C@p == -E
|
 C@p != -E
|
 e@p b Y
|
 f@p(...) b Y
|
 X->op@p(...) b Y
|
 C@p b Y
)

@script:python depends on compare_errno@
p << compare_errno.p;
@@
emit(p, "compare", "a vm_fault_t compared as an integer")

@compare_case@
vm_fault_t e;
identifier f =~ "FAULT_FNS";
identifier op =~ "FAULT_OPS";
identifier C =~ "^VM_FAULT_";
identifier E =~ "^E[A-Z0-9]+$";
expression X;
position p;
@@
(
 switch (e) { case -E@p: ... }
|
 switch (f(...)) { case -E@p: ... }
|
 switch (X->op(...)) { case -E@p: ... }
|
 switch (C) { case -E@p: ... }
)

@script:python depends on compare_case@
p << compare_case.p;
@@
emit(p, "compare", "a vm_fault_t switched on an errno")

// Integers tested against, masked or combined with fault bits.
@compare@
type T;
T x;
identifier C =~ "^VM_FAULT_";
position p;
@@
(
 x ==@p C
|
 x !=@p C
|
 x &@p C
|
 x |@p C
|
 C ==@p x
|
 C !=@p x
|
 C &@p x
|
 C |@p x
)

@script:python depends on compare@
p << compare.p;
T << compare.T;
x << compare.x;
C << compare.C;
@@
if isint(T):
	emit(p, "compare", "%s %s tested against %s" % (T, x, C))

// Fault codes smuggled through another container.
@container@
vm_fault_t e;
identifier f =~ "FAULT_FNS";
identifier C =~ "^VM_FAULT_";
identifier box =~ "^(xa_mk_internal|xa_mk_value|ERR_PTR)$";
position p;
@@
(
 box@p(e)
|
 box@p(f(...))
|
 box@p(C)
)

@script:python depends on container@
p << container.p;
box << container.box;
@@
emit(p, "container", "vm_fault_t stored with %s()" % box)

@unbox@
vm_fault_t v;
identifier box =~ "^(xa_to_internal|xa_to_value|PTR_ERR)$";
position p;
@@
 v =@p box(...)

@script:python depends on unbox@
p << unbox.p;
box << unbox.box;
@@
emit(p, "container", "vm_fault_t read back with %s()" % box)

// A fault code passed to a parameter declared as an integer, in this file.
// The integer parameters are collected first; the call sites are matched
// once, for every callee, and looked up (inheriting the callee from arg_fn
// would make spatch walk every function once per parameter).
@arg_fn@
identifier g, pn;
type T, P;
parameter list[n] ps;
position pf;
@@
T g@pf(ps, P pn, ...) { ... }

@script:python depends on arg_fn@
g << arg_fn.g;
n << arg_fn.n;
P << arg_fn.P;
pf << arg_fn.pf;
@@
if isint(P):
	int_params[(pf[0].file, g, int(n))] = P
elif " ".join(P.split()) == "vm_fault_t":
	fault_params[(pf[0].file, g, int(n))] = P

@argument@
identifier g;
expression list[n] es;
vm_fault_t e;
identifier f =~ "FAULT_FNS";
identifier op =~ "FAULT_OPS";
identifier C =~ "^VM_FAULT_";
expression X, E1, E2;
position p;
@@
(
 g(es, e@p, ...)
|
 g(es, f@p(...), ...)
|
 g(es, X->op@p(...), ...)
|
 g(es, C@p, ...)
|
 g(es, C@p | E1, ...)
|
 g(es, E1 | C@p, ...)
|
 g(es, E1 ? C@p : E2, ...)
|
 g(es, E1 ? E2 : C@p, ...)
)

@script:python depends on argument@
p << argument.p;
g << argument.g;
n << argument.n;
@@
P = int_params.get((p[0].file, g, int(n)))
if P:
	emit(p, "argument", "vm_fault_t passed as %s to %s()" % (P, g))

// An errno or integer passed to a parameter declared as vm_fault_t, in
// this file.
@argument_errno@
identifier g;
expression list[n] es;
identifier E =~ "^E[A-Z0-9]+$";
identifier ig : script:python () { ig in int_names };
int e;
position p;
@@
(
 g(es, -E@p, ...)
|
 g(es, ig@p(...), ...)
|
 g(es, e@p, ...)
)

@script:python depends on argument_errno@
p << argument_errno.p;
g << argument_errno.g;
n << argument_errno.n;
e << argument_errno.e = "";
@@
if e.strip() != "0" and (p[0].file, g, int(n)) in fault_params:
	emit(p, "argument", "an integer passed as vm_fault_t to %s()" % g)

// Arguments of tracepoints: scripts/scan checks the event's TP_PROTO.
@trace_arg@
identifier t =~ "^trace_";
expression list[n] es;
vm_fault_t e;
identifier f =~ "FAULT_FNS";
identifier C =~ "^VM_FAULT_";
position p;
@@
(
 t(es, e@p, ...)
|
 t(es, f@p(...), ...)
|
 t(es, C@p, ...)
)

@script:python depends on trace_arg@
p << trace_arg.p;
t << trace_arg.t;
n << trace_arg.n;
@@
emit(p, "trace-arg", "%s %s" % (t[len("trace_"):], n))
