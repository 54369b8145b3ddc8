#!/usr/bin/env python3
"""Independent check of the reclaim model against `trace-cmd report`.

For each trace.dat given: load it into a fresh database with vmscan-report,
read the same file with `trace-cmd report -R -t` (raw fields, ns timestamps)
and rebuild, with nothing but the text:
  1. direct reclaim stalls: begin/end pairs per pid (an end pairs with the
     pid's latest begin; an earlier unpaired begin stays unterminated), so
     the set of (pid, begin_ns, end_ns) pairs, the unterminated begins and
     the ends without a begin;
  2. kswapd_wake and kswapd_sleep counts per node;
  3. each mm_vmscan_wakeup_kswapd with the delay to the node's next
     kswapd_wake;
  4. the page totals `vmscan-report summary` prints: pages scanned
     (lru_isolate of the inactive lists) and reclaimed (lru_shrink_inactive),
     split file/anon, by kswapd (the pids of kswapd_wake/kswapd_sleep) and by
     everything else;
  5. shrinker calls: mm_shrink_slab_start/end paired per pid the same way
     as stalls, with the start's nr_objects_to_shrink and the end's retval;
and compare them with reclaim_stall, kswapd_cycle, kswapd_wakeup,
slab_shrink and run_quality.  When NAME.vmstat-before and NAME.vmstat-after sit next to
NAME.dat (samples/record-samples.sh writes them around the recording), the
kernel's own counters check the sleep decisions too: kswapd wakes against
the pageoutrun delta, nap_woken_early cycles against
kswapd_low_wmark_hit_quickly, nap_timed_out + no_nap against
kswapd_high_wmark_hit_quickly (mm/vmscan.c kswapd_try_to_sleep()), each
within one per node: the snapshots bracket the trace, so the decision of a
nap already running when tracing began (or still running when it stopped)
is counted by the kernel but has no cycle in the trace.
Exit 0 when everything matches, 1 otherwise (mismatches are printed), 2 on
usage errors.
"""
import collections
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

from tracecmd_text import raw_events

NID = re.compile(r'(?:^|\s)nid=(\d+)')


def report(path):
    """Yield (event, ts_ns, pid, body) in report order."""
    for ev, ts, _, pid, body in raw_events(path):
        yield ev, ts, pid, body


FIELD = re.compile(r'(\w+)=(\S+)')
SUMMARY = re.compile(r'^  (Direct reclaim|Kswapd) pages (scanned|reclaimed): +(\d+) '
                     r'\(file (\d+), anon (\d+)\)$')


def pages(path):
    """{(who, what): (total, file, anon)} from the trace text."""
    events = list(report(path))
    kswapd = {pid for ev, _, pid, _ in events
              if ev in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep')}
    out = collections.defaultdict(lambda: [0, 0, 0])
    for ev, _, pid, body in events:
        f = dict(FIELD.findall(body))
        who = 'Kswapd' if pid in kswapd else 'Direct reclaim'
        if ev == 'mm_vmscan_lru_isolate':
            lru = int(f['lru']) if 'lru' in f else 2 * int(f.get('file', 0))
            if lru not in (0, 2):
                continue
            n, is_file = int(f['nr_scanned']), lru == 2
            what = 'scanned'
        elif ev == 'mm_vmscan_lru_shrink_inactive':
            n, is_file = int(f['nr_reclaimed']), bool(int(f['reclaim_flags'], 0) & 2)
            what = 'reclaimed'
        else:
            continue
        t = out[(who, what)]
        t[0] += n
        t[1 if is_file else 2] += n
    return {k: tuple(v) for k, v in out.items() if v[0]}


def summary_pages(vr, db):
    proc = subprocess.run([vr, 'summary', '-d', db], capture_output=True, text=True, check=True)
    out = {}
    for line in proc.stdout.splitlines():
        m = SUMMARY.match(line)
        if m and int(m.group(3)):
            out[(m.group(1), m.group(2))] = tuple(int(m.group(i)) for i in (3, 4, 5))
    return out


def expected(path):
    open_begin = {}
    pairs, unterminated, no_begin = [], [], 0
    wakes, sleeps = collections.Counter(), collections.Counter()
    pending = collections.defaultdict(list)
    requests = []
    slab_open, slab_pairs, slab_unended, slab_no_start = {}, [], [], 0
    for ev, ts, pid, body in report(path):
        if ev == 'mm_shrink_slab_start':
            if pid in slab_open:
                slab_unended.append((pid, slab_open[pid][0]))
            slab_open[pid] = (ts, int(dict(FIELD.findall(body))['nr_objects_to_shrink']))
        elif ev == 'mm_shrink_slab_end':
            retval = int(dict(FIELD.findall(body))['retval'])
            if pid in slab_open:
                begin, objects = slab_open.pop(pid)
                slab_pairs.append((pid, begin, ts, ts - begin, objects, retval))
            else:
                slab_no_start += 1
        elif ev == 'mm_vmscan_direct_reclaim_begin':
            if pid in open_begin:
                unterminated.append((pid, open_begin[pid]))
            open_begin[pid] = ts
        elif ev == 'mm_vmscan_direct_reclaim_end':
            if pid in open_begin:
                pairs.append((pid, open_begin.pop(pid), ts))
            else:
                no_begin += 1
        elif ev in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep',
                    'mm_vmscan_wakeup_kswapd'):
            nid = int(NID.search(body).group(1))
            if ev == 'mm_vmscan_kswapd_sleep':
                sleeps[nid] += 1
            elif ev == 'mm_vmscan_kswapd_wake':
                wakes[nid] += 1
                for req in pending.pop(nid, []):
                    requests.append((req, nid, ts - req))
            else:
                pending[nid].append(ts)
    unterminated += [(pid, ts) for pid, ts in open_begin.items()]
    slab_unended += [(pid, v[0]) for pid, v in slab_open.items()]
    for nid, reqs in pending.items():
        requests += [(req, nid, None) for req in reqs]
    return {
        'pairs': sorted(pairs), 'unterminated': sorted(unterminated), 'no_begin': no_begin,
        'wakes': dict(wakes), 'sleeps': sum(sleeps.values()), 'requests': sorted(requests),
        'slab_pairs': sorted(slab_pairs), 'slab_unended': sorted(slab_unended),
        'slab_no_start': slab_no_start,
    }


