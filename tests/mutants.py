#!/usr/bin/env python3
"""Seeded mutation test of `vmscan-report load`: never a silent partial run.

Each mutant is a copy of SAMPLE (a trace.dat) with one seeded corruption:
a flipped byte, a zeroed 4 KiB block, 8 bytes of 0xff, or the file cut
short; most land in the CPU data (for a compressed file: its zstd chunks),
where the trace-cmd dump of the file's options says it is, the rest
anywhere.  Each is loaded into a copy of a database that already holds a
run, and the outcome is judged by this script alone:

  refused   exit 1, a message naming the file, and the database content
            unchanged (every table's rows, compared as an SQL dump), or
  complete  exit 0 and the new run holds as many rows of each event type as
            `trace-cmd report` prints for the intact SAMPLE (or, when the
            corruption renamed events in the formats, as it prints for the
            mutant, with the intact total),

anything else (exit 0 with events missing, exit 1 with the database
changed, a crash, another exit status, a hang) is a failure.  The expected
counts come from trace-cmd only; nothing here reuses vmscan-report's code.

--kills K: K loads of an intact trace into the database, each killed with
SIGKILL at a random moment; afterwards the runs committed before must be
there unchanged, `runs` must work (after a write rolls the journal back)
and PRAGMA integrity_check must say ok.

--concurrent C: C loads at once into one new database (C distinct files:
the intact sample, the base sample and mutants); each load that exited 0
must have its run with the right counts, none that failed may have left
one, and no run may be missing.

Prints one line per failure and a summary line of figures; exit 1 if any
failure was found.
"""
import argparse
import collections
import hashlib
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

LINE = re.compile(r'^(?P<pre>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?'
                  r'(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):')


def report_counts(path):
    """Events per name as `trace-cmd report` prints them (whatever its exit)."""
    proc = subprocess.run(['trace-cmd', 'report', '-R', '-t', '-i', path],
                          capture_output=True, text=True, errors='replace', timeout=120)
    return collections.Counter(m.group('ev') for m in map(LINE.match, proc.stdout.splitlines())
                               if m)


def data_extents(path):
    """(offset, size) of every CPU's data, from `trace-cmd dump --options`
    (version 7: the BUFFER options) or `--flyrecord` (version 6)."""
    out = []
    for opt in ('--options', '--flyrecord'):
        proc = subprocess.run(['trace-cmd', 'dump', opt, path], capture_output=True,
                              text=True, errors='replace')
        for line in proc.stdout.splitlines():
            m = re.match(r'^\s+\d+\s+(\d+)\s+(\d+)\s+\[id, data offset and size\]', line)
            if m:
                out.append((int(m.group(1)), int(m.group(2))))
        if out:
            return out
    return []


def mutate(data, extents, rng):
    """One seeded corruption of @data (bytes); returns (bytes, description)."""
    d = bytearray(data)
    kind = rng.choice(['flip', 'flip', 'flip', 'zero4k', 'zero4k', 'ff8', 'truncate'])
    if extents and kind != 'truncate' and rng.random() < 0.75:
        off, size = rng.choice(extents)
        pos = off + rng.randrange(max(1, size))
    else:
        pos = rng.randrange(len(d))
    if kind == 'flip':
        d[pos] ^= rng.randrange(1, 256)
    elif kind == 'zero4k':
        d[pos:pos + 4096] = bytes(len(d[pos:pos + 4096]))
    elif kind == 'ff8':
        d[pos:pos + 8] = b'\xff' * len(d[pos:pos + 8])
    else:
        del d[pos:]
    return bytes(d), f'{kind}@{pos}'


def content(db):
    """SHA-256 of every row of every table (the SQL dump), None if unreadable."""
    try:
        con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
        h = hashlib.sha256()
        for line in con.iterdump():
            h.update(line.encode())
        con.close()
        return h.hexdigest()
    except sqlite3.Error:
        return None


