#!/usr/bin/env python3
"""Recompute the numbers of index.md's "What changed" sentences from the database.

usage: check-whatchanged.py DB SENTENCES
Each line of SENTENCES is one sentence of the section.  From the raw event
tables (mm_vmscan_direct_reclaim_begin/_end paired per pid in time order,
mm_vmscan_lru_shrink_inactive, mm_vmscan_kswapd_wake), the run table and the
task table (which pids are kswapd), never from vmscan-report's derived
tables, each of these must be the sentence's:
- "Amean OP-DirectReclaim: K1 X us -> K2 Y us (gain G%; ...)": per run the
  complete direct stall durations in us, their nearest-rank percentile (rank
  ceil(p/100 * n); max), the mean over the kernel's runs, the gain
  100 - Y*100/X;
- "Per run (summary.txt): K1 a, b; K2 c, d": the per-run values of the
  counters "Direct reclaim stalls complete", "Direct reclaim stall time ms",
  "Pages scanned/reclaimed in direct reclaim" (pages of shrink_inactive by
  the stalled pid inside its stall), "Pages scanned/reclaimed by kswapd";
- "Where (...): K1 node 0: 8, ...; K2 none": complete direct stalls by the
  nodes of the shrink_inactive events inside them ("no node traced"
  without one), or pages scanned (reclaimed) by kswapd / outside it by the
  event's nid
  (every node with a kswapd_wake or shrink_inactive event listed);
- "When (reclaim_window): K1 in A of B windows (x-y s after a run's first
  event)": the windows recomputed (width: the largest 1, 2 or 5 x 10^k ns
  giving at least 20 windows, or the run's own when loaded with --window,
  read from reclaim_window.width_ns; windows [first + i*W, first + (i+1)*W)
  for i = 0 .. len // W) and those holding a stall (overlap) or such pages.
Kswapd wakes by node are counted from mm_vmscan_kswapd_wake; the per-run
values of the other kswapd counters (nap decisions) and kswapd's running
windows need the kswapd model: they are listed as not checked.
Other sentences (imported metrics, SlabShrink, ...) are listed as not
checked.  Exits 1 on a difference, and when no number was checked.
"""
import math
import re
import sqlite3
import sys

LINE = re.compile(r'^Amean (p(\d+)|max)-DirectReclaim: (\S+) ([0-9.]+) us -> (\S+) ([0-9.]+) us'
                  r' \(gain (-?[0-9.]+)%')
HEAD = re.compile(r'^(.*?): (\S+) [0-9.]+(?: \S+)? -> (\S+) ')
PER_RUN = re.compile(r'\. Per run \(summary\.txt\): (\S+) ([0-9., ]*?); (\S+) ([0-9., ]*?)\.'
                     r' (?:Where|$)')
WHERE = re.compile(r'\. Where \(([^)]*)\): (\S+) (.*?); (\S+) (.*?)\. When')
WHEN = re.compile(r'\. When \(reclaim_window\): (\S+) (in \d+ of \d+ windows(?: \([^)]*\))?);'
                  r' (\S+) (in \d+ of \d+ windows(?: \([^)]*\))?)\.$')


def runs(con, kernel):
    return [r for r in con.execute("SELECT id, first_ts_ns, last_ts_ns FROM run WHERE kernel = ?"
                                   " AND source_format <> 'latency' ORDER BY iteration", (kernel,))]


def kswapd_pids(con, run):
    return {p for (p,) in con.execute("SELECT pid FROM task WHERE run_id = ? AND comm LIKE"
                                      " 'kswapd%'", (run,))}


def stalls(con, run):
    """complete direct stalls (pid, begin, end) from the raw begin/end rows"""
    ev = [(t, 0, p) for t, p in con.execute(
        'SELECT ts_ns, pid FROM mm_vmscan_direct_reclaim_begin WHERE run_id = ?', (run,))]
    ev += [(t, 1, p) for t, p in con.execute(
        'SELECT ts_ns, pid FROM mm_vmscan_direct_reclaim_end WHERE run_id = ?', (run,))]
    open_, out = {}, []
    for t, end, p in sorted(ev):
        if not end:
            open_[p] = t
        elif p in open_:
            out.append((p, open_.pop(p), t))
    return out


def shrinks(con, run):
    return list(con.execute('SELECT ts_ns, pid, nid, nr_scanned, nr_reclaimed FROM'
                            ' mm_vmscan_lru_shrink_inactive WHERE run_id = ?', (run,)))


def in_stall(st, pid, ts):
    return any(p == pid and b <= ts <= e for p, b, e in st)


def per_run_value(con, name, run):
    st, sh, ks = stalls(con, run), shrinks(con, run), kswapd_pids(con, run)
    if name == 'Direct reclaim stalls complete':
        return len(st)
    if name == 'Direct reclaim stall time ms':
        return sum(e - b for _, b, e in st) / 1e6
    col = 3 if name.startswith('Pages scanned') else 4
    if name.endswith('in direct reclaim'):
        return sum(s[col] for s in sh if in_stall(st, s[1], s[0]))
    if name.endswith('by kswapd'):
        return sum(s[col] for s in sh if s[1] in ks)
    return None


def fmt_runs(name, vals):
    whole = not name.endswith(' ms') and not name.endswith('%')
    return ', '.join(('%.0f' if whole else '%.2f') % v for v in vals)


