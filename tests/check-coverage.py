#!/usr/bin/env python3
"""Independent check of the coverage table (counter_coverage) against the
counter snapshots and `trace-cmd report`.

For each trace.dat given, with its snapshot directory TRACE.snap/:
  1. the /proc/vmstat deltas: end-vmstat minus start-vmstat, counter by
     counter (allocstall: the sum of the allocstall_* counters);
  2. the trace's own counts between the two "vmscan-report: snapshot"
     markers (print events; the whole trace where one is missing), read
     with nothing but `trace-cmd report -R -t` text:
     - pgscan_{kswapd,direct}: nr_scanned of mm_vmscan_lru_isolate on the
       inactive lists (lru 0 and 2); pgrefill: on the active lists (1, 3);
       pgsteal_{kswapd,direct}: nr_reclaimed of mm_vmscan_lru_shrink_inactive;
       kswapd's are those of the pids that emitted kswapd_wake or
       kswapd_sleep; cgroup reclaim (inside a memcg or soft-limit
       reclaim begin/end of the same pid) is left out of these, as
       cgroup_reclaim() leaves it out in mm/vmscan.c;
     - pgscan_anon/_file, pgsteal_anon/_file: the same pages by list type
       (lru 0/2; RECLAIM_WB_FILE 0x2 of reclaim_flags), every task;
     - allocstall: mm_vmscan_direct_reclaim_begin lines; pageoutrun:
       mm_vmscan_kswapd_wake lines;
     - nr_vmscan_write: mm_vmscan_write_folio / writepage lines; pswpout:
       those without RECLAIM_WB_FILE;
  3. vmscan-report's table (a fresh database): every counter both have must
     agree on vmstat_delta and trace_value (the kswapd wmark counters are
     compared on vmstat_delta only: the trace side is the model's cycle
     decisions, checked by check-model.py); a difference must have the
     verdict "explained" with its explanation, or be reported as
     unexplained here.
With --one-db, the traces are loaded into one database, one `load` per
file in the order given, and each run's table is checked: a run's table is
made at its load's commit, with the runs before it in the database, and
must count the run's own events only.
Prints one line per file and exits 1 on any disagreement.
"""
import collections
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

from tracecmd_text import raw_events

FIELD = re.compile(r'(\w+)=(\S+)')
MARK = re.compile(r'vmscan-report: snapshot (start|end)\s*$')
CGROUP_STALLS = {'mm_vmscan_memcg_reclaim_begin': False, 'mm_vmscan_memcg_reclaim_end': True,
                 'mm_vmscan_memcg_softlimit_reclaim_begin': False,
                 'mm_vmscan_memcg_softlimit_reclaim_end': True}
FAR = 4 * 10**18


def vmstat(path):
    out = {}
    with open(path) as f:
        for line in f:
            name, value = line.split()
            out[name] = int(value)
    return out


def deltas(snap):
    a, b = vmstat(os.path.join(snap, 'start-vmstat')), vmstat(os.path.join(snap, 'end-vmstat'))
    d = {k: b[k] - a[k] for k in a if k in b}
    stalls = [k for k in d if k.startswith('allocstall')]
    if stalls:
        d['allocstall'] = sum(d[k] for k in stalls)
    return d


