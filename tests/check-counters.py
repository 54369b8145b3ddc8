#!/usr/bin/env python3
# check-counters.py DB SUMMARY COMPARE CHARTDUMP: the same counter, computed
# here from the raw and derived tables, is the number `summary` (per run),
# `compare` (text, mean over a kernel's trace runs) and `chart -k counters
# --dump-data` (the same mean) print under the same name.  Own queries and
# own loops, not the program's SQL.
import re
import sqlite3
import statistics
import sys

db = sqlite3.connect(sys.argv[1])
summary, compare, dump = (open(f).read() for f in sys.argv[2:5])
errors = 0


def fail(msg):
    global errors
    errors += 1
    print('FAIL: ' + msg)


def one(sql, run):
    return db.execute(sql, (run,)).fetchone()[0]


def rows_of(table, run):
    if not has_table(table):
        return 0
    return one("SELECT count(*) FROM %s WHERE run_id=?" % table, run)


def lru_not_traced(run):
    # reclaim (kswapd wakes, direct reclaims) without a single LRU event, on
    # a release that may be 6.1-6.6's multi-gen LRU (unknown, or 6.1-6.6):
    # its pages are not in the trace, '-' (README "Not recorded")
    if rows_of('mm_vmscan_lru_isolate', run) or rows_of('mm_vmscan_lru_shrink_inactive', run):
        return False
    if not (rows_of('mm_vmscan_kswapd_wake', run) or
            rows_of('mm_vmscan_direct_reclaim_begin', run)):
        return False
    rel = one("SELECT kernel_release FROM run WHERE id=?", run)
    m = re.match(r'(\d+)\.(\d+)', rel or '')
    return not m or (6, 1) <= (int(m.group(1)), int(m.group(2))) < (6, 7)


def inside(run, kind, col):
    # shrink_inactive of a pid between the begin and end of one of its stalls
    if lru_not_traced(run):
        return None
    rows = db.execute("SELECT pid, coalesce(begin_ns, 0), coalesce(end_ns, 1 << 62) FROM"
                      " reclaim_stall WHERE run_id=? AND kind=?", (run, kind)).fetchall()
    total = 0
    for pid, ts, v in db.execute("SELECT pid, ts_ns, %s FROM mm_vmscan_lru_shrink_inactive"
                                 " WHERE run_id=?" % col, (run,)):
        if any(p == pid and b <= ts <= e for p, b, e in rows):
            total += v
    return total


def span(run):
    # the time kswapd's state is known: per node the trace length less its
    # time before its first kswapd_wake (a cycle without a wake: from the
    # trace start to its full sleep, else its next wake, else the trace end)
    first, last = db.execute("SELECT first_ts_ns, last_ts_ns FROM run WHERE id=?",
                             (run,)).fetchone()
    total = 0
    for (nid,) in db.execute("SELECT DISTINCT nid FROM kswapd_cycle WHERE run_id=?", (run,)):
        total += last - first
        for s, d, n in db.execute("SELECT sleep_ns, decision, next_wake_ns FROM kswapd_cycle"
                                  " WHERE run_id=? AND nid=? AND wake_ns IS NULL", (run, nid)):
            if d == 'full_sleep' and s is not None:
                known = s
            else:
                known = n if n is not None else last
            total -= known - first
    return first, last, total


def running(run):
    first, last, total = span(run)
    # a cycle without a sleep or a last activity (the trace ended) adds nothing
    ns = sum((s if s is not None else a) - w for w, a, s in db.execute(
        "SELECT wake_ns, last_activity_ns, sleep_ns FROM kswapd_cycle WHERE run_id=?"
        " AND wake_ns IS NOT NULL", (run,)) if (s, a) != (None, None))
    return 100.0 * ns / total if total else None


