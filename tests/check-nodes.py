#!/usr/bin/env python3
"""Per-node check of a two-node (or larger) recording against `trace-cmd report`.

Usage: check-nodes.py VMSCAN_REPORT TRACE.dat [...]

For each trace.dat: load it with vmscan-report into a fresh database, read
the same file with `trace-cmd report -R -t` (raw fields, ns timestamps) and
count, per node, with nothing but the text:
  1. kswapd cycles: mm_vmscan_kswapd_wake per nid (kswapd_cycle rows with a
     wake) and mm_vmscan_kswapd_sleep per nid (full_sleep cycles);
  2. kswapd's sleep decisions per nid from its sched events (mm/vmscan.c
     kswapd_try_to_sleep(): a full sleep emits kswapd_sleep; otherwise,
     after kswapd's last vmscan event of the cycle, a sched_switch out in
     state S (1) is the HZ/10 nap: back on a CPU (sched_switch in, else
     sched_wakeup) less than 100 ms later = woken early, else timed out; no
     such switch = no nap), for the cycles whose next wake is traced;
  3. pages scanned and reclaimed by each node's kswapd (nr_scanned,
     nr_reclaimed of its mm_vmscan_lru_shrink_inactive) against
     kswapd_cycle's sums and summary's per-node page table;
  4. pages scanned and reclaimed outside kswapd per node (the nid of the
     other tasks' mm_vmscan_lru_shrink_inactive) against the same table;
  5. direct reclaim stalls per node: a begin/end pair per pid, on each node
     whose nid an mm_vmscan_lru_shrink_inactive/_active of the pid shows
     between them, against reclaim_stall.nids;
  6. where the run follows the rule kswapd-sleep (a 4.12+ release loaded
     without --flag-clear), the points where the trace contradicts it (a
     kswapd call with nr_immediate > 0, then one of the same node with
     nr_congested > 0 and nr_immediate = 0, no kswapd wake or sleep of the
     node between) against run_quality pgdat_flag_contradictions;
and, when X.dat.snap/start-nodeN-vmstat and end-nodeN-vmstat sit there
too (/sys/devices/system/node/nodeN/vmstat), each node's nr_vmscan_write
delta against the mm_vmscan_write_folio events between the markers whose
pfn lies in that node's zones (start-zoneinfo's start_pfn, spanned);
and, when X.dat.snap/start-vmstat and end-vmstat sit beside X.dat (the
lab's snapshots, each taken just after a trace_marker line "vmscan-report:
snapshot start|end"), the events between the two markers against the
/proc/vmstat deltas (6.1 classic LRU: mm/vmscan.c counts PGSCAN_KSWAPD and
PGSCAN_DIRECT with the nr_scanned and PGSTEAL_* with the nr_reclaimed that
shrink_inactive_list() traces, and with the nr_scanned of an inactive
list's mm_vmscan_lru_isolate that took nothing, after which it returns
before its own tracepoint, PAGEOUTRUN once per balance_pgdat() after
its kswapd_wake, ALLOCSTALL once per direct reclaim begin in
__perform_reclaim()... do_try_to_free_pages(); only when the run has
mm_vmscan_lru_shrink_inactive lines: multi-gen LRU on 6.1 traces none).
Exit 0 when everything matches, 1 otherwise (mismatches printed), 2 usage.
"""
import collections
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

LINE = re.compile(r'^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(?:\S+\s+)?(\d+)\.(\d+):\s+(\S+):\s*(.*)$')
FIELD = re.compile(r'(\w+)=(\S*)')
NAP_NS = 100 * 1000 * 1000
# mm_vmscan_lru_isolate's lru of the inactive lists (enum lru_list, raw or
# by name)
INACTIVE_LRU = ('0', '2', 'inactive_anon', 'inactive_file')


def events(path):
    out = subprocess.run(['trace-cmd', 'report', '-R', '-t', path], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        ts = int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, '0')[:9])
        f = dict(FIELD.findall(m.group(7)))
        yield ts, int(m.group(2)), m.group(6), f, m.group(7)


