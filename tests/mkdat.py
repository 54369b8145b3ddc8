#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkdat.py - write a small trace.dat (file format version 6) from a text spec.

Written from trace-cmd.dat.v6(5) (trace-cmd Documentation/trace-cmd/
trace-cmd.dat.v6.5.txt) and the ring-buffer page layout the kernel exports in
events/header_page and events/header_event (kernel/trace/ring_buffer.c):
a page is  u64 timestamp, local_t commit (kernel long), data; an event is a
u32 whose low 5 bits (little endian; high 5 bits big endian) are type_len and
the rest time_delta, then type_len*4 bytes of record; type_len 30 is a time
extend (delta bits 27.. in the next u32).  commit bit 31 = events were lost
before this page, bit 30 = their count is stored after the data.

So 4.x-era formats, two NUMA nodes, big-endian and 32-bit recordings can be
tested without old machines.  Usage:  mkdat.py SPEC OUT.dat

SPEC lines (# comments):
  era 4.10|4.11|6.18        event formats of that kernel (see FORMATS)
  endian little|big         byte order of the recording (default little)
  long 8|4                  kernel long size (default 8)
  page 4096                 ring-buffer page size
  cpus N
  uname TEXT                saved `uname -a` style text (release = 3rd word)
  comm PID NAME             saved cmdline (NAME may contain spaces)
  ksym HEXADDR NAME         a kallsyms line (text symbol), for %pS fields
  lost CPU COUNT            the next page of CPU starts after COUNT lost events
  omit NAME ...             leave these events' formats out of the file (as
                            trace-cmd record -e of other events does)
  ev CPU TS_NS PID EVENT field=value ...   one record (fields by kernel name;
                            char arrays take the rest of a quoted "..." value)
