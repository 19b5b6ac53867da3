#!/bin/bash
# Runs inside make fresh's bare Debian (scripts/fresh copies it there as
# /root/fresh-run): what a new user types, each step on a line of its own
# ("fresh-step: STEP") before it runs.  The arguments are the steps after
# the set-up, each a command line run in the clone (/root/queue).
# KQ_FRESH_INSIDE tells the tests they run inside it.
set -euo pipefail
case ${1:-} in -h | --help)
	echo "usage: fresh-run.sh STEP... (inside scripts/fresh's system only)"
	exit 0 ;;
esac
[ -d /root/queue ] || { echo "fresh-run.sh: no /root/queue: this runs inside scripts/fresh's system" >&2; exit 2; }
step() { echo "fresh-step: $*" >&2; "$@"; }
export DEBIAN_FRONTEND=noninteractive KQ_FRESH_INSIDE=1
step apt-get update -qq
step apt-get install -y -qq git make >/dev/null
cd /root/queue
for s; do
	echo "fresh-step: $s"
	bash -c "$s"
done
