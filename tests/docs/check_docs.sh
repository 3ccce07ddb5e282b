#!/usr/bin/env bash
# The documentation against the code (run by `make docs-check`, in `make test`).
# Every check prints what disagrees and fails the run; none needs EAL.
#   1. README.md's generated blocks equal their source in docs/man/,
#      .ci/run runs exactly the README's Quick start commands, its performance
#      rows are docs/performance.md's, and every relative link of README.md
#      and docs/ names a file (and heading) that exists
#   2. each man page passes mandoc's lint (warnings and above) and renders with man -l
#   3. each binary's --help equals the usage block of its man page; --version works
#   4. every keyword the parser knows is documented in dperf.conf(5), and back;
#      dperf(8)'s counters are the code's counters, and dperf(8)'s and
#      dperf-ctl(8)'s exit-code tables give exactly the codes the code defines
#   5. docs/architecture.md's layout block names exactly the tree's folders,
#      primary/'s rooms include only the rooms below them, no include
#      circle joins modules of different rooms, tcp/ includes no http/ or
#      tls/ and net/ no tcp/ (check_includes.py), and no source includes
#      by a "../" path
#   6. docs/testing.md names every test suite, and every name it gives exists;
#      the test scripts start Python as /usr/bin/python3
#   7. make install / uninstall (DESTDIR, PREFIX), man -l of the installed pages,
#      systemd-analyze verify of the installed unit
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
PY=/usr/bin/python3
fails=0
bad() { echo "FAIL [docs]: $*" >&2; fails=$((fails + 1)); }
T=$(mktemp -d /tmp/dperf-docs.XXXXXX)
trap 'rm -rf "$T"' EXIT

