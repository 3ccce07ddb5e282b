#!/usr/bin/env bash
# Configuration files that are not plain files, or not plain text (issue
# 18, item 7): one line each, exit 2, never a hang; a UTF-8 BOM is skipped;
# what is not printable is shown escaped. All through dperf -t (no EAL).
. "$(dirname "$0")/lib.sh"

good() {
	SERVER_DURATION=2s SERVER_EXTRA= memif_server_conf "$T/m.sock"
}
# refused WHAT FILE EXPECTED: dperf -t -c FILE says EXPECTED in one line,
# exit 2, within 15 s.
refused() {
	local rc=0 out
	out=$(timeout 15 "$BUILD/dperf" -t -c "$2" 2>&1 </dev/null) || rc=$?
	[ $rc != 124 ] || fail "$1: dperf -t hung"
	[ $rc = 2 ] || fail "$1: exit $rc, expected 2: $out"
	[ "$(wc -l <<<"$out")" = 1 ] || fail "$1: more than one line: $out"
	grep -qF -- "$3" <<<"$out" || fail "$1: '$out' does not say '$3'"
	note "$1: $out"
}

refused "a directory" "$T" "$T: cannot read: a directory (expected a configuration file)"
refused "a device" /dev/zero "/dev/zero: cannot read: a device (expected a configuration file)"
mkfifo "$T/fifo"
refused "a FIFO with no writer" "$T/fifo" "$T/fifo: cannot read: the pipe is empty"

# Standard input through a pipe works like a file.
out=$(good | timeout 15 "$BUILD/dperf" -t -c /dev/stdin 2>&1) || fail "-c /dev/stdin from a pipe: $out"

# A BOM at the start is skipped; elsewhere it is shown, not hidden.
{ printf '\xef\xbb\xbf'; good; } >"$T/bom.conf"
out=$("$BUILD/dperf" -t -c "$T/bom.conf" 2>&1) || fail "a file with a UTF-8 BOM: $out"
{ good; printf 'cps\xef\xbb\xbf 1k\n'; } >"$T/bom2.conf"
refused "a BOM inside a keyword" "$T/bom2.conf" 'bom2.conf:8: cps\xef\xbb\xbf: unknown keyword'

# Control characters in a value: escaped in the message, never raw.
{ good; printf 'http_path /a\x1b[31mred\n'; } >"$T/ctl.conf"
refused "an escape code in http_path" "$T/ctl.conf" 'ctl.conf:8: http_path: bad path "/a\x1b[31mred"'
out=$("$BUILD/dperf" -t -c "$T/ctl.conf" 2>&1) || true
! grep -q $'\x1b' <<<"$out" || fail "a raw escape code reached the terminal"
pass "directory, device, FIFO refused without hanging; BOM skipped; control characters escaped"