"""
import re
import shlex
import struct
import sys

GFP_PRINT = ('__print_flags(REC->gfp_flags, "|", {0xcc0UL, "GFP_KERNEL"}, '
             '{0x100cca, "GFP_HIGHUSER_MOVABLE"}, {0x800UL, "__GFP_KSWAPD_RECLAIM"})')
GFP_PRINT_4X = ('__print_flags(REC->gfp_flags, "|", {0x24000c0, "GFP_KERNEL"}, '
                '{0x24200ca, "GFP_HIGHUSER_MOVABLE"})')
RECLAIM_FLAGS = ('__print_flags(REC->reclaim_flags, "|", {0x1, "RECLAIM_WB_ANON"}, '
                 '{0x2, "RECLAIM_WB_FILE"}, {0x10, "RECLAIM_WB_MIXED"}, '
                 '{0x4, "RECLAIM_WB_SYNC"}, {0x8, "RECLAIM_WB_ASYNC"})')
LRU = ('__print_symbolic(REC->lru, {0, "inactive_anon"}, {1, "active_anon"}, '
       '{2, "inactive_file"}, {3, "active_file"}, {4, "unevictable"})')
STATE = 'REC->prev_state ? __print_flags(REC->prev_state, "|", {1, "S"}, {2, "D"}) : "R"'

# (ctype, name, size or 'long', signed); char arrays are ('char', name, n, 1)
SCHED_SWITCH = ([('char', 'prev_comm', 16, 1), ('pid_t', 'prev_pid', 4, 1),
                 ('int', 'prev_prio', 4, 1), ('long', 'prev_state', 'long', 1),
                 ('char', 'next_comm', 16, 1), ('pid_t', 'next_pid', 4, 1),
                 ('int', 'next_prio', 4, 1)],
                '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s '
                'next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, '
                + STATE + ', REC->next_comm, REC->next_pid, REC->next_prio')
COMMON = {
    'mm_vmscan_kswapd_sleep': ('vmscan', [('int', 'nid', 4, 1)], '"nid=%d", REC->nid'),
    'mm_vmscan_direct_reclaim_end': ('vmscan', [('unsigned long', 'nr_reclaimed', 'long', 0)],
                                     '"nr_reclaimed=%lu", REC->nr_reclaimed'),
    'sched_switch': ('sched',) + SCHED_SWITCH,
}
ISOLATE_410 = [('int', 'classzone_idx', 4, 1), ('int', 'order', 4, 1),
               ('unsigned long', 'nr_requested', 'long', 0),
               ('unsigned long', 'nr_scanned', 'long', 0),
               ('unsigned long', 'nr_taken', 'long', 0),
               ('isolate_mode_t', 'isolate_mode', 4, 0), ('int', 'file', 4, 1)]
FORMATS = {
    '4.10': {
        'mm_vmscan_kswapd_wake': ('vmscan', [('int', 'nid', 4, 1), ('int', 'zid', 4, 1),
                                             ('int', 'order', 4, 1)],
                                  '"nid=%d zid=%d order=%d", REC->nid, REC->zid, REC->order'),
        'mm_vmscan_wakeup_kswapd': ('vmscan', [('int', 'nid', 4, 1), ('int', 'zid', 4, 1),
                                               ('int', 'order', 4, 1)],
                                    '"nid=%d zid=%d order=%d", REC->nid, REC->zid, REC->order'),
        'mm_vmscan_direct_reclaim_begin': (
            'vmscan', [('int', 'order', 4, 1), ('int', 'may_writepage', 4, 1),
                       ('gfp_t', 'gfp_flags', 4, 0), ('int', 'classzone_idx', 4, 1)],
            '"order=%d may_writepage=%d gfp_flags=%s classzone_idx=%d", REC->order, '
            'REC->may_writepage, ' + GFP_PRINT_4X + ', REC->classzone_idx'),
        'mm_vmscan_lru_isolate': (
            'vmscan', ISOLATE_410,
            '"isolate_mode=%d classzone=%d order=%d nr_requested=%lu nr_scanned=%lu '
            'nr_taken=%lu file=%d", REC->isolate_mode, REC->classzone_idx, REC->order, '
            'REC->nr_requested, REC->nr_scanned, REC->nr_taken, REC->file'),
        'mm_vmscan_lru_shrink_inactive': (
            'vmscan', [('int', 'nid', 4, 1), ('unsigned long', 'nr_scanned', 'long', 0),
                       ('unsigned long', 'nr_reclaimed', 'long', 0), ('int', 'priority', 4, 1),
                       ('int', 'reclaim_flags', 4, 1)],
            '"nid=%d nr_scanned=%ld nr_reclaimed=%ld priority=%d flags=%s", REC->nid, '
            'REC->nr_scanned, REC->nr_reclaimed, REC->priority, ' + RECLAIM_FLAGS),
        'mm_vmscan_writepage': (
            'vmscan', [('unsigned long', 'pfn', 'long', 0), ('int', 'reclaim_flags', 4, 1)],
            '"page=%p pfn=%lu flags=%s", REC->pfn, REC->pfn, ' + RECLAIM_FLAGS),
        'writeback_congestion_wait': (
            'writeback', [('unsigned int', 'usec_timeout', 4, 0),
                          ('unsigned int', 'usec_delayed', 4, 0)],
            '"usec_timeout=%u usec_delayed=%u", REC->usec_timeout, REC->usec_delayed'),
    },
}
f411 = dict(FORMATS['4.10'])
f411['mm_vmscan_lru_isolate'] = (
    'vmscan', [('int', 'classzone_idx', 4, 1), ('int', 'order', 4, 1),
               ('unsigned long', 'nr_requested', 'long', 0),
               ('unsigned long', 'nr_scanned', 'long', 0),
               ('unsigned long', 'nr_skipped', 'long', 0),
               ('unsigned long', 'nr_taken', 'long', 0),
               ('isolate_mode_t', 'isolate_mode', 4, 0), ('int', 'lru', 4, 1)],
    '"isolate_mode=%d classzone=%d order=%d nr_requested=%lu nr_scanned=%lu nr_skipped=%lu '
    'nr_taken=%lu lru=%s", REC->isolate_mode, REC->classzone_idx, REC->order, '
    'REC->nr_requested, REC->nr_scanned, REC->nr_skipped, REC->nr_taken, ' + LRU)
STATS = ['nr_dirty', 'nr_writeback', 'nr_congested', 'nr_immediate', 'nr_activate',
         'nr_ref_keep', 'nr_unmap_fail']
f411['mm_vmscan_lru_shrink_inactive'] = (
    'vmscan', [('int', 'nid', 4, 1), ('unsigned long', 'nr_scanned', 'long', 0),
               ('unsigned long', 'nr_reclaimed', 'long', 0)]
    + [('unsigned long', s, 'long', 0) for s in STATS]
    + [('int', 'priority', 4, 1), ('int', 'reclaim_flags', 4, 1)],
    '"nid=%d nr_scanned=%ld nr_reclaimed=%ld ' + ' '.join(s + '=%ld' for s in STATS)
    + ' priority=%d flags=%s", REC->nid, REC->nr_scanned, REC->nr_reclaimed, '
    + ', '.join('REC->' + s for s in STATS) + ', REC->priority, ' + RECLAIM_FLAGS)
FORMATS['4.11'] = f411
STATS6 = ['nr_dirty', 'nr_writeback', 'nr_congested', 'nr_immediate']
FORMATS['6.18'] = {
    'mm_vmscan_kswapd_wake': ('vmscan', [('int', 'nid', 4, 1), ('int', 'zid', 4, 1),
                                         ('int', 'order', 4, 1)],
                              '"nid=%d order=%d", REC->nid, REC->order'),
    'mm_vmscan_wakeup_kswapd': (
        'vmscan', [('int', 'nid', 4, 1), ('int', 'zid', 4, 1), ('int', 'order', 4, 1),
                   ('unsigned long', 'gfp_flags', 'long', 0)],
        '"nid=%d order=%d gfp_flags=%s", REC->nid, REC->order, '
        '(REC->gfp_flags) ? ' + GFP_PRINT + ' : "none"'),
    'mm_vmscan_direct_reclaim_begin': (
        'vmscan', [('int', 'order', 4, 1), ('unsigned long', 'gfp_flags', 'long', 0)],
        '"order=%d gfp_flags=%s", REC->order, (REC->gfp_flags) ? ' + GFP_PRINT + ' : "none"'),
    'mm_vmscan_lru_isolate': (
        'vmscan', [('int', 'highest_zoneidx', 4, 1), ('int', 'order', 4, 1),
                   ('unsigned long', 'nr_requested', 'long', 0),
                   ('unsigned long', 'nr_scanned', 'long', 0),
                   ('unsigned long', 'nr_skipped', 'long', 0),
                   ('unsigned long', 'nr_taken', 'long', 0), ('int', 'lru', 4, 1)],
        '"classzone=%d order=%d nr_requested=%lu nr_scanned=%lu nr_skipped=%lu nr_taken=%lu '
        'lru=%s", REC->highest_zoneidx, REC->order, REC->nr_requested, REC->nr_scanned, '
        'REC->nr_skipped, REC->nr_taken, ' + LRU),
    'mm_vmscan_lru_shrink_inactive': (
        'vmscan', [('int', 'nid', 4, 1), ('unsigned long', 'nr_scanned', 'long', 0),
                   ('unsigned long', 'nr_reclaimed', 'long', 0)]
        + [('unsigned long', s, 'long', 0) for s in STATS6]
        + [('unsigned int', 'nr_activate0', 4, 0), ('unsigned int', 'nr_activate1', 4, 0),
           ('unsigned long', 'nr_ref_keep', 'long', 0),
           ('unsigned long', 'nr_unmap_fail', 'long', 0),
           ('int', 'priority', 4, 1), ('int', 'reclaim_flags', 4, 1)],
        '"nid=%d nr_scanned=%ld nr_reclaimed=%ld ' + ' '.join(s + '=%ld' for s in STATS6)
        + ' nr_activate_anon=%d nr_activate_file=%d nr_ref_keep=%ld nr_unmap_fail=%ld'
        ' priority=%d flags=%s", REC->nid, REC->nr_scanned, REC->nr_reclaimed, '
        + ', '.join('REC->' + s for s in STATS6) + ', REC->nr_activate0, REC->nr_activate1,'
        ' REC->nr_ref_keep, REC->nr_unmap_fail, REC->priority, ' + RECLAIM_FLAGS),
    'mm_vmscan_write_folio': (
        'vmscan', [('unsigned long', 'pfn', 'long', 0), ('int', 'reclaim_flags', 4, 1)],
        '"page=%p pfn=0x%lx flags=%s", REC->pfn, REC->pfn, ' + RECLAIM_FLAGS),
    'mm_shrink_slab_start': (
        'vmscan', [('struct shrinker *', 'shr', 'long', 0), ('void *', 'shrink', 'long', 0),
                   ('int', 'nid', 4, 1), ('long', 'nr_objects_to_shrink', 'long', 1),
                   ('unsigned long', 'gfp_flags', 'long', 0),
                   ('unsigned long', 'cache_items', 'long', 0),
                   ('unsigned long long', 'delta', 8, 0),
                   ('unsigned long', 'total_scan', 'long', 0), ('int', 'priority', 4, 1)],
        '"%pS %p: nid: %d objects to shrink %ld gfp_flags %s cache items %ld delta %lld '
        'total_scan %ld priority %d", REC->shrink, REC->shr, REC->nid, '
        'REC->nr_objects_to_shrink, (REC->gfp_flags) ? ' + GFP_PRINT + ' : "none", '
        'REC->cache_items, REC->delta, REC->total_scan, REC->priority'),
    'mm_shrink_slab_end': (
        'vmscan', [('struct shrinker *', 'shr', 'long', 0), ('int', 'nid', 4, 1),
                   ('void *', 'shrink', 'long', 0), ('long', 'unused_scan', 'long', 1),
                   ('long', 'new_scan', 'long', 1), ('int', 'retval', 4, 1),
                   ('long', 'total_scan', 'long', 1)],
        '"%pS %p: nid: %d unused scan count %ld new scan count %ld total_scan %ld '
        'last shrinker return val %d", REC->shrink, REC->shr, REC->nid, REC->unused_scan, '
        'REC->new_scan, REC->total_scan, REC->retval'),
    'mm_vmscan_throttled': (
        'vmscan', [('int', 'nid', 4, 1), ('int', 'usec_timeout', 4, 1),
                   ('int', 'usec_delayed', 4, 1), ('int', 'reason', 4, 1)],
        '"nid=%d usec_timeout=%d usect_delayed=%d reason=%s", REC->nid, REC->usec_timeout, '
        'REC->usec_delayed, __print_flags(REC->reason, "|", {0x1, "VMSCAN_THROTTLE_WRITEBACK"},'
        ' {0x2, "VMSCAN_THROTTLE_ISOLATED"}, {0x4, "VMSCAN_THROTTLE_NOPROGRESS"},'
        ' {0x8, "VMSCAN_THROTTLE_CONGESTED"})'),
}
for era in FORMATS:
    for k, v in COMMON.items():
        FORMATS[era].setdefault(k, v)
# Formats a file carries only when its spec has such an event (so that the
# files of older specs keep their bytes).
EXTRA = {'6.18': {
    'mm_vmscan_memcg_reclaim_begin': (
        'vmscan', [('int', 'order', 4, 1), ('unsigned long', 'gfp_flags', 'long', 0)],
        '"order=%d gfp_flags=%s", REC->order, (REC->gfp_flags) ? ' + GFP_PRINT + ' : "none"'),
    'mm_vmscan_memcg_reclaim_end': ('vmscan', [('unsigned long', 'nr_reclaimed', 'long', 0)],
                                    '"nr_reclaimed=%lu", REC->nr_reclaimed'),
    'mm_vmscan_memcg_softlimit_reclaim_begin': (
        'vmscan', [('int', 'order', 4, 1), ('unsigned long', 'gfp_flags', 'long', 0)],
        '"order=%d gfp_flags=%s", REC->order, (REC->gfp_flags) ? ' + GFP_PRINT + ' : "none"'),
    'mm_vmscan_memcg_softlimit_reclaim_end': (
        'vmscan', [('unsigned long', 'nr_reclaimed', 'long', 0)],
        '"nr_reclaimed=%lu", REC->nr_reclaimed'),
    # a45088376d8a "mm/vmscan: add tracepoint and reason for kswapd_failures
    # reset" (7.0), fields (nid, failures) and (nid, reason) as in v4 of the
    # series; reason is enum kswapd_clear_hopeless_reason
    'mm_vmscan_kswapd_reclaim_fail': ('vmscan', [('int', 'nid', 4, 1), ('int', 'failures', 4, 1)],
                                      '"nid=%d failures=%d", REC->nid, REC->failures'),
    'mm_vmscan_kswapd_clear_hopeless': (
        'vmscan', [('int', 'nid', 4, 1), ('int', 'reason', 4, 1)],
        '"nid=%d reason=%s", REC->nid, __print_symbolic(REC->reason, {0, "OTHER"}, '
        '{1, "KSWAPD"}, {2, "DIRECT"}, {3, "PCP"})'),
    # shrink_active_list() (mm/vmscan.c, 4.11+: "mm, vmscan: add active
    # list aging tracepoint")
    'mm_vmscan_lru_shrink_active': (
        'vmscan', [('int', 'nid', 4, 1), ('unsigned long', 'nr_taken', 'long', 0),
                   ('unsigned long', 'nr_active', 'long', 0),
                   ('unsigned long', 'nr_deactivated', 'long', 0),
                   ('unsigned long', 'nr_referenced', 'long', 0),
                   ('int', 'priority', 4, 1), ('int', 'reclaim_flags', 4, 1)],
        '"nid=%d nr_taken=%ld nr_active=%ld nr_deactivated=%ld nr_referenced=%ld '
        'priority=%d flags=%s", REC->nid, REC->nr_taken, REC->nr_active, '
        'REC->nr_deactivated, REC->nr_referenced, REC->priority, ' + RECLAIM_FLAGS),
}}


class Spec:
    def __init__(self):
        self.era, self.endian, self.long, self.page, self.cpus = '6.18', '<', 8, 4096, 1
        self.uname, self.comms, self.events, self.lost = None, [], [], {}
        self.ksyms = []
        self.omit = set()


def layout(fields, long_size):
    """Offsets after the 8 bytes of common fields, natural alignment."""
    out, off = [], 8
    for ctype, name, size, signed in fields:
        if size == 'long':
            size = long_size
        align = 1 if ctype == 'char' else size
        off = (off + align - 1) // align * align
        out.append((ctype, name, off, size, signed))
        off += size
    return out, off


def format_text(name, eid, fields, fmt, long_size):
    lay, _ = layout(fields, long_size)
    lines = ['name: %s' % name, 'ID: %d' % eid, 'format:',
             '\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;',
             '\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;',
             '\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;',
             '\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;', '']
    for ctype, fname, off, size, signed in lay:
        decl = '%s %s[%d]' % (ctype, fname, size) if ctype == 'char' else '%s %s' % (ctype, fname)
        lines.append('\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;' % (decl, off, size, signed))
    lines += ['', 'print fmt: ' + fmt, '']
    return '\n'.join(lines).encode()


def parse_spec(path):
    sp = Spec()
    for raw in open(path):
        line = raw.split('#', 1)[0].strip() if not raw.lstrip().startswith('ev ') else raw.strip()
        if not line:
            continue
        w = line.split(None, 1)
        key, rest = w[0], (w[1] if len(w) > 1 else '')
        if key == 'era':
            sp.era = rest
        elif key == 'endian':
            sp.endian = '>' if rest == 'big' else '<'
        elif key == 'long':
            sp.long = int(rest)
        elif key == 'page':
            sp.page = int(rest)
        elif key == 'cpus':
            sp.cpus = int(rest)
        elif key == 'uname':
            sp.uname = rest
        elif key == 'comm':
            pid, name = rest.split(None, 1)
            sp.comms.append((int(pid), name))
        elif key == 'ksym':
            addr, name = rest.split()
            sp.ksyms.append((int(addr, 16), name))
        elif key == 'omit':
            sp.omit.update(rest.split())
        elif key == 'lost':
            cpu, count = rest.split()
            sp.events.append(('lost', int(cpu), int(count)))
        elif key == 'ev':
            toks = shlex.split(rest)
            cpu, ts, pid, name = int(toks[0]), int(toks[1]), int(toks[2]), toks[3]
            vals = dict(t.split('=', 1) for t in toks[4:])
            sp.events.append(('ev', cpu, ts, pid, name, vals))
        else:
            sys.exit('mkdat.py: %s: unknown line: %s' % (path, line))
    return sp


def record(sp, fmts, ids, name, pid, vals):
    system, fields, _ = fmts[name]
    lay, size = layout(fields, sp.long)
    buf = bytearray(size)
    e = sp.endian
    struct.pack_into(e + 'HBBi', buf, 0, ids[name], 0, 0, pid)
    for ctype, fname, off, fsize, signed in lay:
        v = vals.get(fname, '0')
        if ctype == 'char':
            b = v.encode()[:fsize - 1]
            buf[off:off + len(b)] = b
            continue
        n = int(v, 0)
        code = {1: 'b', 2: 'h', 4: 'i', 8: 'q'}[fsize]
        struct.pack_into(e + (code if signed else code.upper()), buf, off,
                         n if signed else n & ((1 << (8 * fsize)) - 1))
    return bytes(buf)


def cpu_pages(sp, evs):
    """evs: list of (ts, payload) or ('lost', count) in order -> page bytes."""
    e, ls = sp.endian, sp.long
    hdr = 8 + ls
    pages, cur, page_ts, last_ts, missed = [], bytearray(), None, 0, None

    def word(type_len, delta):
        if e == '<':
            return struct.pack('<I', (delta << 5) | type_len)
        return struct.pack('>I', (type_len << 27) | delta)

    def flush():
        nonlocal cur, page_ts, missed
        if page_ts is None:
            return
        commit = len(cur)
        tail = b''
        if missed is not None:
            commit |= (1 << 31) | (1 << 30)
            tail = struct.pack(e + ('q' if ls == 8 else 'i'), missed)
        page = struct.pack(e + 'Q', page_ts) + struct.pack(e + ('Q' if ls == 8 else 'I'), commit)
        page += bytes(cur) + tail
        pages.append(page + bytes(sp.page - len(page)))
        cur, page_ts, missed = bytearray(), None, None

    for item in evs:
        if item[0] == 'lost':
            flush()
            missed = item[1]
            continue
        ts, payload = item
        plen = (len(payload) + 3) // 4 * 4
        assert plen <= 112, 'record too long for this writer'
        need = 4 + plen + 8 + (ls if missed is not None else 0)
        if page_ts is not None and hdr + len(cur) + need > sp.page:
            flush()
        if page_ts is None:
            page_ts, last_ts = ts, ts
        delta = ts - last_ts
        if delta >= 1 << 27:
            cur += word(30, delta & ((1 << 27) - 1)) + struct.pack(e + 'I', delta >> 27)
            delta = 0
        cur += word(plen // 4, delta) + payload + bytes(plen - len(payload))
        last_ts = ts
    flush()
    return b''.join(pages)


def write(sp, out):
    fmts = dict(FORMATS[sp.era])
    used = {ev[4] for ev in sp.events if ev[0] != 'lost'}
    fmts.update((n, v) for n, v in EXTRA.get(sp.era, {}).items() if n in used)
    for n in sp.omit:
        fmts.pop(n, None)
    e, ls = sp.endian, sp.long
    names = sorted(fmts)
    ids = {n: 300 + i for i, n in enumerate(names)}
    u32 = lambda v: struct.pack(e + 'I', v)
    u64 = lambda v: struct.pack(e + 'Q', v)
    f = bytearray(b'\x17\x08\x44tracing6\0')
    f += bytes([1 if e == '>' else 0, ls]) + u32(sp.page)
    hp = ('\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n'
          '\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n'
          '\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n'
          '\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:1;\n'
          % (ls, 8 + ls, sp.page - 8 - ls)).encode()
    he = (b'# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n'
          b'\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n'
          b'\ttime_stamp : type == 31\n\tdata max type_len  == 28\n')
    f += b'header_page\0' + u64(len(hp)) + hp + b'header_event\0' + u64(len(he)) + he
    f += u32(0)                                   # ftrace (plugin) event formats
    systems = sorted({fmts[n][0] for n in names})
    f += u32(len(systems))
    for s in systems:
        evs = [n for n in names if fmts[n][0] == s]
        f += s.encode() + b'\0' + u32(len(evs))
        for n in evs:
            txt = format_text(n, ids[n], fmts[n][1], fmts[n][2], ls)
            f += u64(len(txt)) + txt
    ks = ''.join('%016x T %s\n' % k for k in sp.ksyms).encode()
    f += u32(len(ks)) + ks + u32(0)               # kallsyms, printk formats
    cl = ''.join('%d %s\n' % c for c in sp.comms).encode()
    f += u64(len(cl)) + cl
    f += u32(sp.cpus)
    if sp.uname:
        f += b'options  \0'
        u = sp.uname.encode() + b'\0'
        f += struct.pack(e + 'H', 5) + u32(len(u)) + u
        f += struct.pack(e + 'H', 0)
    f += b'flyrecord\0'
    per_cpu = {c: [] for c in range(sp.cpus)}
    for ev in sp.events:
        if ev[0] == 'lost':
            per_cpu[ev[1]].append(('lost', ev[2]))
        else:
            _, cpu, ts, pid, name, vals = ev
            per_cpu[cpu].append((ts, record(sp, fmts, ids, name, pid, vals)))
    for c in per_cpu:   # each CPU's records in time order, lost markers kept in place
        per_cpu[c] = stable_time_sort(per_cpu[c])
    data = {c: cpu_pages(sp, per_cpu[c]) for c in per_cpu}
    table_at = len(f)
    off = table_at + 16 * sp.cpus
    off = (off + sp.page - 1) // sp.page * sp.page
    table, body = bytearray(), bytearray()
    for c in range(sp.cpus):
        table += u64(off + len(body)) + u64(len(data[c]))
        body += data[c]
    f += table
    f += bytes(off - len(f))
    f += body
    open(out, 'wb').write(bytes(f))


def stable_time_sort(items):
    out, pending = [], []
    evs = [(i, it) for i, it in enumerate(items)]
    # lost markers stay directly before the record that follows them
    keyed, lost_before = [], {}
    for i, it in evs:
        if it[0] == 'lost':
            pending.append(it)
        else:
            keyed.append((it[0], i, it))
            if pending:
                lost_before[i] = pending
                pending = []
    for _, i, it in sorted(keyed, key=lambda k: (k[0], k[1])):
        out += lost_before.get(i, [])
        out.append(it)
    return out


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    write(parse_spec(sys.argv[1]), sys.argv[2])