def count(path):
    ev = list(events(path))
    kpid = {}                       # pid -> nid of kswapd
    for ts, pid, name, f, raw in ev:
        if name in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep'):
            kpid[pid] = int(f['nid'])
    c = collections.defaultdict(int)
    stalls = collections.defaultdict(int)
    open_ = {}                      # pid -> set of nids, or None before any
    last_act = {}                   # nid -> ts of kswapd's last vmscan event
    cyc = {}                        # nid -> dict(out=, back=, slept=)
    dec = collections.defaultdict(int)
    marks = []
    proven = {}                     # nid -> a kswapd call proved PGDAT_WRITEBACK set
    win = collections.defaultdict(int)
    win['writes'] = []              # pfns of mm_vmscan_write_folio between the marks

    def inwin(ts):
        return len(marks) == 1

    def close(nid, nxt):
        s = cyc.get(nid)
        if s is None:
            return
        if s['slept']:
            d = 'full_sleep'
        elif nxt is None:
            return
        elif s['out'] is None:
            d = 'no_nap' if s['woken'] is None else 'nap_woken_early'
        else:
            back = s['back'] if s['back'] is not None else s['woken']
            if back is None:
                return
            d = 'nap_woken_early' if back - s['out'] < NAP_NS else 'nap_timed_out'
        dec[(nid, d)] += 1

    for ts, pid, name, f, raw in ev:
        if name == 'print' and 'vmscan-report: snapshot' in raw:
            marks.append(ts)
            continue
        w = inwin(ts)
        if name in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep'):
            proven.pop(int(f['nid']), None)     # a sleep check of the node between
        if name == 'mm_vmscan_kswapd_wake':
            nid = int(f['nid'])
            close(nid, ts)
            cyc[nid] = {'out': None, 'back': None, 'woken': None, 'slept': False}
            c[('wake', nid)] += 1
            if w:
                win['pageoutrun'] += 1
        elif name == 'mm_vmscan_kswapd_sleep':
            nid = int(f['nid'])
            c[('sleep', nid)] += 1
            if nid in cyc:
                cyc[nid]['slept'] = True
        elif name == 'mm_vmscan_direct_reclaim_begin':
            open_[pid] = set()
            if w:
                win['allocstall'] += 1
        elif name == 'mm_vmscan_direct_reclaim_end':
            nids = open_.pop(pid, None)
            if nids is not None:
                for n in nids:
                    stalls[n] += 1
                if not nids:
                    stalls[None] += 1
        elif name == 'mm_vmscan_lru_isolate' and f.get('nr_taken') == '0' and \
                f.get('lru') in INACTIVE_LRU:
            # shrink_inactive_list() (6.1) counts PGSCAN_* with the
            # isolation's nr_scanned, then returns before its tracepoint
            # when it took nothing: only this event has those pages
            if w:
                win[('kswapd' if pid in kpid else 'other') + '_scanned'] += int(f['nr_scanned'])
        elif name == 'mm_vmscan_write_folio':
            if w:
                win['writes'].append(int(f['pfn'], 0))
        elif name in ('mm_vmscan_lru_shrink_inactive', 'mm_vmscan_lru_shrink_active'):
            nid = int(f['nid'])
            if pid in open_:
                open_[pid].add(nid)
            if name == 'mm_vmscan_lru_shrink_inactive':
                who = 'kswapd' if pid in kpid else 'other'
                if who == 'kswapd' and int(f.get('nr_immediate', 0)) > 0:
                    proven[nid] = True          # PGDAT_WRITEBACK set through the call
                elif who == 'kswapd' and int(f.get('nr_congested', 0)) > 0:
                    if proven.pop(nid, None):   # ... and now clear, no sleep check between
                        c['contradictions'] += 1
                c[(who + '_scanned', nid)] += int(f['nr_scanned'])
                c[(who + '_reclaimed', nid)] += int(f['nr_reclaimed'])
                c['lru_lines'] += 1
                if w:
                    win[who + '_scanned'] += int(f['nr_scanned'])
                    win[who + '_reclaimed'] += int(f['nr_reclaimed'])
                    win['lru'] += 1
        elif name == 'sched_switch':
            prev, nxt = int(f['prev_pid']), int(f['next_pid'])
            if prev in kpid and kpid[prev] in cyc:
                s = cyc[kpid[prev]]
                if f['prev_state'] in ('1', 'S') and s['out'] is None:
                    s['out'] = ts
            if nxt in kpid and kpid[nxt] in cyc:
                s = cyc[kpid[nxt]]
                if s['out'] is not None and s['back'] is None:
                    s['back'] = ts
            continue
        elif name == 'sched_wakeup':
            p = int(f['pid'])
            if p in kpid and kpid[p] in cyc and cyc[kpid[p]]['woken'] is None:
                cyc[kpid[p]]['woken'] = ts
            continue
        if pid in kpid and name.startswith(('mm_vmscan', 'mm_shrink')) and \
                name not in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep'):
            s = cyc.get(kpid[pid])
            if s is not None:
                s.update(out=None, back=None, woken=None)
    for nid in list(cyc):
        close(nid, None)
    return c, stalls, dec, win, len(marks) == 2


