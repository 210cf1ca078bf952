#!/usr/bin/env python3
"""Score Presidio's pattern recognizers on the detection-quality corpus.

usage: detect_presidio.py CORPUS.jsonl OUT.jsonl TIMING.json REPS

Runs the predefined recognizers that need no NLP model (regex patterns,
checksums, and python-phonenumbers for phones) for the entities that
match tracegate's detectors, each on its own text with no NLP artifacts
(so no context enhancement: that needs a spaCy model, which is not
downloaded). Every result with a score above 0 counts, as in
AnalyzerEngine's default threshold. Writes one `{"cspans": [[start, end,
detector], ...]}` line per text (code point offsets) and the timing as
JSON: each recognizer alone (median of REPS runs) and their sum, the
whole set's time (an analyzer runs them one after another).
"""
import json
import statistics
import sys
import time

import tldextract

# The email recognizer checks top-level domains with tldextract, which
# fetches the public suffix list on first use; use its bundled snapshot
# (the bench runs offline, and a fetch would be timed).
tldextract.tldextract.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=())

from presidio_analyzer.predefined_recognizers import (
    CreditCardRecognizer,
    EmailRecognizer,
    IbanRecognizer,
    IpRecognizer,
    PhoneRecognizer,
    UsSsnRecognizer,
)

# Presidio entity -> tracegate detector; IP_ADDRESS is split by its text.
RECOGNIZERS = [
    ("email", EmailRecognizer(), "EMAIL_ADDRESS"),
    ("credit_card", CreditCardRecognizer(), "CREDIT_CARD"),
    ("iban", IbanRecognizer(), "IBAN_CODE"),
    ("us_ssn", UsSsnRecognizer(), "US_SSN"),
    ("phone", PhoneRecognizer(), "PHONE_NUMBER"),
    ("ip", IpRecognizer(), "IP_ADDRESS"),
]


def run_one(rec, texts):
    """One recognizer over every text: its spans per text and its time."""
    name, recognizer, entity = rec
    spans = []
    t0 = time.thread_time()
    for text in texts:
        spans.append(recognizer.analyze(text, [entity], None) or [])
    secs = time.thread_time() - t0
    out = []
    for text, results in zip(texts, spans):
        row = []
        for res in results:
            if res.score and res.score > 0:
                det = name
                if name == "ip":
                    det = "ipv6" if ":" in text[res.start:res.end] else "ipv4"
                row.append([res.start, res.end, det])
        out.append(row)
    return out, secs


def main():
    corpus, out, timing, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    texts = [json.loads(l)["text"] for l in open(corpus, encoding="utf-8")]
    spans = [[] for _ in texts]
    per = {}
    # The recognizers run one after another on each text in an analyzer,
    # so the whole set's time is the sum of theirs.
    for rec in RECOGNIZERS:
        times = []
        for i in range(max(1, reps)):
            found, secs = run_one(rec, texts)
            times.append(secs)
            if i == 0:
                for row, f in zip(spans, found):
                    row.extend(f)
        for det in (["ipv4", "ipv6"] if rec[0] == "ip" else [rec[0]]):
            per[det] = statistics.median(times)
    whole = sum(per[r[0]] if r[0] != "ip" else per["ipv4"] for r in RECOGNIZERS)
    with open(out, "w", encoding="utf-8") as f:
        for row in spans:
            f.write(json.dumps({"cspans": row}) + "\n")
    json.dump({"bytes": sum(len(t.encode()) for t in texts), "seconds": whole, "per_detector": per}, open(timing, "w"))


if __name__ == "__main__":
    main()
