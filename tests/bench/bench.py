#!/usr/bin/env python3
"""Measure `vmscan-report load` against trace-cmd on the same trace.dat.

For each command: wall time, CPU time (user+sys) and peak RSS of the process
tree's largest process (wait4 rusage).  Prints a table and the targets:
load wall time <= 1/4 of `trace-cmd report > /dev/null`, and load's peak RSS
not growing with the trace (compared with a sample a fraction of the size).
"""
import os
import subprocess
import sys
import tempfile
import time


def anon_kb(pid):
    """RssAnon of @pid in kB (0 once it is gone): memory that is really ours,
    as opposed to file pages libtracecmd maps from its temporary files."""
    try:
        with open(f'/proc/{pid}/status') as f:
            for line in f:
                if line.startswith('RssAnon:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(argv, stdout=subprocess.DEVNULL):
    """(wall s, cpu s, peak RSS MB, peak anonymous RSS MB sampled every 20 ms)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    peak_anon = 0
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak_anon = max(peak_anon, anon_kb(proc.pid))
        time.sleep(0.02)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode(errors='replace')
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f'bench: {" ".join(argv)} failed: {err}')
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, peak_anon / 1024.0


def count_events(bare, path):
    out = subprocess.run([bare, 'percpu', path], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def main():
    vr, bare, big = sys.argv[1:4]
    small = sys.argv[4] if len(sys.argv) > 4 else None
    nev = count_events(bare, big)
    rows = []
    with tempfile.TemporaryDirectory(dir='/var/tmp') as tmp:
        db = os.path.join(tmp, 'bench.db')
        rows.append(('vmscan-report load', *measure([vr, 'load', '-q', '-d', db, big])))
        rows.append(('trace-cmd report >/dev/null', *measure(['trace-cmd', 'report', '-i', big])))
        rows.append(('bare read_data, CPU by CPU', *measure([bare, 'percpu', big])))
        rows.append(('bare read_data, CPUs merged', *measure([bare, 'merge', big])))
        rows.append(('bare tracecmd_iterate_events', *measure([bare, 'iterate', big])))
        small_rss = None
        if small:
            db2 = os.path.join(tmp, 'small.db')
            small_rss = measure([vr, 'load', '-q', '-d', db2, small])
            nsmall = count_events(bare, small)
    print(f'trace: {big} ({os.path.getsize(big) / 1e6:.1f} MB, {nev} events)')
    print(f'{"command":32s} {"wall s":>8s} {"cpu s":>8s} {"peak RSS MB":>12s} {"peak anon MB":>13s}')
    for name, wall, cpu, rss, anon in rows:
        print(f'{name:32s} {wall:8.2f} {cpu:8.2f} {rss:12.1f} {anon:13.1f}')
    load_wall, report_wall = rows[0][1], rows[1][1]
    print(f'load: {nev / load_wall:,.0f} events/s; load/report wall ratio {load_wall / report_wall:.3f}'
          f' (target <= 0.25: {"met" if load_wall <= report_wall / 4 else "NOT met"})')
    if small_rss is not None:
        print(f'load peak RSS (anonymous): {small_rss[2]:.1f} MB ({small_rss[3]:.1f}) on {nsmall} events,'
              f' {rows[0][3]:.1f} MB ({rows[0][4]:.1f}) on {nev} events')


if __name__ == '__main__':
    main()
