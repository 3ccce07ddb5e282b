#!/usr/bin/env bash
# make bench: see scripts/bench.py. BENCH_SMOKE=1 for a quick functional run.
set -euo pipefail
cd "$(dirname "$0")/.."
# One DPDK run at a time on this box (scripts/run-e2e.sh takes the same lock).
exec flock "${DPDK_LOCK:-/tmp/dperf-dpdk.lock}" /usr/bin/python3 scripts/bench.py "$@"