def where_value(con, what, kernel):
    counts, nodes = {}, set()
    for run, _, _ in runs(con, kernel):
        st, sh, ks = stalls(con, run), shrinks(con, run), kswapd_pids(con, run)
        nodes |= {n for (n,) in con.execute('SELECT nid FROM mm_vmscan_kswapd_wake WHERE'
                                            ' run_id = ?', (run,))}
        nodes |= {s[2] for s in sh}
        if what.startswith('kswapd wakes'):
            for (nid,) in con.execute('SELECT nid FROM mm_vmscan_kswapd_wake WHERE run_id = ?',
                                      (run,)):
                counts[nid] = counts.get(nid, 0) + 1
        elif what.startswith('complete direct reclaim stalls'):
            for p, b, e in st:
                ns = {s[2] for s in sh if s[1] == p and b <= s[0] <= e} or {None}
                for n in ns:
                    counts[n] = counts.get(n, 0) + 1
        else:
            kswapd, col = what.find('by kswapd') > 0, 4 if what.startswith('pages reclaimed') else 3
            for s in sh:
                if (s[1] in ks) == kswapd:
                    counts[s[2]] = counts.get(s[2], 0) + s[col]
    if what.startswith('pages'):
        for n in nodes:
            counts.setdefault(n, 0)
    if not counts:
        return 'none'
    keys = sorted((k for k in counts if k is not None)) + ([None] if None in counts else [])
    return ', '.join('no node traced: %d' % counts[k] if k is None else
                     'node %d: %d' % (k, counts[k]) for k in keys)


def width_of(con, run, length):
    w = con.execute('SELECT max(width_ns) FROM reclaim_window WHERE run_id = ?', (run,)).fetchone()[0]
    best, p = 1, 1
    while p <= length // 20:
        for m in (1, 2, 5):
            if p * m <= length // 20:
                best = p * m
        p *= 10
    return w if w else best


def when_value(con, what, kernel):
    total = active = 0
    lo = hi = None
    for run, first, last in runs(con, kernel):
        st, sh, ks = stalls(con, run), shrinks(con, run), kswapd_pids(con, run)
        length = last - first
        w = width_of(con, run, length)
        for i in range(length // w + 1):
            b, e = first + i * w, first + (i + 1) * w
            if what.startswith('complete direct reclaim stalls'):
                on = any(sb < e and se > b for _, sb, se in st)
            else:
                kswapd = what.find('by kswapd') > 0
                col = 4 if what.startswith('pages reclaimed') else 3
                on = any(b <= s[0] < e and s[col] > 0 and (s[1] in ks) == kswapd for s in sh)
            total += 1
            if on:
                active += 1
                lo = i * w if lo is None else min(lo, i * w)
                hi = (i + 1) * w if hi is None else max(hi, (i + 1) * w)
    out = 'in %d of %d windows' % (active, total)
    if active:
        out += " (%.2f-%.2f s after a run's first event)" % (lo / 1e9, hi / 1e9)
    return out


def per_run_latency(con, kernel, pct):
    out = []
    for run, _, _ in runs(con, kernel):
        d = sorted((e - b) / 1000.0 for _, b, e in stalls(con, run))
        if d:
            out.append(d[-1] if pct is None else d[max(1, math.ceil(pct / 100.0 * len(d))) - 1])
    return sum(out) / len(out)


SKIPPED = []


def check(con, line):
    """(number of checks, list of differences) of one sentence"""
    n, bad = 0, []
    m = LINE.match(line)
    if m:
        pct = None if m.group(1) == 'max' else int(m.group(2))
        a, b = per_run_latency(con, m.group(3), pct), per_run_latency(con, m.group(5), pct)
        want = ('%.2f' % a, '%.2f' % b, '%.2f' % (100 - b * 100 / a))
        n += 1
        if want != (m.group(4), m.group(6), m.group(7)):
            bad.append('latency: recomputed %s' % (want,))
    name = HEAD.match(line).group(1) if HEAD.match(line) else None
    m = PER_RUN.search(line)
    if m:
        for k, got in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
            vals = [per_run_value(con, name, r) for r, _, _ in runs(con, k)]
            if None in vals:
                SKIPPED.append('per run of %s (needs the kswapd model)' % name)
                continue
            n += 1
            if fmt_runs(name, vals) != got:
                bad.append('per run %s: recomputed %s' % (k, vals))
    m = WHERE.search(line)
    if m:
        for k, got in ((m.group(2), m.group(3)), (m.group(4), m.group(5))):
            want = where_value(con, m.group(1), k)
            n += 1
            if want != got:
                bad.append('where %s: recomputed %s' % (k, want))
        w = WHEN.search(line)
        if w and m.group(1).startswith('kswapd wakes'):
            SKIPPED.append('when of %s (kswapd running needs the kswapd model)' % name)
        elif w:
            for k, got in ((w.group(1), w.group(2)), (w.group(3), w.group(4))):
                want = when_value(con, m.group(1), k)
                n += 1
                if want != got:
                    bad.append('when %s: recomputed %s' % (k, want))
    return n, bad


def main(db, path):
    con = sqlite3.connect(db)
    nbad = total = 0
    for line in open(path):
        line = line.strip()
        n, bad = check(con, line)
        total += n
        for b in bad:
            print('%s: %s' % (line[:60], b))
        nbad += len(bad)
        if not n:
            SKIPPED.append('sentence (an imported or other latency metric): ' + line[:50])
    for sk in sorted(set(SKIPPED)):
        print('not checked:', sk)
    print(f'{total} numbers checked, {nbad} wrong')
    sys.exit(1 if nbad or not total else 0)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
