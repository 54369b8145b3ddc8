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

--report-while-loading T: T databases into each of which a loop of loads
commits runs while 3 reports are written: every bundle's files (runs.txt,
evidence.db, summary.txt, the timelines of MANIFEST, compare.txt's kernels)
name the same runs, each file as MANIFEST says, or report exits 1 saying
the database kept changing, nothing written.

--rename-signals: SIGKILL, SIGINT, SIGTERM and SIGHUP at each rename by
which report puts its bundle in place (tests/crash-preload.c): the
directory is the old bundle or the new, whole, and said so; the next report
writes the new one whole.

--sigint S: S loads that must stop within a second of SIGINT (a copy of
SAMPLE followed by zeros to 2 GiB, sparse; SAMPLE with libtracecmd's reads
made deaf to the interrupt): exit 1 within 2 s of the signal, the database
as it was.

--schemas: hand edits of a loaded database (derived and event tables
dropped or renamed, a run row deleted, columns, tables, views, triggers and
indexes of the user's, a table of the user's named evidence, a newer schema
version), then a load and a report: the load refuses (exit 1, database
unchanged) or loads the whole run as the edit calls for, and evidence.db
carries nothing of the user's.

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
import threading
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
    """Rows per event name stored for @run_id, counted in the tables (or the
    views that stand for a per-event table, as mm_shrink_slab_start/_end
    since one row holds both halves of a shrinker call)."""
    con = sqlite3.connect(f'file:{db}?mode=ro', uri=True)
    tables = {r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
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


# ---- the kinds of issue 27: report while loads commit, signals at each
# rename of the bundle, a load that must stop within a second, hand-edited
# schemas.  Each is judged by what the files say, read here.

def text_trace(pid):
    """A small text trace: kswapd wakes, one direct stall of pid @pid, kswapd sleeps."""
    return (f' kswapd0-52    [000]   100.000100: mm_vmscan_kswapd_wake: nid=0 order=0\n'
            f'     dd-{pid}  [001]   100.000200: mm_vmscan_direct_reclaim_begin: order=0'
            f' gfp_flags=GFP_KERNEL\n'
            f'     dd-{pid}  [001]   100.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=30\n'
            f' kswapd0-52    [000]   100.002000: mm_vmscan_kswapd_sleep: nid=0\n')


def manifest(d):
    """{name: sha256} of DIR/MANIFEST (sha256sum lines after its first), None if unreadable."""
    try:
        lines = open(os.path.join(d, 'MANIFEST')).read().splitlines()[1:]
    except OSError:
        return None
    return {l[66:]: l[:64] for l in lines if len(l) > 66}


def whole(d):
    """'' if DIR is one whole bundle (no temporary, every file as MANIFEST says, no other
    file), else what is wrong."""
    names = os.listdir(d)
    tmp = [n for n in names if n.startswith('.vmscan-report-')]
    if tmp:
        return f'temporaries left: {tmp[:3]}'
    m = manifest(d)
    if m is None:
        return 'no MANIFEST'
    for n, h in m.items():
        try:
            if hashlib.sha256(open(os.path.join(d, n), 'rb').read()).hexdigest() != h:
                return f'{n} is not the file MANIFEST lists'
        except OSError:
            return f'{n} listed, missing'
    extra = set(names) - set(m) - {'MANIFEST'}
    return f'files not listed: {sorted(extra)[:3]}' if extra else ''


def bundle_runs(d):
    """The runs each file of bundle DIR names: '' if they agree, else what differs."""
    bad = whole(d)
    if bad:
        return bad
    runs = [int(l.split()[0]) for l in open(os.path.join(d, 'runs.txt')).read().splitlines()[1:]
            if l.strip()]
    con = sqlite3.connect(f'file:{os.path.join(d, "evidence.db")}?mode=ro', uri=True)
    ev = [r[0] for r in con.execute('SELECT id FROM run ORDER BY id')]
    con.close()
    summ = [int(m.group(1)) for m in re.finditer(r'^run (\d+): ', open(os.path.join(d, 'summary.txt')).read(), re.M)]
    tl = sorted(int(m.group(1)) for n in manifest(d) for m in [re.match(r'timeline-run-(\d+)\.png$', n)] if m)
    kernels = set()
    for l in open(os.path.join(d, 'compare.txt')).read().splitlines():
        if re.match(r'^ +k\d+( +k\d+)* *$', l):
            kernels.update(l.split())
    seen = {'runs.txt': runs, 'evidence.db': ev, 'summary.txt': summ, 'timelines': tl}
    if any(v != runs for v in seen.values()) or len(kernels) != len(runs):
        return f'mixes states: {seen}, compare.txt kernels {len(kernels)}'
    return ''


def report_while_loading(vr, work, trials, rng):
    """@trials times: a database of 2 runs into which a loop of loads commits 12 more while
    3 reports are written; (bundles written, refused, failures)."""
    written = refused = 0
    fails = []
    for t in range(trials):
        d = os.path.join(work, f'rwl-{t}')
        os.makedirs(d)
        db = os.path.join(d, 'a.db')
        paths = []
        for i in range(1, 15):
            p = os.path.join(d, f't{i}.txt')
            with open(p, 'w') as f:
                f.write(text_trace(1000 + i))
            paths.append(p)
        for i in (0, 1):
            load_args(vr, db, paths[i], ['--kernel', f'k{i + 1}'])
        stop = []

        def loader():
            for i in range(2, len(paths)):
                if stop:
                    break
                load_args(vr, db, paths[i], ['--kernel', f'k{i + 1}'])
                time.sleep(rng.uniform(0, 0.3))
        th = threading.Thread(target=loader)
        th.start()
        for k in range(3):
            out = os.path.join(d, f'b{k}')
            p = subprocess.run([vr, 'report', '-q', '-d', db, '-o', out], capture_output=True,
                               text=True, errors='replace', timeout=600)
            if p.returncode == 0:
                written += 1
                bad = bundle_runs(out)
                if bad:
                    fails.append(f'report while loading {t}.{k}: {bad}')
            elif p.returncode == 1 and 'changed while the bundle was being written' in p.stderr \
                    and not os.path.exists(os.path.join(out, 'MANIFEST')):
                refused += 1
            else:
                fails.append(f'report while loading {t}.{k}: exit {p.returncode}: {p.stderr[-200:]!r}')
        stop.append(1)
        th.join()
        shutil.rmtree(d, ignore_errors=True)
    return written, refused, fails


def load_args(vr, db, path, args, env=None, timeout=600):
    p = subprocess.run([vr, 'load', '-q', '-d', db] + args + [path], capture_output=True,
                       text=True, errors='replace', timeout=timeout, env=env)
    return p.returncode, p.stderr


def preload_lib(work):
    """tests/crash-preload.c built into @work (its path), or None without a C compiler."""
    so = os.path.join(work, 'crash.so')
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'crash-preload.c')
    if not os.path.exists(so) and subprocess.run(['cc', '-shared', '-fPIC', '-o', so, src, '-ldl'],
                                                 capture_output=True).returncode:
        return None
    return so


