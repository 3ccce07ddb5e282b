#!/usr/bin/env bash
# make bench: see scripts/bench.py. BENCH_SMOKE=1 for a quick functional run.
set -euo pipefail
cd "$(dirname "$0")/.."
# (bench.py takes the box's DPDK lock itself, as scripts/run-e2e.sh does.)
exec /usr/bin/python3 scripts/bench.py "$@"