def run_rows(db, run_id, names):
    """Rows per event name stored for @run_id, counted in the tables."""
    con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    got = collections.Counter()
    for name in names:
        if name in tables:
            n = con.execute(f'SELECT count(*) FROM "{name}" WHERE run_id=?', (run_id,)).fetchone()[0]
        else:
            n = con.execute('SELECT count(*) FROM other_event WHERE run_id=? AND name=?',
                            (run_id, name)).fetchone()[0]
        if n:
            got[name] = n
    other = con.execute('SELECT name, count(*) FROM other_event WHERE run_id=? GROUP BY name',
                        (run_id,)).fetchall()
    con.close()
    for name, n in other:
        got[name] = n
    return got


def new_run(db, before):
    con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
    ids = [r[0] for r in con.execute('SELECT id FROM run ORDER BY id')]
    con.close()
    new = [i for i in ids if i not in before]
    return new[0] if len(new) == 1 else None


def run_ids(db):
    con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
    ids = [r[0] for r in con.execute('SELECT id FROM run ORDER BY id')]
    con.close()
    return ids


def load(vr, db, path, timeout):
    try:
        p = subprocess.run([vr, 'load', '-q', '-d', db, path], capture_output=True, text=True,
                           errors='replace', timeout=timeout)
        return p.returncode, p.stderr.strip()
    except subprocess.TimeoutExpired:
        return 'timeout', ''


def judge(vr, work, base_db, path, want, timeout):
    """Load @path into a copy of @base_db: (outcome, detail)."""
    db = os.path.join(work, 'm.db')
    shutil.copy(base_db, db)
    before_ids = run_ids(db)
    before = content(db)
    rc, err = load(vr, db, path, timeout)
    last = err.splitlines()[-1] if err else ''
    if rc == 1 and f'vmscan-report: {path}' not in err:
        return 'fail', f'exit 1 without a message naming the file: {err[-200:]!r}'
    if rc == 1:
        return ('refused', last) if content(db) == before else ('fail', f'exit 1, database changed: {last}')
    if rc != 0:
        return 'fail', f'exit {rc}: {last}'
    rid = new_run(db, before_ids)
    if rid is None:
        return 'fail', 'exit 0 without a new run'
    got = run_rows(db, rid, want)
    if got == want:
        return 'complete', ''
    theirs = report_counts(path)
    if got == theirs and sum(got.values()) == sum(want.values()):
        return 'complete', 'renamed'
    missing = {k: want[k] - got.get(k, 0) for k in want if got.get(k, 0) != want[k]}
    return 'fail', (f'exit 0 with {sum(got.values())} of {sum(want.values())} events;'
                    f' per type (intact - stored): {dict(list(missing.items())[:4])}')


def kills(vr, work, base_db, sample, n, rng):
    """SIGKILL loads at random moments: (loads killed, failures)."""
    db = os.path.join(work, 'k.db')
    shutil.copy(base_db, db)
    con = sqlite3.connect(db)
    keep = list(con.execute('SELECT id, content_sha256, event_count FROM run ORDER BY id'))
    con.close()
    fails, killed = [], 0
    start = time.monotonic()
    load(vr, db, sample, 600)
    took = time.monotonic() - start	# a whole load: kills land inside it
    shutil.copy(base_db, db)
    for i in range(n):
        p = subprocess.Popen([vr, 'load', '-q', '-d', db, sample], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0, took))
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            killed += 1
        p.wait()
        # a write connection rolls a hot journal back (a read-only one cannot)
        con = sqlite3.connect(db)
        now = list(con.execute('SELECT id, content_sha256, event_count FROM run ORDER BY id'))
        ok = con.execute('PRAGMA integrity_check').fetchone()[0]
        con.close()
        r = subprocess.run([vr, 'runs', '-d', db], capture_output=True, text=True)
        if r.returncode != 0 or ok != 'ok' or now[:len(keep)] != keep or len(now) > len(keep) + 1:
            fails.append(f'kill {i}: runs exit {r.returncode}, integrity {ok}, runs {now}')
        if len(now) > len(keep):	# it finished before the kill: start from the base again
            shutil.copy(base_db, db)
    return killed, fails