# 1. README's generated blocks.
$PY scripts/mandoc.py readme --check README.md docs/man/*.md >"$T/readme.diff" ||
	bad "README.md's generated blocks differ from docs/man (run 'make docs'):$(printf '\n'; head -40 "$T/readme.diff")"

# 1b. .ci/run runs exactly the README's Quick start commands, in that order.
sed -n '/^## Quick start/,/^## /p' README.md | sed -n '/^```sh/,/^```/p' | grep -oE '^make [a-z]+' >"$T/quick.readme"
grep -oE '^make [a-z]+' .ci/run >"$T/quick.ci"
[ -s "$T/quick.readme" ] || bad "README.md: no commands found in the Quick start block"
diff "$T/quick.readme" "$T/quick.ci" >"$T/quick.diff" ||
	bad "README's Quick start (<) and .ci/run (>) run different commands:$(printf '\n'; cat "$T/quick.diff")"

# 1d. The README's performance figures are rows of docs/performance.md's
# summary, copied whole (the figures are measured once, written once there).
sed -n '/^## Performance/,/^## /p' README.md | grep '^| ' | grep -v '^| figure |' >"$T/perf.readme"
[ -s "$T/perf.readme" ] || bad "README.md: no figures table under '## Performance'"
grep -vxFf <(sed -n '/^## Summary/,/^## /p' docs/performance.md) "$T/perf.readme" >"$T/perf.diff" &&
	bad "README's Performance rows not in docs/performance.md's Summary:$(printf '\n'; cat "$T/perf.diff")"

# 1c. Relative links: the README sends its reader to docs/ and the man
# pages for everything it no longer says, so each must arrive (GitHub's
# heading anchors: lower case, punctuation dropped, spaces to hyphens).
$PY - README.md docs/*.md docs/man/*.md >"$T/links" <<'EOF_LINKS'
import os, re, sys
def headings(path):
    text = re.sub(r"```.*?```", "", open(path).read(), flags=re.S)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", text, re.M)}
for f in sys.argv[1:]:
    text = re.sub(r"```.*?```", "", open(f).read(), flags=re.S)
    for m in re.finditer(r"\[[^\]]+\]\(([^)\s]+)\)", text):
        path, _, anchor = m.group(1).partition("#")
        if "://" in path or path.startswith("mailto:"):
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(target):
            print("%s: link to %s: no such file" % (f, m.group(1)))
        elif anchor and (os.path.isdir(target) or anchor not in headings(target)):
            print("%s: link to %s: no such heading" % (f, m.group(1)))
EOF_LINKS
[ -s "$T/links" ] && bad "broken links:$(printf '\n'; cat "$T/links")"

# 2. The man pages: lint and render.
for src in docs/man/*.md; do
	page=$BUILD/man/$(basename "$src" .md)
	[ -f "$page" ] || { bad "$page was not built (make man)"; continue; }
	mandoc -T lint -W warning "$page" >"$T/lint" 2>&1 || bad "mandoc lint: $page: $(cat "$T/lint")"
	man -l "$page" >"$T/rendered" 2>"$T/man.err" || bad "man -l $page failed: $(cat "$T/man.err")"
	name=$(basename "$src" .md); name=${name%.*}
	grep -q "^NAME" "$T/rendered" && grep -q "$name - " "$T/rendered" ||
		bad "man -l $page: no NAME section naming $name"
done

# 3. --help against the man page's usage block; --version.
version="dperf-live $(cat VERSION)"
for page in dperf.8 dperf-ctl.8 dperf-top.8 dperf-report.1; do
	bin=${page%.*}
	$PY scripts/mandoc.py block "docs/man/$page.md" usage | sed '1d;$d' >"$T/usage.doc"
	"$BUILD/$bin" --help >"$T/usage.bin" 2>&1 || bad "$bin --help exited non-zero"
	diff -u "$T/usage.doc" "$T/usage.bin" >"$T/usage.diff" ||
		bad "$bin --help differs from docs/man/$page.md's usage block:$(printf '\n'; cat "$T/usage.diff")"
	v=$("$BUILD/$bin" --version 2>&1) || bad "$bin --version exited non-zero"
	case "$v" in "$version"*) ;; *) bad "$bin --version: '$v' (expected '$version ...')" ;; esac
done
# Every option in a usage block is described in it (a line of its own).
for bin in dperf dperf-top; do
	for opt in $($PY scripts/mandoc.py block "docs/man/$bin.8.md" usage | sed -n 2p | grep -o -- '-[a-z-]*' | sort -u); do
		$PY scripts/mandoc.py block "docs/man/$bin.8.md" usage | grep -q -- "^  .*$opt" ||
			bad "$bin: option $opt is in the synopsis but has no line of its own"
	done
done

# 4. Keywords: the parser's table (common/config_table.c, as dperf -k prints it) against dperf.conf(5).
# (dperf -k prints the table: a keyword per unindented line, its help
# indented below; the refused ones say so and are not the parser's.)
"$BUILD/dperf" -k | awk '/^[a-z]/ { k = $1; next } /^    refused:/ { k = ""; next } k != "" { print k; k = "" }' |
	sort -u >"$T/kw.code"
[ -s "$T/kw.code" ] || bad "no keywords in $BUILD/dperf -k (did its shape change?)"
$PY scripts/mandoc.py block docs/man/dperf.conf.5.md keywords | sed -n 's/^| `\([a-z_0-9]*\).*/\1/p' | sort -u >"$T/kw.doc"
comm -23 "$T/kw.code" "$T/kw.doc" | while read -r k; do echo "$k"; done >"$T/kw.undoc"
comm -13 "$T/kw.code" "$T/kw.doc" >"$T/kw.gone"
[ -s "$T/kw.undoc" ] && bad "keywords the parser knows but dperf.conf(5) does not list: $(tr '\n' ' ' <"$T/kw.undoc")"
[ -s "$T/kw.gone" ] && bad "keywords dperf.conf(5) lists but the parser does not know: $(tr '\n' ' ' <"$T/kw.gone")"

# 4b. Counters: dperf(8)'s list against common/counters.h (the one list
# the engine, the tools and every output print from), and every counter
# its tables explain is one of them.
doc_counters() { $PY scripts/mandoc.py block docs/man/dperf.8.md counters; }
grep -oE '^[[:space:]]*X\([A-Z0-9_]+, "[A-Za-z0-9]+", CK_' common/counters.h | cut -d'"' -f2 | sort >"$T/cnt.code"
grep -oE '^[[:space:]]*X\([A-Z0-9_]+, "[A-Za-z0-9]+"\)' common/counters.h | cut -d'"' -f2 | sort >"$T/pcnt.code"
[ -s "$T/cnt.code" ] && [ -s "$T/pcnt.code" ] || bad "no counters found in common/counters.h (did its X() shape change?)"
doc_counters | sed -n '/^```$/,/^```$/p' | grep -v '^```' | tr ' ' '\n' | grep . | sort >"$T/cnt.doc"
diff "$T/cnt.doc" "$T/cnt.code" >"$T/cnt.diff" ||
	bad "dperf(8)'s counter list (<) and common/counters.h (>) differ:$(printf '\n'; cat "$T/cnt.diff")"
doc_counters | grep -oE '[A-Za-z0-9]+' | sort -u >"$T/cnt.words"
for c in $(cat "$T/pcnt.code"); do
	grep -qx "$c" "$T/cnt.words" || bad "dperf(8)'s COUNTERS does not name the port counter $c"
