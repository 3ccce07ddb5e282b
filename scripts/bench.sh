#!/usr/bin/env bash
# make bench: see scripts/bench.py. BENCH_SMOKE=1 for a quick functional run.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/bench.py "$@"
