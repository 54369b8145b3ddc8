#!/usr/bin/env python3
"""Measure `vmscan-report load` against trace-cmd on the same trace.dat.

For each command: wall time, CPU time (user+sys, with its child processes)
and peak RSS of the process tree's largest process (wait4 rusage), peak
anonymous RSS of the whole tree sampled every 20 ms; each command runs VR_BENCH_ROUNDS
times (default 3), interleaved, and the medians are reported.  Prints a table and the targets:
load wall time <= 1/4 of `trace-cmd report > /dev/null`, and load's peak RSS
not growing with the trace (compared with a sample a fraction of the size).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def anon_kb(pid):
    """RssAnon in kB of @pid and all its descendants (load works in a child
    process): memory that is really the command's, as opposed to file pages
    mapped from the trace."""
    total = 0
    try:
        with open(f'/proc/{pid}/status') as f:
            for line in f:
                if line.startswith('RssAnon:'):
                    total += int(line.split()[1])
        for task in os.listdir(f'/proc/{pid}/task'):
            with open(f'/proc/{pid}/task/{task}/children') as f:
                total += sum(anon_kb(int(c)) for c in f.read().split())
    except OSError:
        pass
    return total


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


def median_row(samples):
    """Per column, the median of @samples (tuples of equal length)."""
    return tuple(statistics.median(col) for col in zip(*samples))


def main():
    vr, bare, big = sys.argv[1:4]
    small = sys.argv[4] if len(sys.argv) > 4 else None
    # this machine shares its host: every command runs ROUNDS times,
    # interleaved with the others, and its median is reported
    rounds = int(os.environ.get('VR_BENCH_ROUNDS', '3'))
    nev = count_events(bare, big)
    names = ['vmscan-report load', 'vmscan-report load --low-memory',
             'trace-cmd report >/dev/null', 'bare read_data, CPU by CPU',
             'bare read_data, CPUs merged', 'bare tracecmd_iterate_events']
    samples = {name: [] for name in names}
    ratios = []
    with tempfile.TemporaryDirectory(dir='/var/tmp') as tmp:
        db = os.path.join(tmp, 'bench.db')
        for _ in range(rounds):
            cmds = [[vr, 'load', '-q', '-d', db, big],
                    [vr, 'load', '-q', '-d', db, '--low-memory', big],
                    ['trace-cmd', 'report', '-i', big],
                    [bare, 'percpu', big], [bare, 'merge', big], [bare, 'iterate', big]]
            for name, argv in zip(names, cmds):
                if os.path.exists(db):
                    os.unlink(db)
                samples[name].append(measure(argv))
            ratios.append(samples[names[0]][-1][0] / samples[names[2]][-1][0])
        small_rss = small_low = None
        if small:
            db2 = os.path.join(tmp, 'small.db')
            small_rss = measure([vr, 'load', '-q', '-d', db2, small])
            os.unlink(db2)
            small_low = measure([vr, 'load', '-q', '-d', db2, '--low-memory', small])
            nsmall = count_events(bare, small)
    rows = [(name, *median_row(samples[name])) for name in names]
    print(f'trace: {big} ({os.path.getsize(big) / 1e6:.1f} MB, {nev} events);'
          f' medians of {rounds} interleaved rounds')
    print(f'{"command":32s} {"wall s":>8s} {"cpu s":>8s} {"peak RSS MB":>12s} {"peak anon MB":>13s}')
    for name, wall, cpu, rss, anon in rows:
        print(f'{name:32s} {wall:8.2f} {cpu:8.2f} {rss:12.1f} {anon:13.1f}')
    load_wall, report_wall = rows[0][1], rows[2][1]
    print(f'load: {nev / load_wall:,.0f} events/s; load/report wall ratio {load_wall / report_wall:.3f}'
          f' (target <= 0.25: {"met" if load_wall <= report_wall / 4 else "NOT met"});'
          f' per round: {", ".join(f"{r:.3f}" for r in ratios)}')
    if small_rss is not None:
        print(f'load peak RSS (anonymous): {small_rss[2]:.1f} MB ({small_rss[3]:.1f}) on {nsmall} events,'
              f' {rows[0][3]:.1f} MB ({rows[0][4]:.1f}) on {nev} events')
        print(f'load --low-memory peak anonymous RSS: {small_low[3]:.1f} MB on {nsmall} events,'
              f' {rows[1][4]:.1f} MB on {nev} events (file-backed pages of the copy not counted)')


if __name__ == '__main__':
    main()