def vmstat(path):
    d = {}
    for when in ('start', 'end'):
        p = os.path.join(path + '.snap', when + '-vmstat')
        if not os.path.exists(p):
            return None
        d[when] = dict((k, int(v)) for k, v in (l.split() for l in open(p) if l.strip()))
    return {k: d['end'][k] - d['start'].get(k, 0) for k in d['end']}


def node_vmstat(path):
    """{nid: {counter: end - start}} of X.dat.snap/start|end-nodeN-vmstat."""
    d = collections.defaultdict(dict)
    snap = path + '.snap'
    if not os.path.isdir(snap):
        return {}
    for name in os.listdir(snap):
        m = re.match(r'^start-node(\d+)-vmstat$', name)
        if not m or not os.path.exists(os.path.join(snap, 'end-' + name[6:])):
            continue
        v = {}
        for when in ('start', 'end'):
            with open(os.path.join(snap, when + '-' + name[6:])) as fh:
                v[when] = dict((k, int(x)) for k, x in (l.split() for l in fh if l.strip()))
        d[int(m.group(1))] = {k: v['end'][k] - v['start'].get(k, 0) for k in v['end']}
    return d


def node_of_pfn(path):
    """A function pfn -> nid from X.dat.snap/start-zoneinfo (each zone's
    start_pfn and spanned), or None without it."""
    p = os.path.join(path + '.snap', 'start-zoneinfo')
    if not os.path.exists(p):
        return None
    spans, nid, spanned = [], None, 0
    with open(p) as fh:
        for line in fh:
            m = re.match(r'^Node (\d+), zone', line)
            if m:
                nid, spanned = int(m.group(1)), 0
            m = re.match(r'^\s+spanned\s+(\d+)', line)
            if m:
                spanned = int(m.group(1))
            m = re.match(r'^\s+start_pfn:\s+(\d+)', line)
            if m and spanned:
                spans.append((int(m.group(1)), int(m.group(1)) + spanned, nid))

    def node(pfn):
        for lo, hi, n in spans:
            if lo <= pfn < hi:
                return n
        return None
    return node


