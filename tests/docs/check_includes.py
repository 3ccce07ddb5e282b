#!/usr/bin/env python3
"""Include circles and the includes the layers forbid (make docs-check, 5d).

A module is a folder's x.c and x.h; one uses another when one of its files
includes the other's header, or its code (a function body, a macro) names a
function the other defines (a header's inline code counts: txq.h calling
tx_flush in dev/tx.c was a circle). It fails on
  - a circle of modules of different rooms (primary/<room>/, common/, lib/);
  - a file of tcp/ including http/ or tls/ (TCP carries the application,
    it does not know it: tcp/tcp_app.h), or of net/ including tcp/ (the
    frames are built below the segment writer, tcp/tcp_out.c);
  - a file of primary/ including a room above its own in the layout
    block of docs/architecture.md;
  - a file of common/ including a lib/ header.
Prints each failure with the edges that make it; exit 1 when there is one.
Run from the tree's top (check_docs.sh does)."""
import os, re, sys
from collections import defaultdict

ROOTS = ["common", "lib", "primary"]
files = []
for r in ROOTS:
    for d, _, fs in os.walk(r):
        files += [os.path.join(d, f) for f in fs if f.endswith((".c", ".h"))]
files.sort()

def strip(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(\\.|[^'\\\n])*'", "''", text)
    return text

def resolve(inc, src):
    if "/" in inc:
        cand = [os.path.join("primary", inc)]
    else:
        cand = [os.path.join(os.path.dirname(src), inc), os.path.join("common", inc), os.path.join("lib", inc)]
    for c in cand:
        if os.path.isfile(c):
            return c
    return None

def module(f):
    return os.path.splitext(f)[0]

def room(f):
    p = f.split("/")
    return "/".join(p[:2]) if p[0] == "primary" else p[0]

defs = {}
uses = defaultdict(set)
incs = defaultdict(set)
for f in files:
    raw = open(f).read()
    for m in re.finditer(r'^#\s*include\s*"([^"]+)"', raw, re.M):
        r = resolve(m.group(1), f)
        if r:
            incs[f].add(r)
    t = strip(raw)
    lines = t.split("\n")
    static_next = False
    for i, line in enumerate(lines):
        m = re.match(r"^([A-Za-z_]\w*)\s*\(", line)
        if m and i > 0 and not line.rstrip().endswith(";") and not re.match(r"^(if|while|for|switch|return|sizeof)\b", line):
            prev = lines[i - 1]
            is_static = re.search(r"\bstatic\b", prev) is not None
            if f.endswith(".h") or not is_static:
                # a definition: the body follows (a '{' before the next ';')
                rest = "\n".join(lines[i:i + 12])
                b, s = rest.find("{"), rest.find(";")
                if b != -1 and (s == -1 or b < s):
                    defs.setdefault(m.group(1), f) if not f.endswith(".h") or is_static else None
    # uses: identifiers inside braces and in #define lines
    depth = 0
    body = []
    for line in lines:
        if line.lstrip().startswith("#"):
            if line.lstrip().startswith("#define"):
                body.append(line)
            continue
        for ch_i, ch in enumerate(line):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
        if depth > 0 or "}" in line:
            body.append(line)
    # a struct, union or enum tag names a type, not a function of the
    # same name (struct dp_rsp_scan, the state dp_rsp_scan() reads)
    text = re.sub(r"\b(?:struct|union|enum)\s+[A-Za-z_]\w*", " ", "\n".join(body))
    uses[f] = set(re.findall(r"\b[A-Za-z_]\w*\b", text))

edges = defaultdict(set)
why = {}
for f in files:
    a = module(f)
    for g in incs[f]:
        b = module(g)
        if a != b:
            edges[a].add(b); why.setdefault((a, b), f"{f} includes {g}")
    for name in uses[f]:
        g = defs.get(name)
        if g and module(g) != a:
            b = module(g)
            edges[a].add(b); why.setdefault((a, b), f"{f} calls {name} ({g})")

# Tarjan
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def sc(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            sc(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(sorted(comp))
for v in sorted({module(f) for f in files}):
    if v not in index: sc(v)
FORBIDDEN = [("tcp", "http"), ("tcp", "tls"), ("net", "tcp")]
fails = 0
for c in sccs:
    rooms = sorted({room(m) for m in c})
    if len(rooms) < 2:
        continue
    fails += 1
    print("include circle across rooms " + ", ".join(rooms) + ": " + " ".join(c))
    cs = set(c)
    for a in c:
        for b in sorted(edges[a] & cs):
            print("    " + why[(a, b)])
for f in files:
    p = f.split("/")
    if p[0] != "primary":
        continue
    for m in re.finditer(r'^#\s*include\s*"([a-z0-9_]+)/[^"]+"', open(f).read(), re.M):
        if (p[1], m.group(1)) in FORBIDDEN:
            fails += 1
            print(f"{f} ({p[1]}/) includes {m.group(1)}/: {p[1]}/ may not (tests/docs/check_includes.py)")
# primary/'s rooms: a file includes only headers of its own room or of
# rooms listed below it in docs/architecture.md's layout block (make
# docs-check, 5b; here, not in the shell, whose three processes a file and
# include took half of docs-check's minute on a busy box: issue 39).
layout = re.search(r"^<!-- layout -->$(.*?)^<!-- /layout -->$", open("docs/architecture.md").read(), re.S | re.M)
order = []
for m in re.finditer(r"^primary/([a-z0-9]+)/", layout.group(1) if layout else "", re.M):
    if m.group(1) not in order:
        order.append(m.group(1))
rank = {r: i for i, r in enumerate(reversed(order))}
for f in files:
    p = f.split("/")
    if p[0] != "primary" or len(p) != 3:
        continue
    own = p[1]
    for inc in sorted(set(re.findall(r'^#include "([a-z0-9_]+)/[a-z0-9_]+\.h"', open(f).read(), re.M))):
        if rank.get(inc, -1) > rank.get(own, -1):
            fails += 1
            print(f"{f} ({own}/) includes {inc}/, a room above its own in docs/architecture.md")
# common/ includes nothing of lib/ (lib/ sits on common/, not under it; 5c).
lib_h = sorted(f for f in os.listdir("lib") if f.endswith(".h"))
for f in files:
    if f.startswith("common/"):
        for h in re.findall(r'^#\s*include\s*"([^"/]+)"', open(f).read(), re.M):
            if h in lib_h:
                fails += 1
                print(f"common/ includes a lib/ header: {f} includes {h}")
sys.exit(1 if fails else 0)