done
for c in $(doc_counters | grep -oE '^\| `[A-Za-z0-9]+`(, `[A-Za-z0-9]+`)* \|' | grep -oE '[A-Za-z0-9]+'); do
	grep -qx "$c" "$T/cnt.code" "$T/pcnt.code" || bad "dperf(8)'s COUNTERS explains $c, which is not a counter"
done

# 4c. Exit codes: each table's codes are exactly the ones the code defines
# (dperf: 0 and primary/boot/main.c's EXIT_*; dperf-ctl: lib/attach.h's DP_EXIT_*).
exit_codes() { $PY scripts/mandoc.py block "docs/man/$1.8.md" exit | sed -n 's/^| \([0-9][0-9]*\) |.*/\1/p' | sort -n | tr '\n' ' '; }
code=$( { echo 0; sed -n 's/^#define EXIT_[A-Z_]* \([0-9][0-9]*\)$/\1/p' primary/boot/main.c; } | sort -nu | tr '\n' ' ')
[ "$(exit_codes dperf)" = "$code" ] || bad "dperf(8)'s exit codes ($(exit_codes dperf)) are not the code's ($code: 0 and primary/boot/main.c's EXIT_*)"
code=$(sed -n 's/^[[:space:]]*DP_EXIT_[A-Z_]* = \([0-9][0-9]*\),.*/\1/p' lib/attach.h | sort -nu | tr '\n' ' ')
[ -n "$code" ] || bad "no DP_EXIT_* values in lib/attach.h (did its shape change?)"
[ "$(exit_codes dperf-ctl)" = "$code" ] || bad "dperf-ctl(8)'s exit codes ($(exit_codes dperf-ctl)) are not lib/attach.h's DP_EXIT_* ($code)"

# 4d. Each keyword's dperf.conf(5) line states its row's range and default,
# as dperf -k prints them from the table (common/config_table.c): a number's
# "LO..HI", and the default in parentheses, "(60s)" (or "default 60s").
"$BUILD/dperf" -k >"$T/kw.k"
$PY - "$T/kw.k" docs/man/dperf.conf.5.md >"$T/kw.rows" <<'PYEOF'
import re, sys
k, man = open(sys.argv[1]).read(), open(sys.argv[2]).read()
rows = {m.group(1): m.group(2) for m in re.finditer(r'^\| `([a-z_0-9]+)[^|]*?` \| (.*) \|$', man, re.M)}
for m in re.finditer(r'^([a-z_0-9]+)[^\n]*\n    (.*)$', k, re.M):
    name, text = m.groups()
    line = rows.get(name)
    if line is None or text.startswith('refused:'):
        continue  # 4 reports a keyword without a line
    r = re.match(r'(\S+\.\.[^;, ]+)[^;]*; default ', text)
    if r and r.group(1) not in line:
        print(f"{name}: range {r.group(1)} (dperf -k) missing from its line")
    d = re.search(r'(?:^|; )default (.*?)(?:; |$)', text)
    if d and not re.search(r'(\(|default )`?' + re.escape(d.group(1)) + r'`?([);,: ]|$)', line):
        print(f"{name}: default \"{d.group(1)}\" (dperf -k) missing from its line, as \"({d.group(1)})\"")
PYEOF
[ -s "$T/kw.rows" ] && bad "dperf.conf(5)'s keyword lines and the table disagree:$(printf '\n'; cat "$T/kw.rows")"

# 5. The layout block against the tree.
sed -n '/^<!-- layout -->/,/^<!-- \/layout -->/p' docs/architecture.md | grep -oE '^[a-z0-9]+(/[a-z0-9]+)?/' | sort -u >"$T/layout.doc"
{ find . -mindepth 1 -maxdepth 1 -type d; find tests docs primary -mindepth 1 -maxdepth 1 -type d; } |
	sed 's|^\./||; s|$|/|' | grep -vE '(^|/)(\.|__|build/)' | grep -vx 'tests/' | sort -u >"$T/layout.tree"
diff "$T/layout.doc" "$T/layout.tree" >"$T/layout.diff" ||
	bad "docs/architecture.md's layout block (<) and the tree (>) disagree:$(printf '\n'; cat "$T/layout.diff")"

# 5b, 5d. No include circle between modules of different rooms, and the
# includes the layers forbid (tcp/ includes no http/ or tls/, net/ no
# tcp/, no file of primary/ a room above its own, no lib/ header in
# common/): tests/docs/check_includes.py says what and why.
$PY tests/docs/check_includes.py >"$T/includes" 2>&1 ||
	bad "includes:$(printf '\n'; cat "$T/includes")"

