#!/usr/bin/env python3
"""bench.py VR BARE BIG BIG_V6 BIG_X3 BIG_X10 SMALL...: make bench's one
table (issue 28).

Every round runs each command once, in the same order (interleaved: this
machine is shared, so a ratio is taken within a round, between commands
that ran minutes apart at most); VR_BENCH_ROUNDS rounds (default 3).  Each
row gives the median over the rounds and their range [min-max]:
  - load of BIG (a fresh database) / `trace-cmd report -i BIG >/dev/null`;
  - load of BIG / the bare reader (tests/bench/bare-read.c fields: the
    CPUs merged in time order, each record's event found by id, three
    fields read) on BIG_V6, the uncompressed copy load reads from;
  - several small files: one load of SMALL... / the trace-cmd reports of
    each, summed;
  - load of BIG_X3 and BIG_X10 (BIG's events 3 and 10 times,
    make-scaled-trace.py) / load of BIG, and the peak RSS of each load (the
    largest process of its tree, file pages mapped included: what a user
    sees);
  - load of BIG with windows of 0.1 s (--window 0.1: thousands of
    reclaim_window rows) / load of BIG;
  - the database's size / BIG's;
  - the commands run after the load on BIG's database (right after it,
    before the other loads), / that load.
A round ends with VR_BENCH_SETTLE seconds (default 10) of rest, untimed:
after the 10x load the disk is busy for seconds.
Goals (issue 28) are printed beside: "met" or "NOT met", on the median.
VR_BENCH_BEFORE=BINARY adds a column of the same measures for another
vmscan-report (e.g. an earlier commit's), run in the same rounds after
this one, its ratios taken to the same round's trace-cmd report and bare
reader.
Times are wall seconds; CPU seconds (user + sys, children included) are
given for the absolute rows.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def measure(argv, stdout=subprocess.DEVNULL):
    """(wall s, cpu s, peak RSS MB of the largest process of the tree)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode(errors='replace')
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f'bench: {" ".join(argv)} failed: {err}')
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def fresh(path):
    if os.path.isdir(path):
        subprocess.run(['rm', '-rf', path], check=True)
    elif os.path.exists(path):
        os.unlink(path)
    return path


SETTLE_S = float(os.environ.get('VR_BENCH_SETTLE', '10'))
AFTER = ['summary', 'compare', 'timeline --run 1', 'report -o DIR', 'compare -d evidence.db']


def one_round(vr, bare, big, v6, x3, x10, small, tmp, shared=None):
    """One round: a dict of name -> value.  @shared: a round's result whose
    measures that do not depend on @vr (trace-cmd report, the bare reader)
    this one takes instead of measuring them again."""
    r = {}
    db = fresh(os.path.join(tmp, 'big.db'))
    r['load'] = measure([vr, 'load', '-q', '-d', db, big])
    r['db_bytes'] = os.path.getsize(db)
    # the commands after the load right after it, as a user runs them: right
    # after the 10x load (3 GB written, 860 MB deleted) the 37 fsyncs of
    # report -o DIR waited 0.2-0.4 s longer for the disk (sync(2) first did
    # not help; five seconds later they did not wait): that timed the disk
    # after the load before, not report
    out = os.path.join(tmp, 'bundle')
    argv = {'summary': [vr, 'summary', '-d', db], 'compare': [vr, 'compare', '-d', db],
            'timeline --run 1': [vr, 'timeline', '-d', db, '--run', '1'],
            'report -o DIR': [vr, 'report', '-d', db, '-o', out],
            'compare -d evidence.db': [vr, 'compare', '-d', os.path.join(out, 'evidence.db')]}
    fresh(out)
    for name in AFTER:
        r[name] = measure(argv[name])
    r['evidence_bytes'] = os.path.getsize(os.path.join(out, 'evidence.db'))
    if shared:
        for k in ('report', 'bare', 'small_report'):
            r[k] = shared[k]
    else:
        r['report'] = measure(['trace-cmd', 'report', '-i', big])
        r['bare'] = measure([bare, 'fields', v6])
    sdb = fresh(os.path.join(tmp, 'small.db'))
    r['small_load'] = measure([vr, 'load', '-q', '-d', sdb] + small)
    if not shared:
        walls = [measure(['trace-cmd', 'report', '-i', f])[0] for f in small]
        r['small_report'] = (sum(walls), 0.0, 0.0)
    wdb = fresh(os.path.join(tmp, 'window.db'))
    r['load_window'] = measure([vr, 'load', '-q', '--window', '0.1', '-d', wdb, big])
    os.unlink(wdb)
    for name, path in (('x3', x3), ('x10', x10)):
        xdb = fresh(os.path.join(tmp, name + '.db'))
        r[name] = measure([vr, 'load', '-q', '-d', xdb, path])
        os.unlink(xdb)
    # the disk (this machine's is virtual) takes seconds to settle after
    # the 10x load; the next round's first commands would time that
    time.sleep(SETTLE_S)
    return r


