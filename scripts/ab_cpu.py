#!/usr/bin/env python3
"""Interleaved A/B of full-level `filter` CPU time between tracegate
binaries (issue 36, fifth round).

usage: scripts/ab_cpu.py REPS CORPUS POLICY_DIR BIN [BIN ...]

Runs `BIN filter --policy POLICY_DIR --sink capture CORPUS` REPS times
per binary, interleaved, the order reversed every other repetition, and
prints each run's CPU time (user + sys of the child, from wait4) and wall
time, then per binary the median, min and max CPU time. The audit log of
the policy folder is removed before each run. CPU time is less swayed
than wall time by the other jobs of a shared machine, not immune to them
(caches, frequency): compare medians of the same session only.
"""
import os
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    reps, corpus, pol, bins = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    cpu = {b: [] for b in bins}
    wall = {b: [] for b in bins}
    for i in range(reps):
        for b in bins if i % 2 == 0 else list(reversed(bins)):
            for f in ("audit.jsonl", "audit.jsonl.checkpoint", "audit.jsonl.lock"):
                try:
                    os.remove(os.path.join(pol, f))
                except (FileNotFoundError, IsADirectoryError):
                    pass
            t = time.time()
            with open(os.devnull, "wb") as out:
                p = subprocess.Popen([b, "filter", "--policy", pol, "--sink", "capture", corpus],
                                     stdout=out, stderr=subprocess.DEVNULL)
                _, status, ru = os.wait4(p.pid, 0)
            w = time.time() - t
            c = ru.ru_utime + ru.ru_stime
            cpu[b].append(c)
            wall[b].append(w)
            print("%d %s cpu=%.3f wall=%.3f rc=%d" % (i, b, c, w, os.waitstatus_to_exitcode(status)), flush=True)
    for b in bins:
        print("%s median cpu %.3f (min %.3f max %.3f) median wall %.3f" % (
            b, statistics.median(cpu[b]), min(cpu[b]), max(cpu[b]), statistics.median(wall[b])))


if __name__ == "__main__":
    main()
