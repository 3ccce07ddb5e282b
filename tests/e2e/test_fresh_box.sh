#!/usr/bin/env bash
# The README's first command on a fresh box: `make demo` in a copy of the
# tree, started while pkg-config sees no DPDK (PKG_CONFIG_LIBDIR is an empty
# directory), with a deps step that makes DPDK appear only when it runs
# (fresh_box_deps.sh), as install-deps does on a fresh Debian 12. The DPDK
# flags must be read after deps, not when make first reads the Makefile.
# Passes when the demo builds, runs, and its client had every request
# answered.
#
# The copy starts from this tree's default build's objects (build/obj),
# but for one object of each binary that includes DPDK's headers
# (primary/engine/worker.c, secondary/ctl_main.c, tui/clock.c), so that
# these compile and the three binaries link (the copy's version differs:
# it has no .git) with the flags make has then: a build whose DPDK flags
# were read before deps fails both. Compiling everything again (~27 s
# here) would check no more: a build from nothing is `make demo` on the
# clean clone, .ci/run's first command.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/src" "$T/pc"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar cf - --null -T -) | tar xf - -C "$T/src" ||
	fail "could not copy the tracked tree"
DPDK_SRC="primary/engine/worker.c secondary/ctl_main.c tui/clock.c"
[ -d "$ROOT/build/obj" ] || fail "$ROOT/build/obj missing (make all)"
mkdir -p "$T/src/build" && cp -a "$ROOT/build/obj" "$T/src/build/" || fail "could not copy build/obj"
for f in $DPDK_SRC; do
	grep -q '#include <rte_' "$T/src/$f" || fail "$f includes no DPDK header: pick another"
	rm -f "$T/src/build/obj/${f%.c}.o"
done
# A copy has no .git: the version is VERSION alone, as in a release tarball.
env -u BUILD -u SECONDARY_BUILD PKG_CONFIG_LIBDIR=$T/pc PKG_CONFIG_PATH= timeout -k 5 240 \
	make -C "$T/src" demo DEPS="$ROOT/tests/e2e/fresh_box_deps.sh" >"$T/demo.log" 2>&1 ||
	fail "make demo on a fresh box failed: $(grep -v '^  CC' "$T/demo.log" | tail -15)"
grep -q "fresh_box_deps: DPDK's development files are now visible" "$T/demo.log" ||
	fail "the stub deps step did not run"
[ -x "$T/src/build/dperf" ] && [ -x "$T/src/build/dperf-ctl" ] && [ -x "$T/src/build/dperf-top" ] ||
	fail "the demo did not build the three binaries"
for f in $DPDK_SRC; do
	grep -q "^  CC      $f\$" "$T/demo.log" || fail "the demo did not compile $f"
done
for b in dperf dperf-ctl dperf-top; do
	grep -q "^  LD      build/$b\$" "$T/demo.log" || fail "the demo did not link build/$b"
done
total=$(sed -n '/^---- dperf demo-client total/,$p' "$T/demo.log")
[ -n "$total" ] || fail "the demo's client printed no summary: $(tail -15 "$T/demo.log")"
get=$(grep -o 'httpGet *[0-9]*' <<<"$total" | head -1 | awk '{print $2}')
ok=$(grep -o 'http2XX *[0-9]*' <<<"$total" | head -1 | awk '{print $2}')
[ "${get:-0}" -gt 0 ] || fail "the demo's client sent no request"
[ "$get" = "$ok" ] || fail "the demo's client: httpGet $get but http2XX $ok"
pass "make demo from a box without DPDK visible: compiled $(grep -c "^  CC " "$T/demo.log") sources and linked, ran, $get requests all answered"