def concurrent(vr, work, files, want_by_file, timeout):
    """Load @files at once into one new database; (outcomes, failures)."""
    db = os.path.join(work, 'c.db')
    procs = [(f, subprocess.Popen([vr, 'load', '-q', '-d', db, f], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True, errors='replace'))
             for f in files]
    res = []
    for f, p in procs:
        try:
            _, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
        res.append((f, p.returncode, err.strip()))
    fails = []
    if not os.path.exists(db):
        return res, [f'concurrent: the database is gone ({[r[1] for r in res]})']
    con = sqlite3.connect(db)
    runs = {r[0]: r[1] for r in con.execute('SELECT source_path, id FROM run')}
    con.close()
    for f, rc, err in res:
        if rc == 0 and f not in runs:
            fails.append(f'concurrent: {os.path.basename(f)} exit 0 but no run')
        elif rc == 0 and want_by_file.get(f) is not None:
            got = run_rows(db, runs[f], want_by_file[f])
            if got != want_by_file[f] and sum(got.values()) != sum(want_by_file[f].values()):
                fails.append(f'concurrent: {os.path.basename(f)} exit 0 with {sum(got.values())}'
                             f' of {sum(want_by_file[f].values())} events')
        elif rc != 0 and f in runs:
            fails.append(f'concurrent: {os.path.basename(f)} exit {rc} but its run is there')
        elif rc not in (0, 1):
            fails.append(f'concurrent: {os.path.basename(f)} exit {rc}: {err[-200:]}')
    return res, fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('vr')
    ap.add_argument('sample')
    ap.add_argument('base', help='a trace the database holds before each load')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=30)
    ap.add_argument('--kills', type=int, default=0)
    ap.add_argument('--concurrent', type=int, default=0)
    ap.add_argument('--timeout', type=int, default=120)
    ap.add_argument('--keep', help='directory to copy failing mutants to')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    data = open(a.sample, 'rb').read()
    extents = data_extents(a.sample)
    want = report_counts(a.sample)
    if not want:
        sys.exit(f'{a.sample}: trace-cmd report prints no events')
    outcomes = collections.Counter()
    failures = []
    with tempfile.TemporaryDirectory() as work:
        base_db = os.path.join(work, 'base.db')
        rc, err = load(a.vr, base_db, a.base, a.timeout)
        if rc != 0:
            sys.exit(f'{a.base}: the base load failed ({rc}): {err}')
        mutants = []
        for i in range(a.count):
            blob, what = mutate(data, extents, random.Random(a.seed * 100003 + i))
            path = os.path.join(work, f'mutant-{i}.dat')
            with open(path, 'wb') as f:
                f.write(blob)
            mutants.append(path)
            outcome, detail = judge(a.vr, work, base_db, path, want, a.timeout)
            outcomes[outcome + ('-renamed' if detail == 'renamed' else '')] += 1
            if outcome == 'fail':
                failures.append(f'mutant {i} ({what}): {detail}')
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    shutil.copy(path, os.path.join(a.keep, f'mutant-{a.seed}-{i}.dat'))
        killed = 0
        if a.kills:
            killed, f = kills(a.vr, work, base_db, a.sample, a.kills, rng)
            failures += f
        conc = []
        if a.concurrent:
            files = [a.sample, a.base] + mutants[:max(0, a.concurrent - 2)]
            copies = []
            for j, f in enumerate(files[:a.concurrent]):
                c = os.path.join(work, f'conc-{j}.dat')
                shutil.copy(f, c)
                copies.append(c)
            wants = {copies[0]: want, copies[1]: report_counts(a.base)}
            conc, f = concurrent(a.vr, work, copies, wants, a.timeout)
            failures += f
    for f in failures:
        print('FAIL', f)
    print(f'mutants: {a.count} (seed {a.seed}), ' +
          ', '.join(f'{k} {v}' for k, v in sorted(outcomes.items())) +
          (f'; kills: {a.kills} ({killed} killed while loading)' if a.kills else '') +
          (f'; concurrent loads: {len(conc)}, exit 0: {sum(1 for c in conc if c[1] == 0)}'
           if conc else '') +
          f'; failures: {len(failures)}')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
