#!/usr/bin/env python3
"""Score redaction outputs against the labeled corpus (detect_corpus.py).

usage: detect_score.py CORPUS.jsonl TOOL=RESULT.jsonl[:TIMING.json] ...

RESULT lines, one per corpus line, in one of three forms:
  {"spans": [[start, end, detector], ...]}  byte offsets (tracegate)
  {"cspans": [[start, end, detector], ...]} code point offsets (Presidio)
  {"out": "..."} the redacted text, each replacement a token
      `\\ue000<mark>\\ue001` (VRL) or `[REDACTED:<name>]` (tracegate when
      a later pass rewrote its output); spans are recovered by aligning
      the untouched segments with the input, leftmost.
TIMING: {"bytes": N, "seconds": S, "per_detector" | "per_class": {...}}.

Per class, an item is found *whole* when every character of its span is
inside redacted spans, *partly* when some are. Recall = whole / items of
the forms the detector claims (unclaimed forms are reported apart).
A redacted span is a true positive when it overlaps a planted item, a
false positive otherwise (what it hit is counted by look-alike kind);
precision per detector = its true positives / its spans. Prints a
markdown table per tool and a comparison table.
"""
import json
import re
import sys
from collections import Counter, defaultdict

CLASSES = ["private_key", "api_key", "url_credentials", "jwt", "email", "credit_card", "iban", "us_ssn", "phone", "ipv6", "ipv4"]
TOKEN = re.compile("\ue000(.)\ue001|\\[REDACTED:([a-z0-9_]+)\\]")


def align(text, out, marks):
    """Spans of `text` that tokens in `out` replaced, leftmost: each
    untouched segment is found at or after where the last one ended plus
    one character (a replacement is never empty)."""
    spans = []
    pos_in = 0
    last = 0
    toks = list(TOKEN.finditer(out))
    for k, m in enumerate(toks):
        seg = out[last:m.start()]
        if k == 0:
            if not text.startswith(seg):
                return None
            start = len(seg)
        else:
            at = text.find(seg, pos_in + 1) if seg else pos_in + 1
            if at < 0:
                return None
            spans[-1][1] = at
            start = at + len(seg)
        name = marks.get(m.group(1), m.group(1)) if m.group(1) else m.group(2)
        spans.append([start, None, name])
        pos_in = start
        last = m.end()
    if spans:
        tail = out[last:]
        end = len(text) - len(tail)
        if end <= pos_in or not text.endswith(tail):
            return None
        spans[-1][1] = end
    return spans


def char_spans(text, spans):
    """Byte-offset spans to code point offsets."""
    b = text.encode("utf-8")
    return [[len(b[:s].decode("utf-8", "replace")), len(b[:e].decode("utf-8", "replace")), n] for s, e, n in spans]


def score(corpus, results, marks):
    items = Counter()
    whole = Counter()
    part = Counter()
    unclaimed = Counter()
    unclaimed_whole = Counter()
    forms_missed = Counter()
    det_tp = Counter()
    det_fp = Counter()
    fp_kind = Counter()
    misaligned = 0
    for doc, res in zip(corpus, results):
        text = doc["text"]
        if "spans" in res:
            spans = char_spans(text, res["spans"])
        elif "cspans" in res:
            spans = res["cspans"]
        else:
            spans = align(text, res["out"], marks)
            if spans is None:
                misaligned += 1
                spans = []
        covered = bytearray(len(text) + 1)
        for s, e, _ in spans:
            for i in range(max(0, s), min(e, len(text))):
                covered[i] = 1
        for s, e, cls, form, claimed in doc["items"]:
            n = sum(covered[s:e])
            if claimed:
                items[cls] += 1
                if n == e - s:
                    whole[cls] += 1
                elif n:
                    part[cls] += 1
                    forms_missed[(cls, form, "part")] += 1
                else:
                    forms_missed[(cls, form, "miss")] += 1
            else:
                unclaimed[cls] += 1
                unclaimed_whole[cls] += n == e - s
        for s, e, name in spans:
            if any(s < ie and is_ < e for is_, ie, *_ in doc["items"]):
                det_tp[name] += 1
            else:
                det_fp[name] += 1
                kinds = [k for ls, le, k in doc["looks"] if s < le and ls < e]
                fp_kind[(name, kinds[0] if kinds else "other")] += 1
    return dict(items=items, whole=whole, part=part, unclaimed=unclaimed, unclaimed_whole=unclaimed_whole,
                forms_missed=forms_missed, det_tp=det_tp, det_fp=det_fp, fp_kind=fp_kind, misaligned=misaligned)


