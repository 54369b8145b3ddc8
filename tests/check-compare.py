#!/usr/bin/env python3
"""Check `vmscan-report compare --format csv` against the database queried
directly, with this file's own SQL, percentile rule and statistics (python3
statistics module) -- nothing from vmscan-report but the derived tables.

usage: check-compare.py DB CSV [LATENCY_FILE=KERNEL ...]
Latency files are parsed here too (simoop report lines) and compared with
the app_latency rows and the p50/p95/p99-X rows of the table.
Prints one line per check group; exits 1 on the first mismatch.
"""
import csv, math, re, sqlite3, statistics, sys

METRICS = {  # name -> SQL of the samples (us) of run ?
    'DirectReclaim': "SELECT duration_ns/1000.0 FROM reclaim_stall WHERE run_id=? AND kind='direct' AND complete=1 AND duration_ns IS NOT NULL",
    'MemcgReclaim': "SELECT duration_ns/1000.0 FROM reclaim_stall WHERE run_id=? AND kind IN ('memcg','memcg_softlimit') AND complete=1 AND duration_ns IS NOT NULL",
    'NodeReclaim': "SELECT duration_ns/1000.0 FROM reclaim_stall WHERE run_id=? AND kind='node' AND complete=1 AND duration_ns IS NOT NULL",
    'KswapdAwake': "SELECT (sleep_ns-wake_ns)/1000.0 FROM kswapd_cycle WHERE run_id=? AND decision='full_sleep' AND wake_ns IS NOT NULL AND sleep_ns IS NOT NULL",
    'KswapdWakeupDelay': "SELECT delay_ns/1000.0 FROM kswapd_wakeup WHERE run_id=? AND delay_ns IS NOT NULL",
    'Throttle': "SELECT usec_delayed FROM reclaim_throttle WHERE run_id=? AND kind='throttled' AND usec_delayed IS NOT NULL",
    'CongestionWait': "SELECT usec_delayed FROM reclaim_throttle WHERE run_id=? AND kind IN ('congestion_wait','wait_iff_congested') AND usec_delayed IS NOT NULL",
    'SlabShrink': "SELECT duration_ns/1000.0 FROM slab_shrink WHERE run_id=? AND complete=1 AND duration_ns IS NOT NULL",
}
PCT = {'p50': 50, 'p95': 95, 'p99': 99, 'max': 100}
# the events whose presence in a recording says the metric was recorded:
# without a sample in any run, all recorded is "zero" (printed 0), else
# "not recorded" (empty)
EVENTS = {
    'DirectReclaim': ['mm_vmscan_direct_reclaim_begin'],
    'MemcgReclaim': ['mm_vmscan_memcg_reclaim_begin', 'mm_vmscan_memcg_softlimit_reclaim_begin'],
    'NodeReclaim': ['mm_vmscan_node_reclaim_begin'],
    'KswapdAwake': ['mm_vmscan_kswapd_sleep'],
    'KswapdWakeupDelay': ['mm_vmscan_wakeup_kswapd'],
    'Throttle': ['mm_vmscan_throttled'],
    'CongestionWait': ['writeback_congestion_wait', 'writeback_wait_iff_congested'],
    'SlabShrink': ['mm_shrink_slab_end'],
}


def nearest_rank(sorted_v, p):
    return sorted_v[max(1, math.ceil(p * len(sorted_v) / 100)) - 1]


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def fail(msg):
    print('MISMATCH:', msg)
    sys.exit(1)


