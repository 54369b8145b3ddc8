#!/usr/bin/env python3
"""Count a recording's kswapd naps that end within a jiffy of their timeout.

usage: check-naps.py REPORT.txt   (trace-cmd report of a trace.dat)
A nap: kswapdN switched out in state S, not after a kswapd_sleep (that is
the full sleep), until kswapdN is switched in again; it counts when it
lasted 90 ms or more but less than 100 ms (one jiffy at HZ 100 short of
the HZ/10 timeout) and the next event of that kswapd is a kswapd_wake
(not a kswapd_sleep) between the "vmscan-report: snapshot start|end"
markers.  Prints the count.  Independent of vmscan-report's kswapd model.
"""
import re
import sys


def count(path):
    t0 = t1 = None
    out, pend, asleep, n, wakes = {}, {}, set(), 0, []
    for line in open(path):
        m = re.match(r'\s*(\S+)\s+\[\d+\]\s+([\d.]+): (\w+):\s*(.*)', line)
        if not m:
            continue
        comm, ts, ev, rest = m.group(1), float(m.group(2)), m.group(3), m.group(4)
        if ev == 'print' and 'vmscan-report: snapshot start' in rest:
            t0 = ts
        if ev == 'print' and 'vmscan-report: snapshot end' in rest:
            t1 = ts
        if ev == 'sched_switch':
            a = re.match(r'(kswapd\d+):\d+ \[\d+\] (\S+) ==> ', rest)
            if a and a.group(2) == 'S' and a.group(1) not in asleep:
                out[a.group(1)] = ts
            b = re.search(r'==> (kswapd\d+):', rest)
            if b and b.group(1) in out:
                pend[b.group(1)] = (ts - out.pop(b.group(1))) * 1000
        if comm.startswith('kswapd') and ev in ('mm_vmscan_kswapd_wake', 'mm_vmscan_kswapd_sleep'):
            k = comm.rsplit('-', 1)[0]
            if ev == 'mm_vmscan_kswapd_sleep':
                asleep.add(k)
                out.pop(k, None)
            else:
                asleep.discard(k)
            d = pend.pop(k, None)
            if d is not None and ev == 'mm_vmscan_kswapd_wake' and 90 <= d < 100:
                wakes.append(ts)
    for ts in wakes:
        if (t0 is None or t0 <= ts) and (t1 is None or ts <= t1):
            n += 1
    return n


if __name__ == '__main__':
    print(count(sys.argv[1]))