def ratio(a, b):
    return a / b if b else float("nan")


def fmt(x):
    return "-" if x != x else "%.3f" % x


def report(tool, sc, timing):
    print("\n### %s\n" % tool)
    print("| detector | items | recall (whole) | partly | spans | precision | MB/s alone |")
    print("|---|---|---|---|---|---|---|")
    per_time = (timing or {}).get("per_detector") or (timing or {}).get("per_class") or {}
    mb = (timing or {}).get("bytes", 0) / 1e6
    names = list(CLASSES) + sorted((set(sc["det_tp"]) | set(sc["det_fp"])) - set(CLASSES))
    for c in names:
        n = sc["items"][c]
        spans = sc["det_tp"][c] + sc["det_fp"][c]
        if not n and not spans:
            continue
        t = per_time.get(c)
        print("| %s | %d | %s | %d | %d | %s | %s |" % (
            c, n, fmt(ratio(sc["whole"][c], n)), sc["part"][c], spans,
            fmt(ratio(sc["det_tp"][c], spans)), "%.0f" % (mb / t) if t else "-"))
    n = sum(sc["items"].values())
    w = sum(sc["whole"].values())
    tp = sum(sc["det_tp"].values())
    fp = sum(sc["det_fp"].values())
    total = (timing or {}).get("seconds")
    print("| **overall** | %d | **%s** | %d | %d | **%s** | **%s** |" % (
        n, fmt(ratio(w, n)), sum(sc["part"].values()), tp + fp, fmt(ratio(tp, tp + fp)),
        "%.1f" % (mb / total) if total else "-"))
    if sum(sc["unclaimed"].values()):
        print("\nForms not claimed (reported apart): " + ", ".join(
            "%s %d/%d whole" % (c, sc["unclaimed_whole"][c], sc["unclaimed"][c]) for c in sc["unclaimed"]))
    if sc["misaligned"]:
        print("\nOutputs that could not be aligned with their input (scored as no spans): %d" % sc["misaligned"])
    top = sc["forms_missed"].most_common(12)
    if top:
        print("\nMost missed forms: " + ", ".join("%s/%s %s %d" % (c, f, k, v) for (c, f, k), v in top))
    fps = sc["fp_kind"].most_common(12)
    if fps:
        print("\nFalse positives by look-alike: " + ", ".join("%s on %s %d" % (d, k, v) for (d, k), v in fps))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    corpus = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
    n_items = sum(len(d["items"]) for d in corpus)
    n_looks = sum(len(d["looks"]) for d in corpus)
    size = sum(len(d["text"].encode()) for d in corpus)
    print("Corpus: %d texts, %.2f MB, %d planted items, %d look-alikes (%.1f items per KB)" % (
        len(corpus), size / 1e6, n_items, n_looks, n_items / (size / 1024)))
    summary = []
    for arg in sys.argv[2:]:
        tool, rest = arg.split("=", 1)
        res_path, _, timing_path = rest.partition(":")
        results = [json.loads(l) for l in open(res_path, encoding="utf-8")]
        if len(results) != len(corpus):
            sys.exit("%s: %d results for %d texts" % (tool, len(results), len(corpus)))
        timing = json.load(open(timing_path)) if timing_path else None
        marks = (timing or {}).get("marks", {})
        sc = score(corpus, results, marks)
        report(tool, sc, timing)
        n = sum(sc["items"].values())
        tp = sum(sc["det_tp"].values())
        spans = tp + sum(sc["det_fp"].values())
        mbs = timing["bytes"] / 1e6 / timing["seconds"] if timing and timing.get("seconds") else float("nan")
        summary.append((tool, ratio(sum(sc["whole"].values()), n), ratio(sum(sc["part"].values()), n), ratio(tp, spans), mbs))
    print("\n### Overall\n")
    print("| tool | recall (whole) | partly | precision | MB/s |")
    print("|---|---|---|---|---|")
    for tool, rec, part, prec, mbs in summary:
        print("| %s | %s | %s | %s | %s |" % (tool, fmt(rec), fmt(part), fmt(prec), "-" if mbs != mbs else "%.1f" % mbs))


if __name__ == "__main__":
    main()