# 5c. The includes the layout block states: no "../" path anywhere
# (common/ including nothing of lib/ is check_includes.py's).
# (That the tools include no primary header the build enforces: only the
# primary's objects, unit tests and fuzz harnesses get -Iprimary.)
grep -rn --include='*.[ch]' '^#[[:space:]]*include[[:space:]]*"\.\./' common lib primary secondary tui tests >"$T/dotdot" &&
	bad "#include \"../\" (use -I in the Makefile's INCLUDES):$(printf '\n'; cat "$T/dotdot")"

# 6. The test catalogue (one Python process: a loop of basename and grep
# a test was about 8 s of docs-check on a busy box, issue 39).
$PY - >"$T/catalogue" <<'PYEOF'
import glob, os, re
doc = open("docs/testing.md").read()
make = open("Makefile").read()
for t in sorted(glob.glob("tests/e2e/test_*.sh") + glob.glob("tests/unit/test_*.c") + glob.glob("tests/unit/test_*.py") + glob.glob("tests/fuzz/fuzz_*.c")):
    n = os.path.splitext(os.path.basename(t))[0]
    if "`%s`" % n not in doc:
        print("docs/testing.md does not describe %s (%s)" % (n, t))
for n in sorted(set(re.findall(r"`((?:test|fuzz)_[a-z0-9_]+)`", doc))):
    if not any(os.path.exists(p % n) for p in ("tests/e2e/%s.sh", "tests/unit/%s.c", "tests/unit/%s.py", "tests/fuzz/%s.c")) \
            and not re.search(r"^build/fuzz/%s:" % n, make, re.M):  # a harness built twice (fuzz_rx_tls)
        print("docs/testing.md names %s, which is not a test" % n)
PYEOF
[ -s "$T/catalogue" ] && bad "$(cat "$T/catalogue")"
# The test scripts start Python as /usr/bin/python3: Debian's modules
# (scapy, matplotlib), and a python3 first on PATH may be a pyenv shim,
# 0.6 s a start here against 0.07 s (make test ran hundreds: jget, polls).
grep -nE '(^|[^/.A-Za-z0-9_-])python3([^-.A-Za-z0-9_]|$)' tests/e2e/*.sh scripts/*.sh | grep -vE '^[^:]+:[0-9]+:\s*#' |
	grep -v '^scripts/install-deps.sh:' >"$T/py.bare" &&
	bad "test scripts start a bare python3 (use /usr/bin/python3):$(printf '\n'; cat "$T/py.bare")"

# 7. install / uninstall.
make -s install DESTDIR="$T/root" >"$T/install.log" 2>&1 || bad "make install DESTDIR failed: $(tail -5 "$T/install.log")"
for f in usr/local/bin/dperf usr/local/bin/dperf-ctl usr/local/bin/dperf-top usr/local/bin/dperf-report \
	 usr/local/share/man/man1/dperf-report.1 usr/local/share/man/man8/dperf.8 usr/local/share/man/man8/dperf-ctl.8 \
	 usr/local/share/man/man8/dperf-top.8 usr/local/share/man/man5/dperf.conf.5 \
	 usr/local/share/dperf-live/examples/memif-client.conf usr/local/lib/systemd/system/dperf@.service; do
	[ -f "$T/root/$f" ] || bad "make install DESTDIR: $f missing"
done
for p in "$T"/root/usr/local/share/man/man*/*; do
	man -l "$p" 2>/dev/null | grep -q "^NAME" || bad "man -l $p does not render"
done
grep -q '^ExecStart=/usr/local/bin/dperf -c /etc/dperf/%i.conf -p %i$' "$T/root/usr/local/lib/systemd/system/dperf@.service" ||
	bad "dperf@.service: ExecStart is not 'dperf -c /etc/dperf/NAME.conf -p NAME'"
make -s uninstall DESTDIR="$T/root" >/dev/null 2>&1
left=$(find "$T/root" -type f)
[ -z "$left" ] || bad "make uninstall left: $left"
# systemd-analyze checks that ExecStart's binary exists: install into a
# prefix of our own (no DESTDIR) so that the unit names real files.
make -s install PREFIX="$T/pfx/usr" SYSCONFDIR="$T/pfx/etc" >/dev/null 2>&1 || bad "make install PREFIX failed"
cp "$T/pfx/usr/lib/systemd/system/dperf@.service" "$T/dperf@lab.service"
MANPATH=$T/pfx/usr/share/man systemd-analyze verify "$T/dperf@lab.service" >"$T/verify" 2>&1 ||
	bad "systemd-analyze verify dperf@lab.service: $(cat "$T/verify")"

if [ $fails -gt 0 ]; then
	echo "docs: $fails check(s) failed" >&2
	exit 1
fi
echo "PASS [docs]: README blocks and links, man lint and rendering, --help/--version, keywords, counters, exit codes, layout, test catalogue, install/uninstall, systemd unit"
