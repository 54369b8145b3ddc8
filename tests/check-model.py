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
  6. memcg, soft-limit and node reclaim stalls, paired like direct ones;
  7. pages written by reclaim: every mm_vmscan_write_folio / writepage line
     (time, pid, pfn, file from RECLAIM_WB_FILE 0x2 of reclaim_flags);
  8. throttling: every mm_vmscan_throttled line (pid, nid, reason, time,
     usec_timeout, usec_delayed) and the writeback congestion waits;
  9. what the kernel proves about the pgdat flags (mm/vmscan.c of 6.x:
     shrink_folio_list() counts a folio under writeback with PG_reclaim in
     nr_congested and, for kswapd, in nr_immediate exactly when
     PGDAT_WRITEBACK is set; only kswapd sets and clears that flag, from
     4.17; shrink_node() throttles a task CONGESTED only when the target
     lruvec's congested flag is set, 5.16+):
     - a kswapd lru_shrink_inactive with nr_immediate > 0 (4.17+): a
       PGDAT_WRITEBACK interval of its node covers the call, from the
       task's preceding lru_isolate of an inactive list to the event;
     - one with nr_congested > 0 and nr_immediate == 0 (5.18+, when
       nr_congested stopped counting congested devices): no PGDAT_WRITEBACK
       interval overlaps the call;
     - a non-kswapd task's mm_vmscan_throttled reason CONGESTED inside its
       direct or node reclaim: the node's congested flag interval covers
       the time its wait began (the event's time - usec_delayed); inside
       memcg reclaim it is that memcg's flag, not the node's;
     and the counts of each kind against run_quality pgdat_flag_proofs_*;
and compare them with reclaim_stall, kswapd_cycle, kswapd_wakeup,
slab_shrink, reclaim_write, reclaim_throttle, pgdat_flag and run_quality.  When NAME.vmstat-before and NAME.vmstat-after sit next to
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
SUMMARY = re.compile(r'^  (Outside kswapd|Kswapd) (?:lru_isolate|shrink_inactive) '
                     r'nr_(scanned|reclaimed): +(\d+) \(file (\d+), anon (\d+)\)$')


def pages(path):
    """{(who, what): (total, file, anon)} from the trace text."""
    events = list(report(path))
    kswapd = {pid for ev, _, pid, _ in events
              if ev in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep')}
    out = collections.defaultdict(lambda: [0, 0, 0])
    for ev, _, pid, body in events:
        f = dict(FIELD.findall(body))
        who = 'Kswapd' if pid in kswapd else 'Outside kswapd'
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


STALL_EVENTS = {
    'mm_vmscan_memcg_reclaim_begin': ('memcg', False),
    'mm_vmscan_memcg_reclaim_end': ('memcg', True),
    'mm_vmscan_memcg_softlimit_reclaim_begin': ('memcg_softlimit', False),
    'mm_vmscan_memcg_softlimit_reclaim_end': ('memcg_softlimit', True),
    'mm_vmscan_node_reclaim_begin': ('node', False),
    'mm_vmscan_node_reclaim_end': ('node', True),
}
REASONS = {1: 'WRITEBACK', 2: 'ISOLATED', 4: 'NOPROGRESS', 8: 'CONGESTED'}
WAITS = {'writeback_congestion_wait': 'congestion_wait',
         'writeback_wait_iff_congested': 'wait_iff_congested'}


def release(path):
    """(major, minor) of the release trace-cmd says the file was recorded on, or None."""
    proc = subprocess.run(['trace-cmd', 'report', '--uname', '-i', path],
                          capture_output=True, text=True, errors='replace')
    for line in proc.stdout.splitlines():
        m = re.match(r'^\S+ \S+ (\d+)\.(\d+)', line)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def writes_and_throttles(path):
    """reclaim_write and reclaim_throttle rows as the trace text gives them."""
    writes, throttles = [], []
    for ev, ts, pid, body in report(path):
        f = dict(FIELD.findall(body))
        if ev in ('mm_vmscan_write_folio', 'mm_vmscan_writepage'):
            flags = int(f['reclaim_flags'], 0)
            writes.append((ts, pid, int(f['pfn'], 0), int(bool(flags & 2))))
        elif ev == 'mm_vmscan_throttled':
            delayed = int(f['usec_delayed'])
            throttles.append(('throttled', pid, int(f['nid']),
                              REASONS.get(int(f['reason'], 0), 'OTHER'), ts - delayed * 1000,
                              ts, int(f['usec_timeout']), delayed))
        elif ev in WAITS:
            delayed = int(f['usec_delayed'])
            throttles.append((WAITS[ev], pid, None, None, ts - delayed * 1000, ts,
                              int(f['usec_timeout']), delayed))
    return sorted(writes), sorted(throttles, key=repr)


def proofs(path):
    """The pgdat flag proofs of the trace text (see the top of this file):
    {'set': [(nid, start, end)], 'clear': [(nid, start, end)],
     'congested': [(nid, t)], 'cgroup': n, 'no_context': n}, and whether
    multi-gen LRU reclaim showed (lru_isolate nr_requested 4096)."""
    events = list(report(path))
    kswapd = {pid for ev, _, pid, _ in events
              if ev in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep')}
    isolate_ts, inside = {}, collections.defaultdict(set)
    out = {'set': [], 'clear': [], 'congested': [], 'cgroup': 0, 'no_context': 0}
    mglru = False
    begins = {'mm_vmscan_direct_reclaim_begin': 'global', 'mm_vmscan_node_reclaim_begin':
              'global', 'mm_vmscan_memcg_reclaim_begin': 'memcg'}
    ends = {'mm_vmscan_direct_reclaim_end': 'global', 'mm_vmscan_node_reclaim_end': 'global',
            'mm_vmscan_memcg_reclaim_end': 'memcg'}
    for ev, ts, pid, body in events:
        f = dict(FIELD.findall(body))
        if ev in begins:
            inside[pid].add((begins[ev], ev))
        elif ev in ends:
            inside[pid] = {c for c in inside[pid] if c[1] != ev.replace('_end', '_begin')}
        elif ev == 'mm_vmscan_lru_isolate':
            mglru |= f.get('nr_requested') == '4096'
            if 'lru' not in f or int(f['lru']) in (0, 2):
                isolate_ts[pid] = ts
        elif ev == 'mm_vmscan_lru_shrink_inactive' and pid in kswapd:
            start = isolate_ts.get(pid, ts)
            imm, cong = int(f['nr_immediate']), int(f['nr_congested'])
            if imm > 0:
                out['set'].append((int(f['nid']), start, ts))
            elif cong > 0:
                out['clear'].append((int(f['nid']), start, ts))
        elif (ev == 'mm_vmscan_throttled' and pid not in kswapd
              and int(f['reason'], 0) == 8):
            kinds = {c[0] for c in inside[pid]}
            if 'memcg' in kinds:
                out['cgroup'] += 1
            elif 'global' in kinds:
                out['congested'].append((int(f['nid']), ts - int(f['usec_delayed']) * 1000))
            else:
                out['no_context'] += 1
    return out, mglru


def check_proofs(path, db):
    """Every proof against the stored intervals, and the proof counts."""
    c = sqlite3.connect(db)
    quality = dict(c.execute("SELECT item, count FROM run_quality"))
    p, mglru = proofs(path)
    rel = release(path)
    ok_set = rel is not None and rel >= (4, 17)
    ok_clear = rel is not None and rel >= (5, 18)
    if 'pgdat_flag_rule' not in quality:
        print('%s: proofs: %d set, %d clear, %d congested; the model infers no flags (%s)'
              % (path, len(p['set']), len(p['clear']), len(p['congested']),
                 'multi-gen LRU' if mglru else 'pgdat_flag_not_inferred'))
        return 0
    flags = collections.defaultdict(list)
    for nid, flag, s, e in c.execute('SELECT nid, flag, set_ns, clear_ns FROM pgdat_flag'):
        flags[(nid, 'CONGESTED' if flag.endswith('CONGESTED') else flag)].append(
            (s, e if e is not None else float('inf')))
    bad = []
    for nid, a, b in p['set'] if ok_set else []:
        if not any(s <= a and b <= e for s, e in flags[(nid, 'PGDAT_WRITEBACK')]):
            bad.append('kswapd call %d..%d nr_immediate > 0: no PGDAT_WRITEBACK interval'
                       ' of node %d covers it' % (a, b, nid))
    for nid, a, b in p['clear'] if ok_clear else []:
        over = [(s, e) for s, e in flags[(nid, 'PGDAT_WRITEBACK')] if s < b and e > a]
        if over:
            bad.append('kswapd call %d..%d nr_congested > 0, nr_immediate 0: PGDAT_WRITEBACK'
                       ' of node %d set over it %s' % (a, b, nid, over[:2]))
    if rel is not None and rel >= (5, 16):
        for nid, t in p['congested']:
            if not any(s <= t <= e for s, e in flags[(nid, 'CONGESTED')]):
                bad.append('throttled CONGESTED, wait began %d: no congested interval of'
                           ' node %d covers it' % (t, nid))
    counts = {'pgdat_flag_proofs_set': len(p['set']) if ok_set else 0,
              'pgdat_flag_proofs_clear': len(p['clear']) if ok_clear else 0,
              'pgdat_flag_proofs_congested': len(p['congested']),
              'pgdat_flag_proofs_cgroup': p['cgroup'],
              'pgdat_flag_throttle_no_context': p['no_context']}
    for item, n in counts.items():
        if quality.get(item, 0) != n:
            bad.append('%s: %d in the trace, run_quality %s' % (item, n, quality.get(item)))
    for line in bad[:10]:
        print('%s: proof MISMATCH: %s' % (path, line))
    print('%s: proofs: %d set, %d clear (kswapd calls), %d congested (throttled), %d of a'
          ' memcg, %d without context; intervals extended %d, cut %d: %s'
          % (path, counts['pgdat_flag_proofs_set'], counts['pgdat_flag_proofs_clear'],
             counts['pgdat_flag_proofs_congested'], p['cgroup'], p['no_context'],
             quality.get('pgdat_flag_extended', 0), quality.get('pgdat_flag_cut', 0),
             'ok' if not bad else '%d MISMATCHES' % len(bad)))
    return len(bad)


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
    other_open = collections.defaultdict(dict)
    other_pairs, other_unterminated = [], []
    other_no_begin = collections.Counter()
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
        elif ev in STALL_EVENTS:
            kind, end = STALL_EVENTS[ev]
            o = other_open[kind]
            if not end:
                if pid in o:
                    other_unterminated.append((kind, pid, o[pid]))
                o[pid] = ts
            elif pid in o:
                other_pairs.append((kind, pid, o.pop(pid), ts))
            else:
                other_no_begin[kind] += 1
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
    other_unterminated += [(k, pid, ts) for k, o in other_open.items() for pid, ts in o.items()]
    slab_unended += [(pid, v[0]) for pid, v in slab_open.items()]
    for nid, reqs in pending.items():
        requests += [(req, nid, None) for req in reqs]
    return {
        'pairs': sorted(pairs), 'unterminated': sorted(unterminated), 'no_begin': no_begin,
        'wakes': dict(wakes), 'sleeps': sum(sleeps.values()), 'requests': sorted(requests),
        'slab_pairs': sorted(slab_pairs), 'slab_unended': sorted(slab_unended),
        'slab_no_start': slab_no_start,
        'other_pairs': sorted(other_pairs), 'other_unterminated': sorted(other_unterminated),
        'other_no_begin': dict(other_no_begin),
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
        'other_pairs': sorted(q("SELECT kind, pid, begin_ns, end_ns FROM reclaim_stall"
                                " WHERE kind != 'direct' AND begin_ns IS NOT NULL"
                                " AND end_ns IS NOT NULL")),
        'other_unterminated': sorted(q("SELECT kind, pid, begin_ns FROM reclaim_stall"
                                       " WHERE kind != 'direct' AND begin_ns IS NOT NULL"
                                       " AND end_ns IS NULL")),
        'other_no_begin': dict(q("SELECT kind, count(*) FROM reclaim_stall"
                                 " WHERE kind != 'direct' AND begin_ns IS NULL GROUP BY kind")),
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
        want['writes'], want['throttles'] = writes_and_throttles(path)
        c = sqlite3.connect(db)
        got['writes'] = sorted(tuple(r) for r in c.execute(
            'SELECT ts_ns, pid, pfn, file FROM reclaim_write'))
        got['throttles'] = sorted((tuple(r) for r in c.execute(
            'SELECT kind, pid, nid, reason, begin_ns, end_ns, usec_timeout, usec_delayed'
            ' FROM reclaim_throttle')), key=repr)
        c.close()
        bad = check_vmstat(path, db) + check_proofs(path, db)
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
    files = sum(w[3] for w in want['writes'])
    print('%s: %d stalls (%.3f ms total), %d kswapd wakes, %d sleeps, %d requests,'
          ' %d shrinker calls, %d other stalls (%s), %d pages written by reclaim (file %d,'
          ' anon %d), %d throttle waits: %s'
          % (path, len(durations), sum(durations) / 1e6, sum(want['wakes'].values()),
             want['sleeps'], len(want['requests']), len(want['slab_pairs']),
             len(want['other_pairs']),
             ' '.join('%s=%d' % kv for kv in sorted(collections.Counter(
                 k for k, *_ in want['other_pairs']).items())) or '-',
             len(want['writes']), files, len(want['writes']) - files, len(want['throttles']),
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
