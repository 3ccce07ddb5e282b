#!/usr/bin/env bash
# The README's first command on a fresh box: `make demo` in a copy of the
# tree, started while pkg-config sees no DPDK (PKG_CONFIG_LIBDIR is an empty
# directory), with a deps step that makes DPDK appear only when it runs
# (fresh_box_deps.sh), as install-deps does on a fresh Debian 12. The DPDK
# flags must be read after deps, not when make first reads the Makefile.
# Passes when the demo builds from nothing, runs, and its client had every
# request answered.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/src" "$T/pc"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar cf - --null -T -) | tar xf - -C "$T/src" ||
	fail "could not copy the tracked tree"
# A copy has no .git: the version is VERSION alone, as in a release tarball.
env -u BUILD -u SECONDARY_BUILD PKG_CONFIG_LIBDIR=$T/pc PKG_CONFIG_PATH= timeout -k 5 240 \
	make -C "$T/src" demo DEPS="$ROOT/tests/e2e/fresh_box_deps.sh" >"$T/demo.log" 2>&1 ||
	fail "make demo on a fresh box failed: $(grep -v '^  CC' "$T/demo.log" | tail -15)"
grep -q "fresh_box_deps: DPDK's development files are now visible" "$T/demo.log" ||
	fail "the stub deps step did not run"
[ -x "$T/src/build/dperf" ] && [ -x "$T/src/build/dperf-ctl" ] && [ -x "$T/src/build/dperf-top" ] ||
	fail "the demo did not build the three binaries"
total=$(sed -n '/^---- dperf demo-client total/,$p' "$T/demo.log")
[ -n "$total" ] || fail "the demo's client printed no summary: $(tail -15 "$T/demo.log")"
get=$(grep -o 'httpGet *[0-9]*' <<<"$total" | head -1 | awk '{print $2}')
ok=$(grep -o 'http2XX *[0-9]*' <<<"$total" | head -1 | awk '{print $2}')
[ "${get:-0}" -gt 0 ] || fail "the demo's client sent no request"
[ "$get" = "$ok" ] || fail "the demo's client: httpGet $get but http2XX $ok"
pass "make demo from a box without DPDK visible: built, ran, $get requests all answered"
