#!/usr/bin/env python3
"""make-scaled-trace.py BIG N OUT: make (or reuse) OUT, the events of the
trace.dat BIG repeated N times, each copy's pages shifted later in time by
the trace's span (its last event less its first, plus a second), as a
version 7 zstd file like BIG.  For make bench's 1x/3x/10x rows: the same
events, N times as many, in time order on each CPU.

How: `trace-cmd convert` makes BIG a version 6 uncompressed file, whose CPU
data is the ring buffer's pages as the kernel wrote them: a page starts
with its time stamp (8 bytes) and the events in it are deltas from it, so
shifting a copy is adding to the first 8 bytes of each page
(include/linux/ring_buffer.h, kernel/trace/ring_buffer.c: buffer_data_page;
trace-cmd's lib/trace-cmd/trace-input.c reads it so).  The flyrecord
section's per-CPU offset and size are rewritten for the longer data, then
`trace-cmd convert` compresses the file again.  A page holding an absolute
time stamp event (RINGBUF_TYPE_TIME_STAMP, not written by default) would
not be shifted whole: such a trace is refused.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile


def span_ns(path):
    """The trace's last event less its first, in ns (trace-cmd report's
    --first-event/--last-event, microseconds), plus a second."""
    out = subprocess.run(['trace-cmd', 'report', '-i', path, '--first-event', '--last-event'],
                         capture_output=True, text=True, check=True).stdout
    first, last = [], []
    for line in out.splitlines():
        # "  0\tFirst event:14262.996207\tLast event:14273.885966": no space
        # after the colon once the seconds fill the field (trace-cmd 3.1.6)
        m = re.search(r'First event:\s*([0-9.]+)\s+Last event:\s*([0-9.]+)', line)
        if m:
            first.append(float(m.group(1)))
            last.append(float(m.group(2)))
    if not first:
        sys.exit(f'make-scaled-trace: {path}: no first/last event times')
    return int((max(last) - min(first)) * 1e9) + 1_000_000_000


def flyrecord(data):
    """(number of CPUs, position of the per-CPU table, page size) of a
    version 6 file's bytes."""
    if data[:10] != b'\x17\x08Dtracing' or data[10:12] != b'6\x00':
        sys.exit('make-scaled-trace: not a version 6 trace.dat')
    if data[12] != 0 or data[13] != 8:
        sys.exit('make-scaled-trace: only little-endian files of 64-bit kernels')
    page = struct.unpack_from('<I', data, 14)[0]
    opt = data.find(b'options  \x00')
    fly = data.find(b'flyrecord\x00', opt)
    if opt < 0 or fly < 0:
        sys.exit('make-scaled-trace: no options or flyrecord section')
    ncpu = struct.unpack_from('<I', data, opt - 4)[0]
    return ncpu, fly + len(b'flyrecord\x00'), page


def scale(v6, n, span, out):
    with open(v6, 'rb') as f:
        data = f.read()
    ncpu, table, page = flyrecord(data)
    cpus = [struct.unpack_from('<QQ', data, table + 16 * c) for c in range(ncpu)]
    start = min(off for off, size in cpus if size) if any(s for _, s in cpus) else len(data)
    for off, size in cpus:
        if size % page or off % page:
            sys.exit('make-scaled-trace: CPU data not in whole pages')
    head = bytearray(data[:start])
    pos = start
    for c, (off, size) in enumerate(cpus):
        struct.pack_into('<QQ', head, table + 16 * c, pos if size else 0, size * n)
        pos += size * n
    with open(out, 'wb') as f:
        f.write(head)
        for off, size in cpus:
            pages = data[off:off + size]
            for k in range(n):
                buf = bytearray(pages)
                for p in range(0, size, page):
                    ts = struct.unpack_from('<Q', buf, p)[0]
                    struct.pack_into('<Q', buf, p, ts + k * span)
                f.write(buf)


def main():
    big, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if os.path.exists(out) and os.path.getsize(out) > 0:
        print(out)
        return
    span = span_ns(big)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(out))) as tmp:
        v6 = os.path.join(tmp, 'v6.dat')
        x6 = os.path.join(tmp, 'x6.dat')
        subprocess.run(['trace-cmd', 'convert', '-i', big, '-o', v6, '--file-version', '6',
                        '--compression', 'none'], check=True, capture_output=True)
        scale(v6, n, span, x6)
        os.unlink(v6)
        part = out + '.part'
        subprocess.run(['trace-cmd', 'convert', '-i', x6, '-o', part, '--file-version', '7',
                        '--compression', 'zstd'], check=True, capture_output=True)
        os.rename(part, out)
    print(out)


if __name__ == '__main__':
    main()