def trace_counts(path):
    events = list(raw_events(path))
    t0, t1 = -FAR, FAR
    for ev, ts, _, _, body in events:
        m = MARK.search(body) if ev == 'print' else None
        if m and m.group(1) == 'start':
            t0 = ts
        elif m:
            t1 = ts
    kswapd = {pid for ev, _, _, pid, _ in events
              if ev in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep')}
    # cgroup reclaim intervals per pid: (begin, end), an open end to FAR
    intervals, open_at = collections.defaultdict(list), {}
    for ev, ts, _, pid, _ in events:
        if ev not in CGROUP_STALLS:
            continue
        if not CGROUP_STALLS[ev]:
            open_at[pid] = ts
        else:
            intervals[pid].append((open_at.pop(pid, -FAR), ts))
    for pid, begin in open_at.items():
        intervals[pid].append((begin, FAR))

    def cgroup(pid, ts):
        return any(b <= ts <= e for b, e in intervals.get(pid, ()))

    c = collections.Counter()
    for ev, ts, _, pid, body in events:
        if not t0 <= ts <= t1:
            continue
        f = dict(FIELD.findall(body))
        who = 'kswapd' if pid in kswapd else 'direct'
        if ev == 'mm_vmscan_lru_isolate':
            lru, n = int(f['lru']), int(f['nr_scanned'])
            if lru in (0, 2):
                c['pgscan_file' if lru == 2 else 'pgscan_anon'] += n
                if not cgroup(pid, ts):
                    c['pgscan_' + who] += n
            elif lru in (1, 3) and not cgroup(pid, ts):
                c['pgrefill'] += n
        elif ev == 'mm_vmscan_lru_shrink_inactive':
            n = int(f['nr_reclaimed'])
            c['pgsteal_file' if int(f['reclaim_flags'], 0) & 2 else 'pgsteal_anon'] += n
            if not cgroup(pid, ts):
                c['pgsteal_' + who] += n
        elif ev == 'mm_vmscan_direct_reclaim_begin':
            c['allocstall'] += 1
        elif ev == 'mm_vmscan_kswapd_wake':
            c['pageoutrun'] += 1
        elif ev in ('mm_vmscan_write_folio', 'mm_vmscan_writepage'):
            c['nr_vmscan_write'] += 1
            if not int(f.get('reclaim_flags', f.get('flags', '0')), 0) & 2:
                c['pswpout'] += 1
    return c


def load(vr, db, path):
    """Load @path into @db (one `load`); the id of the run it made."""
    subprocess.run([vr, 'load', '-q', '-d', db, path], check=True,
                   stderr=subprocess.DEVNULL)
    con = sqlite3.connect(db)
    run_id = con.execute('SELECT max(id) FROM run').fetchone()[0]
    con.close()
    return run_id


def table(db, run_id):
    con = sqlite3.connect(db)
    rows = con.execute('SELECT counter, vmstat_delta, trace_value, difference, verdict,'
                       ' explanation FROM counter_coverage WHERE run_id = ? ORDER BY position',
                       (run_id,)).fetchall()
    con.close()
    return rows


def check(path, rows):
    d, t, bad = deltas(path + '.snap'), trace_counts(path), 0
    verdicts = collections.Counter()
    for counter, delta, trace, diff, verdict, why in rows:
        verdicts[verdict] += 1
        if d.get(counter) != delta:
            print(f'  {counter}: vmstat delta {delta}, the snapshots say {d.get(counter)}')
            bad += 1
        if trace is not None and 'wmark' not in counter and t[counter] != trace:
            print(f'  {counter}: trace {trace}, trace-cmd report says {t[counter]}')
            bad += 1
        if trace is not None and diff != 0 and (verdict != 'explained' or not why):
            print(f'  {counter}: vmstat - trace = {diff}: {verdict} {why or ""}')
            bad += 1
    print(f'{os.path.basename(path)}: ' +
          ', '.join(f'{n} {v}' for v, n in sorted(verdicts.items())) +
          (f', {bad} MISMATCH' if bad else ''))
    return bad


def main(argv):
    one_db = len(argv) > 1 and argv[1] == '--one-db'
    argv = argv[:1] + argv[2:] if one_db else argv
    if len(argv) < 3:
        sys.exit('usage: check-coverage.py [--one-db] VMSCAN-REPORT TRACE.dat...')
    vr, paths, bad = argv[1], argv[2:], 0
    with tempfile.TemporaryDirectory() as tmp:
        if one_db:
            db = os.path.join(tmp, 'c.db')
            runs = [load(vr, db, p) for p in paths]
            bad = sum(check(p, table(db, r)) for p, r in zip(paths, runs))
        for i, p in enumerate(paths if not one_db else ()):
            db = os.path.join(tmp, f'c{i}.db')
            bad += check(p, table(db, load(vr, db, p)))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main(sys.argv)
