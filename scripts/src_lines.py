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
trees = [("tracegate", "crates/tracegate/src"), ("tracegate-daemon", "crates/tracegate-daemon/src"), ("tracegate-fleet", "crates/tracegate-fleet/src"), ("tracegate-cli", "src")]
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


def skip_literal(text, i):
    """The index just past a comment, string or char literal starting at
    `i`, or `i` when none starts there: braces inside them do not count."""
    if text.startswith("//", i):
        j = text.find("\n", i)
        return len(text) if j < 0 else j
    if text.startswith("/*", i):
        j = text.find("*/", i + 2)
        return len(text) if j < 0 else j + 2
    m = re.match(r'b?r(#*)"', text[i:i + 260])
    if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
        j = text.find('"' + m.group(1), i + m.end())
        return len(text) if j < 0 else j + 1 + len(m.group(1))
    if text[i] == '"' or text.startswith('b"', i):
        j = i + (2 if text[i] == "b" else 1)
        while j < len(text) and text[j] != '"':
            j += 2 if text[j] == "\\" else 1
        return j + 1
    m = re.match(r"'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'", text[i:i + 16])
    if m:
        return i + m.end()
    return i


def item_end(text, i):
    """Where the item starting at `i` (after a `#[cfg(test)]`) ends: a
    braced item at its closing brace, a `use` or `mod x;` at its `;`, a
    field, argument or struct-expression member at its `,` (or just before
    the brace or bracket that closes its parent). Braces, brackets and
    parentheses nest; `<...>` nests only outside braces (a field's type
    such as `HashMap<K, V>`), and the `>` of `->` or `=>` does not close."""
    depth = 0  # braces, brackets and parentheses
    angles = 0
    while i < len(text):
        j = skip_literal(text, i)
        if j != i:
            i = j
            continue
        c = text[i]
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
            if depth < 0:
                return i
            if depth == 0 and c == "}":
                # `use a::{b, c};` ends at its `;`.
                k = i + 1
                while k < len(text) and text[k] in " \t":
                    k += 1
                return k + 1 if text.startswith(";", k) else i + 1
        elif depth == 0 and c == "<":
            angles += 1
        elif depth == 0 and c == ">" and text[i - 1] not in "-=":
            angles -= 1
        elif depth == 0 and angles <= 0 and c in ";,":
            return i + 1
        i += 1
    return i


def strip_tests(text):
    out, rest = [], text
    while True:
        at = rest.find("#[cfg(test)]")
        if at < 0:
            out.append(rest); break
        out.append(rest[:at])
        rest = rest[item_end(rest, at + len("#[cfg(test)]")):]
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