def node_stat_slack(path):
    """Per nid, how far a node counter of X.dat.snap/nodeN-vmstat may be
    from the events: mm/vmstat.c (6.1) __mod_node_page_state() folds a
    CPU's delta into the node's counter only once it passes the per-CPU
    stat_threshold (refresh_zone_stat_thresholds(): the node's is the
    largest of its zones'), and nodeN/vmstat prints the folded counter
    (node_page_state_pages()), so each snapshot may miss up to the
    threshold per CPU: the delta of two snapshots is within threshold x
    CPUs of the events.  From start-zoneinfo's "vm stats threshold" and
    "cpu:" lines (the largest over the node's zones, the CPUs of one
    zone's pagesets); {} without it."""
    p = os.path.join(path + '.snap', 'start-zoneinfo')
    if not os.path.exists(p):
        return {}
    thr, cpus, nid, ncpu = {}, {}, None, 0
    with open(p) as fh:
        for line in fh:
            m = re.match(r'^Node (\d+), zone', line)
            if m:
                nid, ncpu = int(m.group(1)), 0
            if re.match(r'^\s+cpu:\s+\d+', line):
                ncpu += 1
            m = re.match(r'^\s+vm stats threshold:\s+(\d+)', line)
            if m and nid is not None:
                thr[nid] = max(thr.get(nid, 0), int(m.group(1)))
                cpus[nid] = max(cpus.get(nid, 0), ncpu)
    return {n: thr[n] * cpus[n] for n in thr}


def sql_or_none(q, sql, args):
    """The one value of @sql, or None when the database cannot answer it
    (a model without per-node stalls has no reclaim_stall.nids) or has no
    row."""
    try:
        row = q.execute(sql, args).fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] if row else None


def check(vr, path):
    # the database in a directory removed at the end (mkdtemp() left one
    # behind in /tmp at every run)
    with tempfile.TemporaryDirectory() as tmp:
        return check_in(vr, path, os.path.join(tmp, 'n.db'))