def actual(db):
    c = sqlite3.connect(db)
    one = lambda sql: c.execute(sql).fetchone()[0]
    q = lambda sql: [tuple(r) for r in c.execute(sql)]
    direct = "FROM reclaim_stall WHERE kind = 'direct'"
    return {
        'pairs': sorted(q('SELECT pid, begin_ns, end_ns ' + direct +
                          ' AND begin_ns IS NOT NULL AND end_ns IS NOT NULL')),
        'unterminated': sorted(q('SELECT pid, begin_ns ' + direct +
                                 ' AND begin_ns IS NOT NULL AND end_ns IS NULL')),
        'no_begin': one('SELECT count(*) ' + direct + ' AND begin_ns IS NULL'),
        'wakes': dict(q('SELECT nid, count(wake_ns) FROM kswapd_cycle GROUP BY nid'
                        ' HAVING count(wake_ns) > 0')),
        'sleeps': one('SELECT count(sleep_ns) FROM kswapd_cycle') +
        (one("SELECT coalesce(sum(count), 0) FROM run_quality"
             " WHERE item = 'kswapd_sleep_without_wake'")),
        'requests': sorted(q('SELECT ts_ns, nid, delay_ns FROM kswapd_wakeup'),
                           key=lambda r: (r[0], r[1], -1 if r[2] is None else r[2])),
        'slab_pairs': sorted(q('SELECT pid, begin_ns, end_ns, duration_ns,'
                               ' nr_objects_to_shrink, retval FROM slab_shrink'
                               ' WHERE begin_ns IS NOT NULL AND end_ns IS NOT NULL')),
        'slab_unended': sorted(q('SELECT pid, begin_ns FROM slab_shrink'
                                 ' WHERE end_ns IS NULL AND complete = 0')),
        'slab_no_start': one('SELECT count(*) FROM slab_shrink'
                             ' WHERE begin_ns IS NULL AND complete = 0'),
    }


def vmstat_delta(path):
    """{counter: after - before} from NAME.vmstat-before/after, or None."""
    base = path[:-4] if path.endswith('.dat') else path
    try:
        snaps = []
        for suffix in ('.vmstat-before', '.vmstat-after'):
            with open(base + suffix) as f:
                snaps.append(dict((k, int(v)) for k, v in
                                  (line.split() for line in f if len(line.split()) == 2)))
    except (OSError, ValueError):
        return None
    return {k: snaps[1][k] - snaps[0].get(k, 0) for k in snaps[1]}


def check_vmstat(path, db):
    delta = vmstat_delta(path)
    if delta is None or 'pageoutrun' not in delta:
        return 0
    c = sqlite3.connect(db)
    one = lambda sql: c.execute(sql).fetchone()[0]
    got = {
        'pageoutrun': one('SELECT count(wake_ns) FROM kswapd_cycle'),
        'kswapd_low_wmark_hit_quickly':
            one("SELECT count(*) FROM kswapd_cycle WHERE decision = 'nap_woken_early'"),
        'kswapd_high_wmark_hit_quickly':
            one("SELECT count(*) FROM kswapd_cycle WHERE decision IN"
                " ('nap_timed_out', 'no_nap')"),
    }
    nodes = max(1, one('SELECT count(DISTINCT nid) FROM kswapd_cycle'))
    bad = 0
    for k, v in got.items():
        ok = abs(delta.get(k, 0) - v) <= nodes
        bad += not ok
        print('%s: /proc/vmstat %s delta %d, model %d: %s'
              % (path, k, delta.get(k, 0), v, 'ok' if ok else 'MISMATCH'))
    return bad


def check(vr, path):
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, 'm.db')
        subprocess.run([vr, 'load', '-q', '-d', db, path], check=True)
        want, got = expected(path), actual(db)
        want['pages'], got['pages'] = pages(path), summary_pages(vr, db)
        bad = check_vmstat(path, db)
    want['requests'].sort(key=lambda r: (r[0], r[1], -1 if r[2] is None else r[2]))
    for key in want:
        if want[key] != got[key]:
            bad += 1
            w, g = want[key], got[key]
            if isinstance(w, list):
                print('%s: %s: %d expected, %d in the database; first differences:'
                      % (path, key, len(w), len(g)))
                print('  only in trace-cmd:', sorted(set(w) - set(g))[:5])
                print('  only in database: ', sorted(set(g) - set(w))[:5])
            else:
                print('%s: %s: expected %s, database %s' % (path, key, w, g))
    durations = [e - b for _, b, e in want['pairs']]
    print('%s: %d stalls (%.3f ms total), %d kswapd wakes, %d sleeps, %d requests,'
          ' %d shrinker calls: %s'
          % (path, len(durations), sum(durations) / 1e6, sum(want['wakes'].values()),
             want['sleeps'], len(want['requests']), len(want['slab_pairs']),
             'ok' if not bad else 'MISMATCH'))
    return bad


def main(argv):
    if len(argv) < 3:
        print('usage: check-model.py VMSCAN_REPORT FILE.dat...', file=sys.stderr)
        return 2
    bad = sum(check(argv[1], p) for p in argv[2:])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