def awake_to_full_sleep(run):
    # per node, walk the cycles that have a wake: awake from the first wake
    # after a full sleep to the next full sleep, or to the trace end
    first, last, total = span(run)
    if not total:
        return None
    ns = 0
    for (nid,) in db.execute("SELECT DISTINCT nid FROM kswapd_cycle WHERE run_id=?", (run,)):
        since = None
        for w, s, d in db.execute("SELECT wake_ns, sleep_ns, decision FROM kswapd_cycle"
                                  " WHERE run_id=? AND nid=? AND wake_ns IS NOT NULL"
                                  " ORDER BY wake_ns", (run, nid)):
            if since is None:
                since = w
            if d == 'full_sleep' and s is not None:
                ns += s - since
                since = None
        if since is not None:
            ns += last - since
    return 100.0 * ns / total


def has_table(name):
    return db.execute("SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?",
                      (name,)).fetchone()[0] > 0


def kswapd_pids(run):
    # kswapd threads are named kswapdN (mm/vmscan.c kswapd_run())
    return {pid for pid, comm in db.execute("SELECT pid, comm FROM task WHERE run_id=?", (run,))
            if comm and comm.startswith('kswapd')}


# mm_vmscan_throttled's raw reason bits (include/trace/events/vmscan.h)
REASON_BITS = {'WRITEBACK': 1, 'ISOLATED': 2, 'NOPROGRESS': 4, 'CONGESTED': 8}


def throttled(run, reason, of_kswapd, ms):
    # mm_vmscan_throttled rows of one reason (its bit alone), of kswapd or
    # not: their number, or their usec_delayed summed in ms
    if not has_table('mm_vmscan_throttled'):
        return 0
    ks = kswapd_pids(run)
    n = us = 0
    for pid, bits, delayed in db.execute("SELECT pid, reason, usec_delayed FROM"
                                         " mm_vmscan_throttled WHERE run_id=?", (run,)):
        if bits == REASON_BITS[reason] and (pid in ks) == of_kswapd:
            n += 1
            us += delayed or 0
    return us / 1000.0 if ms else n


def written(run, bit):
    # writepage / write_folio rows whose reclaim_flags has @bit
    # (RECLAIM_WB_ANON 0x1, RECLAIM_WB_FILE 0x2)
    n = 0
    for t in ('mm_vmscan_writepage', 'mm_vmscan_write_folio'):
        if has_table(t):
            n += sum(1 for (f,) in db.execute("SELECT reclaim_flags FROM %s WHERE run_id=?" % t,
                                               (run,)) if f is not None and f & bit)
    return n


counters = {
    'Direct reclaim stalls complete': lambda r: one(
        "SELECT count(*) FROM reclaim_stall WHERE run_id=? AND kind='direct' AND complete", r),
    'Direct reclaim stall time ms': lambda r: one(
        "SELECT coalesce(sum(duration_ns), 0) / 1e6 FROM reclaim_stall WHERE run_id=?"
        " AND kind='direct' AND complete", r),
    'Kswapd wakes': lambda r: one("SELECT count(*) FROM mm_vmscan_kswapd_wake WHERE run_id=?", r),
    'Kswapd running %': running,
    'Kswapd awake to full sleep %': awake_to_full_sleep,
    'Pages scanned in direct reclaim': lambda r: inside(r, 'direct', 'nr_scanned'),
    'Pages reclaimed in direct reclaim': lambda r: inside(r, 'direct', 'nr_reclaimed'),
    'Pages scanned in memcg reclaim': lambda r: inside(r, 'memcg', 'nr_scanned'),
    'Folios written by reclaim outside kswapd': lambda r: one(
        "SELECT count(*) FROM reclaim_write WHERE run_id=? AND NOT by_kswapd", r),
    'Anon folios written by reclaim': lambda r: written(r, 1),
    'File folios written by reclaim': lambda r: written(r, 2),
}
for reason in REASON_BITS:
    counters['Kswapd throttled ' + reason] = (
        lambda r, x=reason: throttled(r, x, True, False))
    counters['Kswapd throttled %s time ms' % reason] = (
        lambda r, x=reason: throttled(r, x, True, True))
    counters['Throttled %s outside kswapd' % reason] = (
        lambda r, x=reason: throttled(r, x, False, False))
    counters['Throttled %s outside kswapd time ms' % reason] = (
        lambda r, x=reason: throttled(r, x, False, True))
