#!/usr/bin/env python3
"""Interleaved A/B timing of whole commands on a shared machine.

usage: scripts/ab_quiet.py REPS FILE LABEL=CMD [LABEL=CMD ...]

Each CMD (split like a shell would, `{f}` replaced by FILE) runs REPS
times, the commands interleaved and their order reversed every other
repetition. A run starts only after 0.3 s in which the rest of the machine
used under MAXOTHER (default 0.10) of a core, and is kept only if, while
it ran, the machine's busy time (/proc/stat) minus the command's own CPU
time stayed under MAXOTHER of a core; else it is run again (at most 30
times). Prints per label the median, min and max wall time, the median
CPU time, and the first label's median over this one (for serde first:
the `tg/serde` ratio of scripts/bench.sh). Exit status 0 and 1 of a
command count as success (`check` exits 1 on findings).

Why: on a 2-core machine another job's compile takes a core from a
2-worker `check` but not from the 1-thread serde parse, so unguarded
ratios swing by a third (issue 37).
"""
import os
import shlex
import statistics
import subprocess
import sys
import time

MAXOTHER = float(os.environ.get("MAXOTHER", "0.10"))
HZ = os.sysconf("SC_CLK_TCK")


def busy():
    with open("/proc/stat") as fh:
        v = [int(x) for x in fh.readline().split()[1:]]
    return sum(v) - v[3] - v[4]  # minus idle and iowait


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    reps, path = int(sys.argv[1]), sys.argv[2]
    cmds = [a.split("=", 1) for a in sys.argv[3:]]
    wall = {label: [] for label, _ in cmds}
    cpu = {label: [] for label, _ in cmds}
    with open(path, "rb") as fh:  # warm the page cache
        while fh.read(1 << 24):
            pass
    load0, retried = os.getloadavg()[0], 0
    for rep in range(reps):
        for label, cmd in cmds if rep % 2 == 0 else cmds[::-1]:
            for _ in range(30):
                while True:
                    b0 = busy()
                    time.sleep(0.3)
                    if (busy() - b0) / HZ < 0.3 * MAXOTHER:
                        break
                b0, t0 = busy(), time.perf_counter()
                p = subprocess.Popen(shlex.split(cmd.format(f=path)),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                _, status, ru = os.wait4(p.pid, 0)
                t, b1 = time.perf_counter() - t0, busy()
                rc = os.waitstatus_to_exitcode(status)
                if rc > 1:
                    sys.exit(f"{label} exited {rc}")
                own = ru.ru_utime + ru.ru_stime
                if (b1 - b0) / HZ - own < MAXOTHER * t:
                    break
                retried += 1
            wall[label].append(t)
            cpu[label].append(own)
    first = statistics.median(wall[cmds[0][0]])
    for label, _ in cmds:
        m = statistics.median(wall[label])
        print(f"{label:>10}: median {m * 1000:7.1f} ms (min {min(wall[label]) * 1000:7.1f}, "
              f"max {max(wall[label]) * 1000:7.1f}), cpu {statistics.median(cpu[label]) * 1000:7.1f} ms, "
              f"{cmds[0][0]}/{label} {first / m:.3f}, n={len(wall[label])}")
    print(f"load average {load0:.2f} before, {os.getloadavg()[0]:.2f} after; "
          f"runs retried for outside load: {retried}")


if __name__ == "__main__":
    main()
