#!/usr/bin/env python3
"""Non-test lines of Rust source per crate: every line of the crates' `src`
trees except `#[cfg(test)]` items (a module, a function, a `use`) and the
files only test modules declare. A module behind
`#[cfg(any(test, feature = "oracle"))]` counts as a test module: the
`oracle` feature is turned on only by dev-dependencies (the prost
reference the OTLP codecs are held to), never in a build that ships. Blank lines and comments count (they are
part of what a reader reads). Usage: scripts/src_lines.py [ROOT]"""
import os, re, sys

TEST_ATTRS = ("#[cfg(test)]", '#[cfg(any(test, feature = "oracle"))]')

root = sys.argv[1] if len(sys.argv) > 1 else "."
trees = [("tracegate", "crates/tracegate/src"), ("tracegate-daemon", "crates/tracegate-daemon/src"), ("tracegate-cli", "src")]
if not os.path.isdir(os.path.join(root, "crates")):
    trees = [("tracegate (one crate)", "src")]


def files(d):
    for dp, _, fs in os.walk(d):
        for f in fs:
            if f.endswith(".rs"):
                yield os.path.join(dp, f)


def test_only(all_files):
    out = set()
    for f in all_files:
        lines = [l.strip() for l in open(f, encoding="utf-8").read().split("\n")]
        for i, l in enumerate(lines):
            m = re.fullmatch(r"(?:pub(?:\([a-z]+\))? )?mod (\w+);", l)
            if not m:
                continue
            j = i - 1
            attrs = []
            while j >= 0 and lines[j].startswith("#["):
                attrs.append(lines[j]); j -= 1
            if not any(a in TEST_ATTRS for a in attrs):
                continue
            base = os.path.dirname(f) if os.path.basename(f) in ("mod.rs", "lib.rs", "main.rs") else f[:-3]
            out.add(os.path.join(base, m.group(1) + ".rs"))
            out.add(os.path.join(base, m.group(1), "mod.rs"))
    return out


def strip_tests(text):
    out, rest = [], text
    while True:
        at = rest.find("#[cfg(test)]")
        if at < 0:
            out.append(rest); break
        out.append(rest[:at])
        i = at + len("#[cfg(test)]")
        depth = 0
        while i < len(rest):
            c = rest[i]
            if c == "{": depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0: i += 1; break
            elif c == ";" and depth == 0: i += 1; break
            i += 1
        rest = rest[i:]
    return "".join(out)


total = 0
for name, rel in trees:
    d = os.path.join(root, rel)
    fs = list(files(d))
    skip = test_only(fs)
    n = 0
    for f in fs:
        if f in skip:
            continue
        n += strip_tests(open(f, encoding="utf-8").read()).count("\n")
    total += n
    print(f"{name:24} {n:7}")
print(f"{'total':24} {total:7}")
