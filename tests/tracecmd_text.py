"""The one reader of `trace-cmd report -R -t` text shared by the independent
check scripts (check-load.py, check-model.py).  It uses trace-cmd's output
only, nothing of vmscan-report's code."""
import re
import subprocess

# "comm-pid [cpu] (latency column) sec.nsec: event: raw fields"; the comm may
# contain '-', so the last "-pid [cpu]" is the one that counts.
LINE = re.compile(r'^(?P<pre>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?'
                  r'(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):\s*(?P<body>.*)$')


def raw_events(path):
    """Yield (event, ts_ns, cpu, pid, body) for every event line, in report order."""
    proc = subprocess.run(['trace-cmd', 'report', '-R', '-t', '-i', path],
                          capture_output=True, text=True, errors='replace', check=True)
    for line in proc.stdout.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        sec, frac = m.group('ts').split('.')
        ts_ns = int(sec) * 1_000_000_000 + int(frac.ljust(9, '0')[:9])
        yield (m.group('ev'), ts_ns, int(m.group('cpu')), int(m.group('pid')),
               m.group('body'))
