#!/usr/bin/python3
"""The documentation's one source: docs/man/*.md.

  mandoc.py man SRC.md OUT          SRC as a man(7) page
  mandoc.py readme README.md SRC..  copy the blocks README.md repeats from SRC
  mandoc.py readme --check README.md SRC..
                                    exit 1, with a diff, if README.md's blocks differ
  mandoc.py block SRC.md NAME       print one marked block (for the tests)

The sources are a small subset of Markdown, chosen so that one text reads
well on GitHub and renders as a clean man page (mandoc -T lint quiet):
a first line `% TITLE SECTION DATE SOURCE`, `#`/`##` headings, paragraphs,
fenced code blocks, `- ` lists, two-or-more column tables (rendered as
tagged paragraphs: the first column is the tag), inline `code`, **bold**,
*italic* and [text](link). `<!-- block: NAME -->` ... `<!-- /block -->`
names a block that the code is checked against (tests/docs/check_docs.sh
reads a usage block, the keyword, counter and exit-code tables) or that
README.md repeats between `<!-- begin SRC: NAME -->` and
`<!-- end SRC: NAME -->`; README.md is rewritten from the source, never the
other way round. The references live in the man pages; README.md repeats
only what a newcomer reads first (dperf-ctl's examples).
"""
import difflib
import re
import sys
import textwrap


def inline(text):
    """Markdown inline markup to roff, with roff's special characters escaped."""
    out = []
    # Code spans first: their contents are literal.
    for i, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if i % 2 == 1:
            out.append("\\fB" + escape(part[1:-1]) + "\\fR")
            continue
        part = re.sub(r"\[([^\]]+)\]\(([^)]+)\)",
                      lambda m: m.group(1) + (" <" + m.group(2) + ">" if "://" in m.group(2) else ""),
                      part)
        part = part.replace("\\|", "|")
        part = escape(part)
        part = re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fR", part)
        part = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\\fI\1\\fR", part)
        out.append(part)
    return "".join(out)


def escape(s):
    s = s.replace("\\|", "|").replace("\\", "\\e").replace("-", "\\-")
    return s


def line_out(s):
    """A text line that roff must not read as a request."""
    return "\\&" + s if s[:1] in (".", "'") else s


def text_out(s):
    """Running text in lines of at most 80 bytes where spaces allow (mandoc's style)."""
    return "\n".join(line_out(x) for x in textwrap.wrap(
        s, 78, break_long_words=False, break_on_hyphens=False)) or ""


def cells(row):
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


def to_man(src):
    lines = src.split("\n")
    m = re.match(r'^% (\S+) (\d) (\S+) "([^"]*)"$', lines[0])
    if not m:
        sys.exit("mandoc.py: first line must be: % TITLE SECTION DATE \"SOURCE\"")
    title, section, date, source = m.groups()
    out = ['.TH %s %s %s "%s"' % (title.upper(), section, date, source)]
    after_heading = True  # no .PP right after .SH/.SS (mandoc: skipped)
    i = 1
    n = len(lines)

    def para():
        nonlocal after_heading
        if not after_heading:
            out.append(".PP")
        after_heading = False

    while i < n:
        ln = lines[i]
        if ln.strip().startswith("<!--"):
            i += 1
            continue
        if not ln.strip():
            i += 1
            continue
        if ln.startswith("# "):
            out.append(".SH " + inline(ln[2:].strip().upper()))
            after_heading = True
            i += 1
            continue
        if ln.startswith("## "):
            out.append(".SS " + inline(ln[3:].strip()))
            after_heading = True
            i += 1
            continue
        if ln.startswith("```"):
            para()
            out.append(".RS 4")
            out.append(".nf")
            i += 1
            while i < n and not lines[i].startswith("```"):
                out.append(line_out(escape(lines[i])) if lines[i] else "")
                i += 1
            out.append(".fi")
            out.append(".RE")
            i += 1
            continue
        if ln.startswith("|"):
            rows = []
            while i < n and lines[i].startswith("|"):
                rows.append(cells(lines[i]))
                i += 1
            body = [r for r in rows[1:] if not all(re.match(r"^:?-+:?$", c) for c in r)]
            for r in body:
                out.append(".TP")
                out.append(text_out(inline(r[0])))
                out.append(text_out(inline(" \u2014 ".join(c for c in r[1:] if c))))
            after_heading = False
            continue
        if ln.startswith("- "):
            while i < n and lines[i].startswith("- "):
                item = [lines[i][2:]]
                i += 1
                while i < n and lines[i].startswith("  ") and lines[i].strip():
                    item.append(lines[i].strip())
                    i += 1
                out.append(".IP \\(bu 2")
                out.append(text_out(inline(" ".join(item))))
            after_heading = False
            continue
        para_lines = []
        while i < n and lines[i].strip() and not re.match(r"^(#|```|\||- |<!--)", lines[i]):
            para_lines.append(lines[i].strip())
            i += 1
        para()
        out.append(text_out(inline(" ".join(para_lines))))
    return "\n".join(out).replace("\u2014", "\\(em") + "\n"


BLOCK_RE = re.compile(r"^<!-- block: (\S+) -->\n(.*?)^<!-- /block -->\n", re.S | re.M)
# The marker before blocks lived in the man pages for their own sake: a
# source still using it would lose its block without a word.
OLD_MARK_RE = re.compile(r"^<!-- /?readme\b", re.M)


def blocks(path):
    with open(path) as f:
        text = f.read()
    old = OLD_MARK_RE.search(text)
    if old:
        sys.exit("mandoc.py: %s:%d: '<!-- readme: NAME -->' is now '<!-- block: NAME -->'"
                 " (and '<!-- /readme -->' '<!-- /block -->')"
                 % (path, text.count("\n", 0, old.start()) + 1))
    return {m.group(1): m.group(2) for m in BLOCK_RE.finditer(text)}


def splice(readme, sources):
    """README.md with every generated block rewritten from its source."""
    found = {}
    for src in sources:
        for name, text in blocks(src).items():
            found[(src, name)] = text
    used = set()

    def repl(m):
        key = (m.group(1), m.group(2))
        if key not in found:
            sys.exit("mandoc.py: README.md names %s: %s, which no source marks" % key)
        used.add(key)
        return "<!-- begin %s: %s -->\n%s<!-- end %s: %s -->\n" % (key + (found[key],) + key)

    text = re.sub(r"^<!-- begin (\S+): (\S+) -->\n.*?^<!-- end \1: \2 -->\n", repl, readme,
                  flags=re.S | re.M)
    return text


def main(argv):
    if len(argv) == 4 and argv[1] == "man":
        with open(argv[2]) as f:
            page = to_man(f.read())
        with open(argv[3], "w") as f:
            f.write(page)
        return 0
    if len(argv) == 4 and argv[1] == "block":
        b = blocks(argv[2])
        if argv[3] not in b:
            sys.exit("mandoc.py: %s has no block %s" % (argv[2], argv[3]))
        sys.stdout.write(b[argv[3]])
        return 0
    if len(argv) >= 3 and argv[1] == "readme":
        check = argv[2] == "--check"
        readme = argv[3] if check else argv[2]
        sources = argv[4:] if check else argv[3:]
        with open(readme) as f:
            old = f.read()
        new = splice(old, sources)
        if check:
            if old != new:
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), new.splitlines(True), readme, readme + " (from docs/man)"))
                print("mandoc.py: %s is older than docs/man: run 'make docs'" % readme)
                return 1
            return 0
        if old != new:
            with open(readme, "w") as f:
                f.write(new)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