def check_in(vr, path, db):
    bad = []
    subprocess.run([vr, 'load', '-q', '-d', db, path], check=True)
    c, stalls, dec, win, bracketed = count(path)
    q = sqlite3.connect(db)
    nodes = sorted({k[1] for k in c if k[0] == 'wake'})

    def eq(what, want, got):
        if want != got:
            bad.append('%s: %s: trace %s, vmscan-report %s' % (path, what, want, got))

    for n in nodes:
        eq('node %d kswapd wakes' % n, c[('wake', n)], q.execute(
            'SELECT count(*) FROM kswapd_cycle WHERE nid = ? AND wake_ns IS NOT NULL',
            (n,)).fetchone()[0])
        for d in ('full_sleep', 'nap_woken_early', 'nap_timed_out', 'no_nap'):
            got = q.execute('SELECT count(*) FROM kswapd_cycle WHERE nid = ? AND decision = ?'
                            ' AND wake_ns IS NOT NULL', (n, d)).fetchone()[0]
            eq('node %d %s' % (n, d), dec[(n, d)], got)
        s, r = q.execute('SELECT sum(nr_scanned), sum(nr_reclaimed) FROM kswapd_cycle'
                         ' WHERE nid = ?', (n,)).fetchone()
        eq('node %d kswapd pages scanned' % n, c[('kswapd_scanned', n)], s or 0)
        eq('node %d kswapd pages reclaimed' % n, c[('kswapd_reclaimed', n)], r or 0)
        got = sql_or_none(q, "SELECT count(*) FROM reclaim_stall WHERE kind = 'direct'"
                          " AND begin_ns IS NOT NULL AND end_ns IS NOT NULL"
                          " AND instr(',' || nids || ',', ',' || ? || ',')", (n,))
        eq('node %d direct reclaim stalls' % n, stalls[n], got)
    got = sql_or_none(q, "SELECT count(*) FROM reclaim_stall WHERE kind = 'direct'"
                      " AND begin_ns IS NOT NULL AND end_ns IS NOT NULL AND nids IS NULL", ())
    eq('direct reclaim stalls without a node', stalls[None], got)
    # summary's per-node page table: "  NID  KS_SCANNED  KS_RECLAIMED  OUT_SCANNED  OUT_RECLAIMED"
    out = subprocess.run([vr, 'summary', '-d', db], check=True, capture_output=True,
                         text=True).stdout
    block = out.split('Pages per node')[1].split('\n\n')[0] if 'Pages per node' in out else ''
    rows = {int(l.split()[0]): l.split()[1:5] for l in block.splitlines()
            if re.match(r'^\s+\d+\s', l)}
    traced = c['lru_lines'] > 0
    for n in nodes:
        # no lru_shrink_inactive at all (multi-gen LRU on 6.1): not traced, "-"
        want = [str(c[(k, n)]) if traced else '-'
                for k in ('kswapd_scanned', 'kswapd_reclaimed', 'other_scanned',
                          'other_reclaimed')]
        eq('summary pages per node %d' % n, want, rows.get(n))
    # the rule kswapd-sleep (4.12+) against the trace's own proofs: a kswapd
    # call with nr_immediate > 0 (shrink_folio_list() counts it only while
    # PGDAT_WRITEBACK is set), then one of the same node with nr_congested
    # > 0 and nr_immediate = 0 (the flag clear: 5.18+ counts such a folio
    # as immediate when it is set), with no kswapd_wake or kswapd_sleep of
    # the node between: a clear that rule forbids. Counted where the run
    # follows kswapd-sleep (the release's rule, no --flag-clear)
    rule = sql_or_none(q, "SELECT detail FROM run_quality WHERE item = 'pgdat_flag_clear_rule'",
                       ())
    if rule and rule.startswith('kswapd-sleep') and traced:
        eq('contradictions of rule kswapd-sleep', c['contradictions'],
           sql_or_none(q, "SELECT count FROM run_quality"
                       " WHERE item = 'pgdat_flag_contradictions'", ()))
    vm = vmstat(path)
    if vm is not None and bracketed:
        eq('kswapd wakes vs pageoutrun', vm['pageoutrun'], win['pageoutrun'])
        eq('direct reclaim begins vs allocstall',
           sum(v for k, v in vm.items() if k.startswith('allocstall_')), win['allocstall'])
        if win['lru']:
            eq('kswapd nr_scanned vs pgscan_kswapd', vm['pgscan_kswapd'], win['kswapd_scanned'])
            eq('kswapd nr_reclaimed vs pgsteal_kswapd', vm['pgsteal_kswapd'],
               win['kswapd_reclaimed'])
            eq('direct nr_scanned vs pgscan_direct', vm['pgscan_direct'], win['other_scanned'])
            eq('direct nr_reclaimed vs pgsteal_direct', vm['pgsteal_direct'],
               win['other_reclaimed'])
    # each node's own counters: nr_vmscan_write (mm/vmscan.c pageout(),
    # node_stat_add_folio(NR_VMSCAN_WRITE): the folio's pages) against the
    # mm_vmscan_write_folio events between the marks on that node (the
    # node of the event's pfn, by start-zoneinfo's zone spans; one event
    # per folio: equal while every folio written is one page, but for the
    # per-CPU deltas not yet folded, node_stat_slack())
    nvm, node = node_vmstat(path), node_of_pfn(path)
    if nvm and node is not None and bracketed:
        per = collections.Counter(node(p) for p in win['writes'])
        slack = node_stat_slack(path)
        for n in sorted(nvm):
            got, d = nvm[n].get('nr_vmscan_write'), slack.get(n, 0)
            if got is None or abs(got - per[n]) > d:
                bad.append('%s: node %d nr_vmscan_write (vmstat delta %s) vs'
                           ' mm_vmscan_write_folio on its pfns (%d): more apart than'
                           ' the per-CPU threshold slack %d' % (path, n, got, per[n], d))
        eq('mm_vmscan_write_folio on no node\'s pfns', 0, per[None])
    for b in bad:
        print(b)
    print('%s: %d nodes, %s' % (path, len(nodes), 'ok' if not bad else '%d mismatches' % len(bad)))
    q.close()
    return 1 if bad else 0


def main(argv):
    if len(argv) < 3:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    return 1 if sum(check(argv[1], p) for p in argv[2:]) else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
