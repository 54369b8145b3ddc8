#!/usr/bin/env python3
"""Measure `vmscan-report load` against trace-cmd on the same trace.dat.

For each command: wall time, CPU time (user+sys, with its child processes)
and peak RSS of the process tree's largest process (wait4 rusage): each
command runs VR_BENCH_ROUNDS times (default 3), interleaved, and the medians
are reported; then once more with the peak anonymous RSS of the whole tree
sampled every 20 ms (apart: the sampling takes CPU from the command).
Prints a table and the targets:
load wall time <= 1/4 of `trace-cmd report > /dev/null`, and load's peak
anonymous memory not growing with the trace: measured on a sample (tens of
thousands of events), on the first million events of the big trace (cut
with `trace-cmd split`) and on the whole of it.  File-backed pages (the
uncompressed copy libtracecmd maps) are page cache the kernel can take back,
and are shown apart.
Then the commands that read a loaded database (summary, compare, timeline of
the run, report writing its bundle, compare on the bundle's evidence.db),
the same way, with their wall time as a fraction of load's (targets: report
<= 0.5, summary and compare <= 0.2), and the sizes of the database and of
report's evidence.db.
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


def measure(argv, poll=True):
    """(wall s, cpu s, peak RSS MB, peak anonymous RSS MB sampled every 20 ms).
    Unpolled (@poll False), the last is None: the sampling (a walk of /proc
    every 20 ms) takes CPU from a command that uses both CPUs of a 2-CPU
    machine, so timed runs are not sampled."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_anon = 0
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG if poll else 0)
        if pid:
            break
        peak_anon = max(peak_anon, anon_kb(proc.pid))
        time.sleep(0.02)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode(errors='replace')
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f'bench: {" ".join(argv)} failed: {err}')
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0, \
        peak_anon / 1024.0 if poll else None


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
        cmds = [[vr, 'load', '-q', '-d', db, big],
                [vr, 'load', '-q', '-d', db, '--low-memory', big],
                ['trace-cmd', 'report', '-i', big],
                [bare, 'percpu', big], [bare, 'merge', big], [bare, 'iterate', big]]
        for _ in range(rounds):
            for name, argv in zip(names, cmds):
                if os.path.exists(db):
                    os.unlink(db)
                samples[name].append(measure(argv, poll=False))
            ratios.append(samples[names[0]][-1][0] / samples[names[2]][-1][0])
        anon = {}	# one sampled run each, for its peak anonymous memory
        for name, argv in zip(names, cmds):
            if os.path.exists(db):
                os.unlink(db)
            anon[name] = measure(argv)[3]
        sizes = []	# (events, load's measure, load --low-memory's measure)
        part = os.path.join(tmp, 'part')
        subprocess.run(['trace-cmd', 'split', '-i', big, '-o', part, '-e', '1000000'],
                       check=True, capture_output=True)
        for path in ([small] if small else []) + [part + '.1']:
            db2 = os.path.join(tmp, 'size.db')
            plain = measure([vr, 'load', '-q', '-d', db2, path])
            os.unlink(db2)
            low = measure([vr, 'load', '-q', '-d', db2, '--low-memory', path])
            os.unlink(db2)
            sizes.append((count_events(bare, path), plain, low))
        after = measure_after_load(vr, big, tmp, rounds)
    rows = [(name, *median_row([m[:3] for m in samples[name]]), anon[name]) for name in names]
    print(f'trace: {big} ({os.path.getsize(big) / 1e6:.1f} MB, {nev} events);'
          f' medians of {rounds} interleaved rounds (peak anon: one more run each, sampled)')
    print(f'{"command":32s} {"wall s":>8s} {"cpu s":>8s} {"peak RSS MB":>12s} {"peak anon MB":>13s}')
    for name, wall, cpu, rss, anon in rows:
        print(f'{name:32s} {wall:8.2f} {cpu:8.2f} {rss:12.1f} {anon:13.1f}')
    load_wall, report_wall = rows[0][1], rows[2][1]
    print(f'load: {nev / load_wall:,.0f} events/s; load/report wall ratio {load_wall / report_wall:.3f}'
          f' (target <= 0.25: {"met" if load_wall <= report_wall / 4 else "NOT met"});'
          f' per round: {", ".join(f"{r:.3f}" for r in ratios)}')
    sizes.append((nev, rows[0][1:], rows[1][1:]))
    print('peak anonymous RSS MB by trace size (peak RSS of the largest process, with'
          ' file-backed pages, in brackets):')
    for events, plain, low in sizes:
        print(f'  {events:>9} events: load {plain[3]:6.1f} ({plain[2]:6.1f}),'
              f' load --low-memory {low[3]:6.1f} ({low[2]:6.1f})')
    if len(sizes) >= 2:
        grow = sizes[-1][1][3] / sizes[-2][1][3]
        print(f'load peak anonymous RSS on {sizes[-1][0]} events / on {sizes[-2][0]} events: {grow:.2f}'
              f' (flat: {"yes" if grow <= 1.15 else "NO"})')

    print_after_load(after, rows[0][1])