def stat(values):
    return statistics.median(values), min(values), max(values)


def main():
    vr, bare, big, v6, x3, x10 = sys.argv[1:7]
    small = sys.argv[7:]
    rounds = int(os.environ.get('VR_BENCH_ROUNDS', '3'))
    before = os.environ.get('VR_BENCH_BEFORE')
    res, res_before = [], []
    with tempfile.TemporaryDirectory(dir='/var/tmp') as tmp:
        for i in range(rounds):
            res.append(one_round(vr, bare, big, v6, x3, x10, small, tmp))
            if before:
                res_before.append(one_round(before, bare, big, v6, x3, x10, small, tmp,
                                            shared=res[-1]))
            print(f'bench: round {i + 1} of {rounds} done', file=sys.stderr)
    trace_bytes = os.path.getsize(big)
    nev = subprocess.run([bare, 'merge', v6], capture_output=True, text=True,
                         check=True).stdout.strip()
    print(f'make bench: {big} ({trace_bytes / 1e6:.1f} MB, {nev} events), x3 and x10 made of it'
          f' (make-scaled-trace.py), {len(small)} small files; {rounds} interleaved rounds:'
          f' median [min-max]')
    if before:
        print(f'before: {before} (median [min-max] in its column), after: {vr}')
        print(f'{"measure":44s} {"before":>9s} {"range":>19s} {"after":>9s} {"range":>19s}  goal')
    else:
        print(f'{"measure":44s} {"median":>9s} {"range":>19s}  goal')
    rows = []

    def row(name, values, fmt, goal=None, ok=None):
        # @values: the rounds' results -> one value per round
        def cell(vals):
            med, lo, hi = stat(vals)
            rng = '[' + fmt.format(lo) + '-' + fmt.format(hi) + ']'
            return med, f'{fmt.format(med):>9s} {rng:>19s}'
        med, text = cell(values(res))
        if before:
            text = cell(values(res_before))[1] + ' ' + text
        verdict = ''
        if goal:
            verdict = f'{goal}: {"met" if ok(med) else "NOT met"}'
        rows.append(f'{name:44s} {text}  {verdict}')

    row('load, wall s', lambda rs: [r['load'][0] for r in rs], '{:.2f}')
    row('load, cpu s', lambda rs: [r['load'][1] for r in rs], '{:.2f}')
    row('trace-cmd report >/dev/null, wall s', lambda rs: [r['report'][0] for r in rs], '{:.2f}')
    row('bare reader (fields, uncompressed), wall s', lambda rs: [r['bare'][0] for r in rs], '{:.2f}')
    row('load / trace-cmd report', lambda rs: [r['load'][0] / r['report'][0] for r in rs], '{:.3f}',
        '<= 0.20', lambda v: v <= 0.20)
    row('load / bare reader', lambda rs: [r['load'][0] / r['bare'][0] for r in rs], '{:.2f}',
        '<= 1.3', lambda v: v <= 1.3)
    row(f'{len(small)} small files: load / trace-cmd report',
        lambda rs: [r['small_load'][0] / r['small_report'][0] for r in rs], '{:.3f}',
        '<= 0.30', lambda v: v <= 0.30)
    row('load x3 / load x1, wall', lambda rs: [r['x3'][0] / r['load'][0] for r in rs], '{:.2f}')
    row('load x10 / load x1, wall', lambda rs: [r['x10'][0] / r['load'][0] for r in rs], '{:.2f}',
        '<= 10.5', lambda v: v <= 10.5)
    row('load --window 0.1 / load, wall', lambda rs: [r['load_window'][0] / r['load'][0] for r in rs],
        '{:.2f}')
    row('load x1 peak RSS MB', lambda rs: [r['load'][2] for r in rs], '{:.0f}')
    row('load x3 peak RSS MB', lambda rs: [r['x3'][2] for r in rs], '{:.0f}')
    row('load x10 peak RSS MB', lambda rs: [r['x10'][2] for r in rs], '{:.0f}', '< 300', lambda v: v < 300)
    row('database / trace size', lambda rs: [r['db_bytes'] / trace_bytes for r in rs], '{:.3f}',
        '<= 4', lambda v: v <= 4)
    row('evidence.db MB', lambda rs: [r['evidence_bytes'] / 1e6 for r in rs], '{:.1f}')
    for name in AFTER:
        row(f'{name} / load', lambda rs, name=name: [r[name][0] / r['load'][0] for r in rs],
            '{:.3f}',
            '<= 0.5', lambda v: v <= 0.5)
    for line in rows:
        print(line)


if __name__ == '__main__':
    main()
