#!/usr/bin/env bash
# make fuzz-grow: fold what the last run of each harness found
# (build/fuzz/corpus-H) into tests/fuzz/grown/H, so that make test's short
# runs start where long runs got to (issue 39: make test's fuzzing in less
# time, no shallower). libFuzzer's -merge=1 keeps the first directory's
# inputs (the seeds, then the inputs grown before) and adds from the others
# only those reaching coverage those do not; the seeds are then taken out
# again, as they stay in tests/fuzz/corpus/H under their own names.
# Usage: tests/fuzz/grow.sh HARNESS...   (from the tree's top)
set -euo pipefail
for h in "$@"; do
	found=build/fuzz/corpus-$h grown=tests/fuzz/grown/$h tmp=build/fuzz/grow-$h
	[ -d "$found" ] || { echo "fuzz-grow: $found: no run of fuzz_$h to fold in (make fuzz-long first)" >&2; exit 1; }
	rm -rf "$tmp"; mkdir -p "$tmp" "$grown"
	cp tests/fuzz/corpus/"$h"/* "$tmp"/
	before=$(ls "$grown" | wc -l)
	build/fuzz/fuzz_"$h" -merge=1 "$tmp" "$grown" "$found" >build/fuzz/grow-"$h".log 2>&1 ||
		{ tail -5 build/fuzz/grow-"$h".log; echo "fuzz-grow: fuzz_$h -merge=1 failed (build/fuzz/grow-$h.log)" >&2; exit 1; }
	for s in tests/fuzz/corpus/"$h"/*; do rm -f "$tmp/$(basename "$s")"; done
	rm -rf "$grown"; mv "$tmp" "$grown"
	echo "fuzz_$h: $(ls "$grown" | wc -l) grown inputs (were $before), $(du -sk "$grown" | cut -f1) kB; $(grep -o 'MERGE-OUTER: [0-9]* new files with [0-9]* new features' build/fuzz/grow-"$h".log)"
done