AFTER_NAMES = ['summary', 'compare', 'timeline --run 1', 'report -o DIR',
               'compare -d evidence.db']


def measure_after_load(vr, big, tmp, rounds):
    """Load @big once into a database of its own under @tmp, then time the
    commands that read it (@rounds interleaved rounds, medians; one more
    sampled run each for peak anonymous memory).  Returns (rows, db bytes,
    evidence.db bytes): rows are (name, wall s, cpu s, peak RSS MB, peak
    anon MB)."""
    db = os.path.join(tmp, 'after.db')
    subprocess.run([vr, 'load', '-q', '-d', db, '--kernel', 'big', big], check=True)
    out = os.path.join(tmp, 'bundle')
    evidence = os.path.join(out, 'evidence.db')

    def argv_of(name):
        return {'summary': [vr, 'summary', '-d', db],
                'compare': [vr, 'compare', '-d', db],
                'timeline --run 1': [vr, 'timeline', '-d', db, '--run', '1'],
                'report -o DIR': [vr, 'report', '-d', db, '-o', out],
                'compare -d evidence.db': [vr, 'compare', '-d', evidence]}[name]

    samples = {name: [] for name in AFTER_NAMES}
    anon = {}
    for r in range(rounds + 1):
        for name in AFTER_NAMES:
            if name.startswith('report') and os.path.exists(out):
                subprocess.run(['rm', '-rf', out], check=True)
            m = measure(argv_of(name), poll=(r == rounds))
            if r == rounds:
                anon[name] = m[3]
            else:
                samples[name].append(m[:3])
    rows = [(name, *median_row(samples[name]), anon[name]) for name in AFTER_NAMES]
    return rows, os.path.getsize(db), os.path.getsize(evidence)


def print_after_load(after, load_wall):
    """Print measure_after_load()'s table and the ratios to @load_wall (s)."""
    rows, db_bytes, evidence_bytes = after
    targets = {'summary': 0.2, 'compare': 0.2, 'report -o DIR': 0.5}
    print('after the load, on its database (medians as above):')
    print(f'{"command":32s} {"wall s":>8s} {"cpu s":>8s} {"peak RSS MB":>12s}'
          f' {"peak anon MB":>13s} {"wall/load":>10s}')
    for name, wall, cpu, rss, anon in rows:
        ratio = wall / load_wall
        goal = targets.get(name)
        verdict = f' (target <= {goal}: {"met" if ratio <= goal else "NOT met"})' if goal else ''
        print(f'{name:32s} {wall:8.2f} {cpu:8.2f} {rss:12.1f} {anon:13.1f} {ratio:10.3f}{verdict}')
    print(f'database {db_bytes / 1e6:.1f} MB, evidence.db {evidence_bytes / 1e6:.1f} MB')


if __name__ == '__main__':
    main()
