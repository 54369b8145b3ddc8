#!/usr/bin/env python3
"""Independent check of `vmscan-report load` against `trace-cmd report`.

For each trace.dat given: load it into a fresh database with vmscan-report,
then read the same file with `trace-cmd report -R -t` (raw field values,
nanosecond timestamps) and check
  1. the number of events of each type equals what trace-cmd prints
     (run_event_count and COUNT(*) of each event table),
  2. for N randomly chosen events (seeded, spread over every event type), the
     row stored for (ts_ns, cpu, pid) holds the field values trace-cmd prints.
Expected values come from trace-cmd only; nothing here reuses the loader's code.
Exit 0 when everything matches, 1 otherwise (mismatches are printed).
"""
import collections
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile

from tracecmd_text import raw_events

FIELD = re.compile(r'(\w+)=')
# columns renamed by the schema because they clash with the common columns
RENAMED = {('sched_wakeup', 'pid'): 'wakee_pid', ('sched_waking', 'pid'): 'wakee_pid'}


def parse_body(body):
    """'a=1 b=x y c=0x10' -> {'a': '1', 'b': 'x y', 'c': '0x10'}."""
    out = {}
    marks = [(m.start(), m.group(1)) for m in FIELD.finditer(body)
             if m.start() == 0 or body[m.start() - 1] == ' ']
    for i, (pos, name) in enumerate(marks):
        start = pos + len(name) + 1
        end = marks[i + 1][0] - 1 if i + 1 < len(marks) else len(body)
        out[name] = body[start:end]
    return out


def as_int(text):
    text = text.strip()
    if text.lower().startswith(('0x', '-0x')):
        return int(text, 16)
    return int(text, 10)


def report(path):
    """Yield (event, ts_ns, cpu, pid, fields) for every event line."""
    for ev, ts_ns, cpu, pid, body in raw_events(path):
        yield ev, ts_ns, cpu, pid, parse_body(body)


SYM = re.compile(r'^([A-Za-z_][\w.]*)\+0x[0-9a-f]+$')


def field_ok(name, key, value, row):
    """A field as trace-cmd printed it equals the stored row's column.
    Function pointers print as symbol+offset: compare the <column>_sym
    column (the symbol resolved from the file's kallsyms)."""
    col = RENAMED.get((name, key), key)
    m = SYM.match(value)
    if m and f'{col}_sym' in row:
        return row[f'{col}_sym'] == m.group(1)
    return same(value, row.get(col))


def same(expect, got):
    if got is None:
        return False
    try:
        want = as_int(expect)
        return (want - int(got)) % (1 << 64) == 0   # stored as int64 bit pattern
    except (ValueError, TypeError):
        return str(got) == expect


def check_file(vr, path, nsample, rng):
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, 'check.db')
        subprocess.run([vr, 'load', '-q', '-d', db, path], check=True)
        con = sqlite3.connect(db)
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        events = list(report(path))
        if not events:
            return [f'{path}: trace-cmd report printed no events; nothing to compare']
        want = collections.Counter(e[0] for e in events)
        got = {n: c for n, c in con.execute('SELECT name, count FROM run_event_count')}
        for name in sorted(set(want) | set(got)):
            if want.get(name, 0) != got.get(name, 0):
                errors.append(f'{path}: {name}: trace-cmd {want.get(name, 0)}, stored {got.get(name, 0)}')
            if name in tables:
                n = con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            else:
                n = con.execute('SELECT count(*) FROM other_event WHERE name=?', (name,)).fetchone()[0]
            if n != want.get(name, 0):
                errors.append(f'{path}: {name}: table rows {n}, trace-cmd {want.get(name, 0)}')
        by_type = collections.defaultdict(list)
        for e in events:
            by_type[e[0]].append(e)
        picks = []
        per_type = max(1, nsample // max(1, len(by_type)))
        for name, evs in by_type.items():
            picks += rng.sample(evs, min(per_type, len(evs)))
        checked = 0
        for name, ts, cpu, pid, fields in picks:
            if name in tables:
                cur = con.execute(f'SELECT * FROM "{name}" WHERE ts_ns=? AND cpu=? AND pid=?',
                                  (ts, cpu, pid))
                cols = [d[0] for d in cur.description]
                rows = [dict(zip(cols, r)) for r in cur.fetchall()]
                for r in rows:
                    extra = json.loads(r['extra']) if r.get('extra') else {}
                    r.update({k: v for k, v in extra.items() if k not in r})
            else:
                rows = [json.loads(r[0] or '{}') for r in con.execute(
                    'SELECT fields FROM other_event WHERE ts_ns=? AND cpu=? AND pid=? AND name=?',
                    (ts, cpu, pid, name))]
            if not rows:
                errors.append(f'{path}: {name} at {ts} cpu {cpu}: not stored')
                continue
            ok = any(all(field_ok(name, k, v, r) for k, v in fields.items()) for r in rows)
            if not ok:
                errors.append(f'{path}: {name} at {ts} cpu {cpu}: trace-cmd {fields}, stored {rows[0]}')
            checked += 1
        print(f'{path}: {len(events)} events of {len(want)} types match counts; '
              f'{checked} random events checked field by field')
    return errors


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: check-load.py VMSCAN_REPORT FILE.dat... [--sample N]')
    args = sys.argv[2:]
    nsample = 300
    if '--sample' in args:
        i = args.index('--sample')
        nsample = int(args[i + 1])
        del args[i:i + 2]
    rng = random.Random(12345)
    errors = []
    for path in args:
        errors += check_file(sys.argv[1], path, nsample, rng)
    for e in errors[:50]:
        print('MISMATCH', e)
    sys.exit(1 if errors else 0)


if __name__ == '__main__':
    main()
