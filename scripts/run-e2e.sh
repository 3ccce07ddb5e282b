#!/usr/bin/env bash
# Run every end-to-end test in tests/e2e/ one after the other (DPDK tests
# must not overlap on a small box). E2E_ONLY="a b" runs only those names.
set -uo pipefail
cd "$(dirname "$0")/.."
export BUILD=${BUILD:-build}
[ "$(id -u)" = 0 ] || { echo "run-e2e: end-to-end tests need root (hugepages, namespaces)"; exit 1; }
failed=()
n=0
for t in tests/e2e/test_*.sh; do
	name=$(basename "$t" .sh)
	if [ -n "${E2E_ONLY:-}" ] && ! grep -qw "${name#test_}" <<<"$E2E_ONLY"; then continue; fi
	n=$((n + 1))
	echo "== $name"
	start=$(date +%s)
	if timeout 300 bash "$t"; then
		echo "   ($(( $(date +%s) - start )) s)"
	else
		failed+=("$name")
	fi
done
echo "e2e: $((n - ${#failed[@]})) of $n passed${failed[*]:+; failed: ${failed[*]}}"
[ ${#failed[@]} = 0 ]
