#!/usr/bin/env bash
# Non-test lines of the Rust sources under a folder (default: src/): every
# line of every .rs file, less files named *tests*.rs and less the body of
# every `#[cfg(test)]` item (a module or function, to its closing brace).
# Blank lines and comments count: this measures what a reader reads.
#
# usage: scripts/src-lines.sh [DIR...]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- src
find "$@" -name '*.rs' ! -name '*tests*.rs' -print0 | xargs -0 python3 -c '
import sys
total = 0
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]":
            # Skip the item: to the end of its braces, or its `;`.
            depth, j, opened = 0, i + 1, False
            while j < len(lines):
                code = lines[j].split("//")[0]
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
                if (opened and depth <= 0) or (not opened and code.rstrip().endswith(";")):
                    break
                j += 1
            i = j + 1
            continue
        total += 1
        i += 1
print(total)
'
