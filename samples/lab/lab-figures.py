#!/usr/bin/env python3
"""lab-figures.py DAT... - the figures samples/README.md gives for the lab's
recordings, counted from `trace-cmd report` (not from vmscan-report) and
from the NAME.dat.snap/ snapshots beside each trace.

Per recording: file size, events, per node (nid) kswapd wakes
(mm_vmscan_kswapd_wake) and full sleeps (mm_vmscan_kswapd_sleep), direct
reclaim begins and ends (they carry no nid: per CPU, and the guest has
node N on CPU N), pages scanned and reclaimed by kswapd and in direct
reclaim (mm_vmscan_lru_shrink_inactive nr_scanned / nr_reclaimed of kswapd's
and of the other tasks), shrink_inactive calls that met pages under
writeback (nr_writeback > 0), reclaim writes (mm_vmscan_write_folio),
throttles (mm_vmscan_throttled, by reason), and the /proc/vmstat deltas
(end - start) of pgscan/pgsteal and pageoutrun.

Usage: samples/lab/lab-figures.py samples/lab/*.dat   (needs trace-cmd)
"""
import collections
import os
import re
import subprocess
import sys

EV = re.compile(r'^\s*(\S.*?)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\w+):\s*(.*)$')


def vmstat_delta(dat, key):
    snap = dat + '.snap'
    vals = []
    for which in ('start', 'end'):
        try:
            with open(os.path.join(snap, which + '-vmstat')) as f:
                d = dict(line.split() for line in f if line.strip())
        except OSError:
            return None
        vals.append(int(d.get(key, 0)))
    return vals[1] - vals[0]


def figures(dat):
    out = subprocess.run(['trace-cmd', 'report', '-N', dat], capture_output=True,
                         text=True, check=True).stdout
    n = collections.Counter()
    events = 0
    for line in out.splitlines():
        m = EV.match(line)
        if not m:
            continue
        comm, _pid, cpu, _ts, ev, rest = m.groups()
        cpu = str(int(cpu))
        events += 1
        f = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
        kswapd = comm.startswith('kswapd')
        if ev == 'mm_vmscan_kswapd_wake':
            n['wake', f['nid']] += 1
        elif ev == 'mm_vmscan_kswapd_sleep':
            n['sleep', f['nid']] += 1
        elif ev == 'mm_vmscan_direct_reclaim_begin':
            n['dbegin', cpu] += 1
        elif ev == 'mm_vmscan_direct_reclaim_end':
            n['dend', cpu] += 1
        elif ev == 'mm_vmscan_lru_shrink_inactive':
            who = 'k' if kswapd else 'd'
            n['scan', who, f['nid']] += int(f['nr_scanned'])
            n['recl', who, f['nid']] += int(f['nr_reclaimed'])
            if int(f.get('nr_writeback', 0)) > 0:
                n['wbcalls', f['nid']] += 1
        elif ev == 'mm_vmscan_write_folio':
            n['write', ''] += 1
        elif ev == 'mm_vmscan_throttled':
            n['throttle', f.get('reason', '?')] += 1
    return events, n


def main():
    for dat in sys.argv[1:]:
        events, n = figures(dat)
        name = os.path.basename(dat)
        print(f'{name}: {os.path.getsize(dat)} bytes, {events} events')
        for nid in ('0', '1'):
            print(f'  node {nid}: kswapd wakes {n["wake", nid]}, full sleeps {n["sleep", nid]};'
                  f' kswapd scanned {n["scan", "k", nid]} reclaimed {n["recl", "k", nid]} pages;'
                  f' direct scanned {n["scan", "d", nid]} reclaimed {n["recl", "d", nid]} pages;'
                  f' shrink_inactive calls with nr_writeback > 0: {n["wbcalls", nid]}')
        for cpu in ('0', '1'):
            print(f'  cpu {cpu}: direct reclaim begin {n["dbegin", cpu]}, end {n["dend", cpu]}')
        thr = ', '.join(f'{k[1]} {v}' for k, v in sorted(n.items()) if k[0] == 'throttle')
        print(f'  reclaim writes (write_folio events) {n["write", ""]}; throttles: {thr or "none"}')
        deltas = ', '.join(f'{k} {vmstat_delta(dat, k)}' for k in (
            'pgscan_kswapd', 'pgsteal_kswapd', 'pgscan_direct', 'pgsteal_direct',
            'pageoutrun', 'nr_vmscan_write'))
        print(f'  vmstat end - start: {deltas}')


if __name__ == '__main__':
    main()