def main():
    db = sqlite3.connect(sys.argv[1])
    rows = list(csv.DictReader(open(sys.argv[2])))
    runs = {}
    for rid, kernel in db.execute('SELECT id, kernel FROM run ORDER BY iteration'):
        runs.setdefault(kernel, []).append(rid)
    got = {(r['table'], r['stat'], r['operation'], r['kernel']): r['value'] for r in rows}
    data = {(r['table'], r['stat'], r['operation'], r['kernel']): r['data'] for r in rows}
    unit = {r['operation']: r['unit'] for r in rows if r['table'] == 'latency'}

    # latency metrics: per-run nearest-rank summary, then Amean/Min/Max over runs
    checked = zeros = 0
    for name, sql in METRICS.items():
        per = {k: {s: [] for s in PCT} for k in runs}
        recorded = {}
        for k, ids in runs.items():
            recorded[k] = bool(ids)
            for rid in ids:
                v = sorted(x for (x,) in db.execute(sql, (rid,)))
                for s, p in PCT.items():
                    if v:
                        per[k][s].append(nearest_rank(v, p))
                marks = ','.join('?' * len(EVENTS[name]))
                recorded[k] &= db.execute('SELECT count(*) FROM run_event_count WHERE run_id=?'
                                          ' AND name IN (%s)' % marks,
                                          [rid] + EVENTS[name]).fetchone()[0] > 0
        if not any(per[k]['max'] for k in runs):
            if any(op.endswith('-' + name) for (_, _, op, _) in got):
                fail('%s has no samples but is in the table' % name)
            continue
        for k in runs:
            for s in PCT:
                vals = per[k][s]
                for stat, f in (('Amean', statistics.mean), ('Min', min), ('Max', max)):
                    cell = got.get(('latency', stat, '%s-%s' % (s, name), k))
                    if cell is None:
                        fail('no row %s %s-%s for %s' % (stat, s, name, k))
                    key = ('latency', stat, '%s-%s' % (s, name), k)
                    if unit[key[2]] != 'us':
                        fail('%s: unit %r, want us' % (key[2], unit[key[2]]))
                    if not vals:
                        want, wdata = ('0', 'zero') if recorded[k] else ('', 'not recorded')
                        if float(cell or 'nan') != float(want or 'nan') and cell != want:
                            fail('%s %s-%s %s: want %r, got %r' % (stat, s, name, k, want, cell))
                        if data[key] != wdata:
                            fail('%s %s-%s %s: data %r, want %r' % (stat, s, name, k, data[key], wdata))
                        zeros += want == '0'
                        checked += 1
                        continue
                    if data[key] != 'values':
                        fail('%s %s-%s %s: data %r, want values' % (stat, s, name, k, data[key]))
                    if not close(float(cell), f(vals)):
                        fail('%s %s-%s %s: want %r, got %s' % (stat, s, name, k, f(vals), cell))
                    checked += 1
    print('latency metrics: %d cells match (zero: %d)' % (checked, zeros))

    # counters read straight from the tables; direct reclaim's pages are the
    # shrink_inactive calls of a pid inside one of its direct stalls
    INSIDE_DIRECT = (" FROM mm_vmscan_lru_shrink_inactive s WHERE s.run_id=? AND EXISTS"
                     " (SELECT 1 FROM reclaim_stall r WHERE r.run_id=s.run_id AND r.pid=s.pid"
                     " AND r.kind='direct' AND s.ts_ns BETWEEN coalesce(r.begin_ns, 0)"
                     " AND coalesce(r.end_ns, 9223372036854775807))")
    counters = {
        'Direct reclaim stalls complete': "SELECT count(*) FROM reclaim_stall WHERE run_id=? AND kind='direct' AND complete=1",
        'Direct reclaim stalls incomplete': "SELECT count(*) FROM reclaim_stall WHERE run_id=? AND kind='direct' AND complete=0",
        'Direct reclaim stall time ms': "SELECT coalesce(sum(duration_ns), 0) / 1e6 FROM reclaim_stall WHERE run_id=? AND kind='direct' AND complete=1",
        'Kswapd wakes': "SELECT count(*) FROM mm_vmscan_kswapd_wake WHERE run_id=?",
        'Kswapd full sleeps': "SELECT count(*) FROM kswapd_cycle WHERE run_id=? AND decision='full_sleep'",
        'Folios written by kswapd': "SELECT count(*) FROM reclaim_write WHERE run_id=? AND by_kswapd=1",
        'Pages scanned in direct reclaim': "SELECT coalesce(sum(nr_scanned), 0)" + INSIDE_DIRECT,
        'Pages reclaimed in direct reclaim': "SELECT coalesce(sum(nr_reclaimed), 0)" + INSIDE_DIRECT,
    }
    trace_runs = {k: [r for r in ids if db.execute(
        "SELECT source_format <> 'latency' FROM run WHERE id=?", (r,)).fetchone()[0]]
        for k, ids in runs.items()}
    checked = 0
    for label, sql in counters.items():
        for k, ids in trace_runs.items():
            if not ids:
                continue
            want = statistics.mean(db.execute(sql, (r,)).fetchone()[0] for r in ids)
            cell = got.get(('counters', '', label, k))
            if cell is None or not close(float(cell), want):
                fail('counter %s %s: want %r, got %s' % (label, k, want, cell))
            checked += 1
    print('counters: %d cells match' % checked)

    # application latencies parsed here from the report files
    checked = 0
    app = {}
    usec = {}
    for arg in sys.argv[3:]:
        path, kernel = arg.rsplit('=', 1)
        final = False
        for line in open(path):
            if line.strip() == 'Final stats:':
                final = True
            m = re.match(r'^(\w+) latency(?: usec)?:? (\(.*\))\s*$', line)
            if not m or final:
                continue
            for key, num in re.findall(r'\((\w+): ([\d,]+)\)', m.group(2)):
                app.setdefault((kernel, '%s-%s' % (key, m.group(1))), []).append(
                    float(num.replace(',', '')))
                usec[(kernel, '%s-%s' % (key, m.group(1)))] = usec.get(
                    (kernel, '%s-%s' % (key, m.group(1))), True) and ' usec' in line
    for (kernel, op), vals in app.items():
        cell = got.get(('latency', 'Amean', op, kernel))
        if cell is None or not close(float(cell), statistics.mean(vals)):
            fail('app %s %s: want %r, got %s' % (op, kernel, statistics.mean(vals), cell))
        want_unit = 'us' if all(u for (k, o), u in usec.items() if o == op) else ''
        if unit[op] != want_unit:
            fail('app %s: unit %r, want %r' % (op, unit[op], want_unit))
        # mmtests (Summarise.pm runStatFunc): the best max(1, floor(n*95/100))
        # values, lower is better so ascending; Pctile the last of them
        best = sorted(vals)[:max(1, math.floor(len(vals) * 95 / 100))]
        for stat, want in (('Pctile-95', best[-1]), ('BAmean-95', statistics.mean(best))):
            cell = got.get(('latency', stat, op, kernel))
            if cell is not None and not close(float(cell), want):
                fail('app %s %s %s: want %r, got %s' % (stat, op, kernel, want, cell))
            checked += cell is not None
        checked += 1
    print('application latencies: %d cells match' % checked)


main()
