#!/usr/bin/env python3
"""lab-figures.py DAT... - the figures samples/README.md gives for the lab's
recordings, counted from `trace-cmd report` (not from vmscan-report) and
from the NAME.dat.snap/ snapshots beside each trace.

Per recording: file size, events, per node (nid) kswapd wakes
(mm_vmscan_kswapd_wake) and full sleeps (mm_vmscan_kswapd_sleep), direct
reclaim begins and ends (they carry no nid: per CPU; the guest has one
CPU, on node 0), pages scanned and reclaimed by kswapd and in direct
reclaim (mm_vmscan_lru_shrink_inactive nr_scanned / nr_reclaimed of kswapd's
and of the other tasks), shrink_inactive calls that met pages under
writeback (nr_writeback > 0), kswapd's calls with nr_immediate > 0 and
its mm_vmscan_throttled waits, reclaim writes (mm_vmscan_write_folio),
throttles (mm_vmscan_throttled, by reason), and the /proc/vmstat deltas
(end - start) of pgscan/pgsteal and pageoutrun.

Usage: samples/lab/lab-figures.py [--markdown] samples/lab/*.dat   (needs trace-cmd)
--markdown: one table row per recording, as samples/README.md has them
(the kernel and the LRU from NAME.log's "lab: run NAME on RELEASE" and
"lru_gen/enabled" lines).
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
            if kswapd and int(f.get('nr_immediate', 0)) > 0:
                n['immcalls', f['nid']] += 1
        elif ev == 'mm_vmscan_write_folio':
            n['write', ''] += 1
        elif ev == 'mm_vmscan_throttled':
            n['throttle', f.get('reason', '?')] += 1
            if kswapd:
                n['kthrottle', f['nid']] += 1
    return events, n


def guest(dat):
    """(kernel, LRU) of a recording, from its console log NAME.log."""
    kernel, lru, patched = '?', '?', False
    try:
        with open(dat[:-len('.dat')] + '.log', errors='replace') as f:
            for line in f:
                m = re.match(r'^lab: run \S+ on (\S+) \((.*)\), lru_gen=', line)
                if m:
                    kernel = m.group(1) + (' Debian' if 'Debian' in m.group(2) else ' lab build')
                m = re.match(r'^lab: run patched-', line)
                if m:   # (the patched kernel's uname differs only in its build time)
                    patched = True
                m = re.match(r'^lab: lru_gen/enabled = (\S+)', line)
                if m:
                    lru = 'classic' if int(m.group(1), 16) == 0 else 'multi-gen'
    except OSError:
        pass
    return kernel + (' + patch' if patched else ''), lru


def markdown(dat):
    events, n = figures(dat)
    kernel, lru = guest(dat)

    def two(k):
        return f'{n[k, "0"]:,} / {n[k, "1"]:,}'
    lines = n['scan', 'k', '0'] + n['scan', 'k', '1']
    scanned = (f'{n["scan", "k", "0"]:,} / {n["scan", "k", "1"]:,}' if lines
               else '- (no LRU events)')
    print(f'| `{os.path.basename(dat)}` | {kernel} | {lru} | {os.path.getsize(dat):,} |'
          f' {events:,} | {two("wake")} | {two("sleep")} |'
          f' {sum(v for k, v in n.items() if k[0] == "dbegin"):,} | {scanned} |'
          f' {two("wbcalls")} | {two("immcalls")} | {two("kthrottle")} | {n["write", ""]:,} |')


def main():
    if sys.argv[1:2] == ['--markdown']:
        print('| file | kernel | LRU | size (bytes) | events | kswapd wakes n0 / n1 |'
              ' full sleeps n0 / n1 | direct reclaims | kswapd scanned n0 / n1 (pages) |'
              ' calls meeting writeback n0 / n1 | kswapd nr_immediate calls n0 / n1 |'
              ' kswapd throttled n0 / n1 | reclaim writes |')
        print('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
        for dat in sys.argv[2:]:
            markdown(dat)
        return
    for dat in sys.argv[1:]:
        events, n = figures(dat)
        name = os.path.basename(dat)
        print(f'{name}: {os.path.getsize(dat)} bytes, {events} events')
        for nid in ('0', '1'):
            print(f'  node {nid}: kswapd wakes {n["wake", nid]}, full sleeps {n["sleep", nid]};'
                  f' kswapd scanned {n["scan", "k", nid]} reclaimed {n["recl", "k", nid]} pages;'
                  f' direct scanned {n["scan", "d", nid]} reclaimed {n["recl", "d", nid]} pages;'
                  f' shrink_inactive calls with nr_writeback > 0: {n["wbcalls", nid]};'
                  f' kswapd calls with nr_immediate > 0: {n["immcalls", nid]};'
                  f' kswapd throttled: {n["kthrottle", nid]}')
        for cpu in sorted({k[1] for k in n if k[0] in ('dbegin', 'dend')}) or ['0']:
            print(f'  cpu {cpu}: direct reclaim begin {n["dbegin", cpu]}, end {n["dend", cpu]}')
        thr = ', '.join(f'{k[1]} {v}' for k, v in sorted(n.items()) if k[0] == 'throttle')
        print(f'  reclaim writes (write_folio events) {n["write", ""]}; throttles: {thr or "none"}')
        deltas = ', '.join(f'{k} {vmstat_delta(dat, k)}' for k in (
            'pgscan_kswapd', 'pgsteal_kswapd', 'pgscan_direct', 'pgsteal_direct',
            'pageoutrun', 'nr_vmscan_write'))
        print(f'  vmstat end - start: {deltas}')


if __name__ == '__main__':
    main()