# rows summary leaves out when 0, and compare and the chart when 0 for
# every kernel
optional = {n for n in counters if n.startswith(('Pages scanned in memcg', 'Anon folios',
                                                 'File folios', 'Kswapd throttled',
                                                 'Throttled '))}

runs = {}
for rid, kernel in db.execute("SELECT id, kernel FROM run WHERE source_format <> 'latency'"
                              " ORDER BY id"):
    runs.setdefault(kernel, []).append(rid)
blocks = {int(m.group(1)): m.group(2) for m in re.finditer(
    r'^run (\d+): .*?\n\n(  Counters.*?)\n\n', summary, re.M | re.S)}
checked = 0
for name, f in counters.items():
    unit = name.rsplit(' ', 1)[1] if name.endswith((' ms', ' %')) else None
    short = name[:-len(unit) - 1] if unit else name
    means = {}
    for kernel, ids in runs.items():
        vals = [f(r) for r in ids]
        for r, v in zip(ids, vals):
            m = re.search('^  %s +(\\S+)$' % re.escape(name), blocks.get(r, ''), re.M)
            want = None if v is None else ('%.2f' % v if unit else '%d' % v)
            if v == 0 and name in optional:
                want = None  # an optional row left out at 0
            got = m.group(1) if m else None
            if got != want and not (want is None and got == '-'):
                fail('summary run %d %s: want %s, got %s' % (r, name, want, got))
            checked += 1
        vals = [v for v in vals if v is not None]
        means[kernel] = statistics.mean(vals) if vals else None
    # the name, then only numbers ('-': none), so that a name is not taken
    # for the start of a longer one ("... WRITEBACK" of "... WRITEBACK time ms")
    row = re.search(r'^%s(?:\[\d+\])?((?: +(?:-|[\d.]+))+) *$' % re.escape(name), compare,
                    re.M)
    if name in optional and all(v in (0, None) for v in means.values()):
        # left out of compare and the chart
        if row or re.search(r'^counter %s \[' % re.escape(short), dump, re.M):
            fail('%s: 0 for every kernel, yet compare or the chart prints it' % name)
        checked += 2
        continue
    for kernel, mean in means.items():
        col = list(runs).index(kernel)
        cells = row.group(1).split() if row else []
        got = cells[col] if col < len(cells) else None
        want = '-' if mean is None else '%.2f' % mean
        if got != want:
            fail('compare %s %s: want %s, got %s' % (name, kernel, want, got))
        m = re.search(r'^counter %s \[[\w%%]+\] %s mean (\S+)$' % (re.escape(short),
                      re.escape(kernel)), dump, re.M)
        got = float(m.group(1)) if m else None
        if mean is None:
            ok = got is None or got != got
        else:
            ok = got is not None and abs(got - mean) <= 1e-5 * max(1, abs(mean))
        if not ok:
            fail('chart %s %s: want %s, got %s' % (name, kernel, mean, got))
        checked += 2
# summary's per-node table: a run of one kswapd node prints the same
# awake-to-full-sleep % as its counter
for r in [i for ids in runs.values() for i in ids]:
    part = re.search(r'^run %d: .*?(?=^run \d+: |\Z)' % r, summary, re.M | re.S)
    nodes = re.findall(r'^  \d+ +\d+ +(?:\d+ +){8}[\d.]+ +([\d.]+)%$',
                       part.group(0) if part else '', re.M)
    if len(nodes) != 1:
        continue
    v = awake_to_full_sleep(r)
    if nodes[0] != '%.2f' % v:
        fail('summary run %d node Awake to full sleep %%: want %.2f, got %s' % (r, v, nodes[0]))
    checked += 1
print('counters: %d values agree in summary, compare and the chart' % checked)
sys.exit(1 if errors else 0)