def rename_signals(vr, work):
    """SIGKILL, SIGINT, SIGTERM and SIGHUP at each rename by which report puts its bundle in
    place (crash-preload.c VR_SIGNAL_RENAME; SIGKILL at each, the others at the first two, one in
    the middle and the last): the old bundle or the new, whole, said so, and the next report
    writes the new one whole; (trials, failures)."""
    so = preload_lib(work)
    if not so:
        return 0, ['rename signals: no C compiler for crash-preload.c']
    d0 = os.path.join(work, 'ren')
    os.makedirs(d0)
    db = os.path.join(d0, 'a.db')
    for i in (1, 2):
        with open(os.path.join(d0, f't{i}.txt'), 'w') as f:
            f.write(text_trace(1000 + i))
    old, new = os.path.join(d0, 'old'), os.path.join(d0, 'new')
    load_args(vr, db, os.path.join(d0, 't1.txt'), [])
    subprocess.run([vr, 'report', '-q', '-d', db, '-o', old], check=True, capture_output=True)
    load_args(vr, db, os.path.join(d0, 't2.txt'), [])
    shutil.copytree(old, new)
    subprocess.run([vr, 'report', '-q', '-d', db, '-o', new], check=True, capture_output=True)
    n = len(manifest(new)) + 2
    trials, fails = 0, []
    for sig in (signal.SIGKILL, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        # SIGKILL at every rename; the signals report catches at the first two,
        # one in the middle and the last
        for k in range(1, n + 1) if sig == signal.SIGKILL else sorted({1, 2, n // 2, n}):
            trials += 1
            d = os.path.join(d0, 'd')
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(old, d)
            env = dict(os.environ, VR_SIGNAL_RENAME=f'{k},{int(sig)}', LD_PRELOAD=so)
            p = subprocess.run([vr, 'report', '-q', '-d', db, '-o', d], capture_output=True,
                               text=True, errors='replace', env=env, timeout=600)
            what = f'rename signals: {sig.name} at rename {k}'
            bad = whole(d)
            m = manifest(d) or {}
            if p.returncode != 1 or bad:
                fails.append(f'{what}: exit {p.returncode}, {bad or "whole"}: {p.stderr[-200:]!r}')
            elif any('timeline-run-2' in x for x in m):
                if 'the bundle is the new one, whole' not in p.stderr:
                    fails.append(f'{what}: the new bundle, not said: {p.stderr[-200:]!r}')
            elif m != manifest(old) or 'the directory is as it was' not in p.stderr:
                fails.append(f'{what}: neither the old bundle nor said: {p.stderr[-200:]!r}')
            elif 'inside the libraries' in p.stderr:
                fails.append(f'{what}: called a crash: {p.stderr[-200:]!r}')
            p = subprocess.run([vr, 'report', '-q', '-d', db, '-o', d], capture_output=True,
                               text=True, errors='replace', timeout=600)
            if p.returncode != 0 or whole(d) or set(manifest(d) or {}) != set(manifest(new)):
                fails.append(f'{what}: the next report: exit {p.returncode}, {whole(d)}:'
                             f' {p.stderr[-200:]!r}')
    return trials, fails


def sparse_sigint(vr, work, sample, base_db, trials, rng):
    """Loads that must stop within a second of SIGINT: @sample followed by zeros to 2 GiB (a
    sparse copy) and @sample made deaf to the interrupt inside libtracecmd (crash-preload.c
    VR_HANG_READ), each sent SIGINT at a random moment: exit 1, within 1 s and a margin of
    the signal (or, sent before load set its handler, ended by it), the database as it was;
    (trials, slowest stop in s, ended by the signal itself, failures)."""
    so = preload_lib(work)
    pad = os.path.join(work, 'sparse.dat')
    shutil.copy(sample, pad)
    os.truncate(pad, 2 << 30)
    db = os.path.join(work, 's.db')
    slowest, fails, early = 0.0, [], 0
    for t in range(trials):
        shutil.copy(base_db, db)
        before = content(db)
        deaf = so and t % 2
        mark = os.path.join(work, f'hanging-{t}')
        env = dict(os.environ, VR_HANG_READ=os.path.basename(sample), VR_HANG_MARK=mark,
                   LD_PRELOAD=so) if deaf else None
        path = sample if deaf else pad
        p = subprocess.Popen([vr, 'load', '-q', '-d', db, path], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, errors='replace', env=env,
                             start_new_session=True)
        if deaf:
            for _ in range(1200):
                if os.path.exists(mark) or p.poll() is not None:
                    break
                time.sleep(0.05)
        else:
            time.sleep(rng.uniform(0, 0.6))
        sent = time.monotonic()
        if p.poll() is None:
            os.kill(p.pid, signal.SIGINT)
        try:
            _, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
            fails.append(f'sparse sigint {t}: still running 60 s after SIGINT')
            continue
        took = time.monotonic() - sent
        slowest = max(slowest, took)
        kind = 'deaf' if deaf else 'sparse'
        # a SIGINT before load has set its handler ends it by the signal: nothing was written
        if p.returncode == -signal.SIGINT and content(db) == before:
            early += 1
        elif p.returncode != 1:
            fails.append(f'sparse sigint {t} ({kind}): exit {p.returncode}: {err[-200:]!r}')
        elif took > 1.0 + 1.0:
            fails.append(f'sparse sigint {t} ({kind}): stopped {took:.2f} s after SIGINT')
        elif content(db) != before:
            fails.append(f'sparse sigint {t} ({kind}): the database changed')
    return trials, slowest, early, fails


# Hand edits of a loaded database: (name, SQL, what a load must do: 'refuse' or 'load',
# names and bytes of the user's that evidence.db must not carry).
EDITS = [
    ('drop reclaim_stall', 'DROP TABLE reclaim_stall', 'refuse', []),
    ('drop kswapd_cycle', 'DROP TABLE kswapd_cycle', 'refuse', []),
    ('drop task', 'DROP TABLE task', 'refuse', []),
    ('drop an event table', 'DROP TABLE mm_vmscan_kswapd_wake', 'refuse', []),
    ('rename a derived table', 'ALTER TABLE reclaim_stall RENAME TO my_stalls', 'refuse', []),
    ('run row deleted', 'DELETE FROM run WHERE id = 1', 'load', []),
    ('user columns', "ALTER TABLE run ADD COLUMN my_note TEXT; UPDATE run SET my_note = 'S3CRET';"
     ' ALTER TABLE reclaim_stall ADD COLUMN my_flag INTEGER DEFAULT 7', 'load',
     ['my_note', 'my_flag', 'S3CRET']),
    ('user table evidence', "CREATE TABLE evidence (note TEXT); INSERT INTO evidence VALUES ('S3CRET')",
     'load', ['S3CRET']),
    ('user objects', "CREATE TABLE private (secret TEXT); INSERT INTO private VALUES ('S3CRET');"
     ' CREATE VIEW my_view AS SELECT secret FROM private; CREATE TABLE audit (id INTEGER);'
     ' CREATE TRIGGER my_trigger AFTER INSERT ON run BEGIN INSERT INTO audit VALUES (new.id); END;'
     ' CREATE INDEX my_index ON reclaim_stall (kind)', 'load',
     ['private', 'my_view', 'audit', 'my_trigger', 'my_index', 'S3CRET']),
    ('index dropped', 'DROP INDEX task_time', 'load', []),
    ('newer schema version', 'PRAGMA user_version = 99', 'refuse', []),
]


def schemas(vr, work, sample, base_db, want):
    """Each of EDITS on a copy of @base_db, then a load of @sample and a report: the load
    refuses (exit 1, database unchanged) or loads the whole run as EDITS says, never crashes;
    report exits 0 or 1 and its evidence.db carries none of the user's names or bytes;
    (trials, failures)."""
    fails = []
    for name, sql, expect, private in EDITS:
        db = os.path.join(work, 'e.db')
        shutil.copy(base_db, db)
        con = sqlite3.connect(db)
        con.executescript(sql)
        con.commit()
        con.close()
        before, before_ids = content(db), run_ids(db)
        rc, err = load_args(vr, db, sample, [])
        what = f'schema "{name}"'
        if rc not in (0, 1):
            fails.append(f'{what}: load exit {rc}: {err[-200:]!r}')
        elif expect == 'refuse' and (rc != 1 or content(db) != before):
            fails.append(f'{what}: load exit {rc}, not refused with the database unchanged:'
                         f' {err[-200:]!r}')
        elif expect == 'load' and rc != 0:
            fails.append(f'{what}: load exit {rc}: {err[-200:]!r}')
        elif expect == 'load':
            rid = new_run(db, before_ids)
            got = run_rows(db, rid, want) if rid else None
            con = sqlite3.connect(db)
            orphans = con.execute('SELECT count(*) FROM reclaim_stall WHERE run_id NOT IN'
                                  ' (SELECT id FROM run)').fetchone()[0]
            con.close()
            if got != want or orphans:
                fails.append(f'{what}: loaded {sum((got or {}).values())} of'
                             f' {sum(want.values())} events, {orphans} orphan stalls')
        out = os.path.join(work, 'e-bundle')
        shutil.rmtree(out, ignore_errors=True)
        p = subprocess.run([vr, 'report', '-q', '-d', db, '-o', out], capture_output=True,
                           text=True, errors='replace', timeout=600)
        if p.returncode not in (0, 1):
            fails.append(f'{what}: report exit {p.returncode}: {p.stderr[-200:]!r}')
        elif p.returncode == 0:
            ev = os.path.join(out, 'evidence.db')
            con = sqlite3.connect(f'file:{ev}?mode=ro', uri=True)
            names = {r[0] for r in con.execute('SELECT name FROM sqlite_master')}
            for t in [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]:
                names |= {r[1] for r in con.execute(f'PRAGMA table_info("{t}")')}
            con.close()
            blob = open(ev, 'rb').read()
            leak = [x for x in private if x in names or x.encode() in blob]
            if leak:
                fails.append(f'{what}: evidence.db carries {leak}')
    return len(EDITS), fails


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
    ap.add_argument('--report-while-loading', type=int, default=0)
    ap.add_argument('--rename-signals', action='store_true')
    ap.add_argument('--sigint', type=int, default=0)
    ap.add_argument('--schemas', action='store_true')
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
        extra = []
        if a.report_while_loading:
            w, r, f = report_while_loading(a.vr, work, a.report_while_loading, rng)
            extra.append(f'report while loading: {w + r} bundles ({w} written, {r} refused)')
            failures += f
        if a.rename_signals:
            n, f = rename_signals(a.vr, work)
            extra.append(f'rename signals: {n}')
            failures += f
        if a.sigint:
            n, slowest, early, f = sparse_sigint(a.vr, work, a.sample, base_db, a.sigint, rng)
            extra.append(f'SIGINT stops: {n} (slowest {slowest:.2f} s, {early} before load'
                         f' caught it)')
            failures += f
        if a.schemas:
            n, f = schemas(a.vr, work, a.sample, base_db, want)
            extra.append(f'hand-edited schemas: {n}')
            failures += f
    for f in failures:
        print('FAIL', f)
    print(f'mutants: {a.count} (seed {a.seed}), ' +
          ', '.join(f'{k} {v}' for k, v in sorted(outcomes.items())) +
          (f'; kills: {a.kills} ({killed} killed while loading)' if a.kills else '') +
          (f'; concurrent loads: {len(conc)}, exit 0: {sum(1 for c in conc if c[1] == 0)}'
           if conc else '') +
          ''.join(f'; {e}' for e in extra) +
          f'; failures: {len(failures)}')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
