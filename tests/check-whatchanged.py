#!/usr/bin/env python3
"""Recompute the numbers of index.md's latency sentences from the database.

usage: check-whatchanged.py DB SENTENCES
Each line of SENTENCES is "Amean OP-DirectReclaim: K1 X us -> K2 Y us (gain
G%; ...)".  From reclaim_stall alone (kind direct, complete), per run the
durations in us, their nearest-rank percentile (rank ceil(p/100 * n); max),
the mean over the kernel's runs, and the gain 100 - Y*100/X, each printed
with two decimals, must be the sentence's.  Exits 1 on a difference.
"""
import math
import re
import sqlite3
import sys

LINE = re.compile(r'^Amean (p(\d+)|max)-DirectReclaim: (\S+) ([0-9.]+) us -> (\S+) ([0-9.]+) us'
                  r' \(gain (-?[0-9.]+)%')


def per_run(con, kernel, pct):
    out = []
    for (run,) in con.execute('SELECT id FROM run WHERE kernel = ? ORDER BY iteration', (kernel,)):
        d = sorted(r[0] / 1000.0 for r in con.execute(
            "SELECT duration_ns FROM reclaim_stall WHERE run_id = ? AND kind = 'direct'"
            ' AND complete = 1', (run,)))
        if not d:
            continue
        out.append(d[-1] if pct is None else d[max(1, math.ceil(pct / 100.0 * len(d))) - 1])
    return sum(out) / len(out)


def main(db, path):
    con = sqlite3.connect(db)
    bad = n = 0
    for line in open(path):
        m = LINE.match(line)
        if not m:
            print('not a DirectReclaim sentence:', line.strip())
            bad += 1
            continue
        n += 1
        pct = None if m.group(1) == 'max' else int(m.group(2))
        a, b = per_run(con, m.group(3), pct), per_run(con, m.group(5), pct)
        want = ('%.2f' % a, '%.2f' % b, '%.2f' % (100 - b * 100 / a))
        got = (m.group(4), m.group(6), m.group(7))
        if want != got:
            print(f'{line.strip()}: recomputed {want}')
            bad += 1
    print(f'{n} sentences, {bad} wrong')
    sys.exit(1 if bad or not n else 0)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
