#!/usr/bin/env python3
"""pressure-figures.py FILE.dat... - the figures of samples/README.md's
pressure set, counted from `trace-cmd report FILE` and the FILE's
.vmstat-before/.vmstat-after snapshots, without vmscan-report (so that the
README's numbers are checked by something other than the tool they describe).

Prints two Markdown tables, one column per file: events counted in
trace-cmd's text, and /proc/vmstat deltas (after - before).  A line's task is
the name before its pid ("kswapd0-45 [000] ..."); fields are NAME=VALUE.
mm_vmscan_throttled's reason is printed by 6.18's trace-cmd as a name or as
hex (0x1 WRITEBACK, 0x2 ISOLATED, 0x4 NOPROGRESS, 0x8 CONGESTED:
include/trace/events/vmscan.h, _VMSCAN_THROTTLE_*)."""
import os
import re
import subprocess
import sys

REASONS = {"0x1": "WRITEBACK", "0x2": "ISOLATED", "0x4": "NOPROGRESS", "0x8": "CONGESTED"}
LINE = re.compile(r"^\s*(\S.*?)-(\d+)\s+\[\d+\]\s+[\d.]+:\s+(\w+):\s*(.*)$")


def count(path):
    c = {}

    def add(k, n=1):
        c[k] = c.get(k, 0) + n

    out = subprocess.run(["trace-cmd", "report", path], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        comm, event, body = m.group(1), m.group(3), m.group(4)
        f = dict(kv.split("=", 1) for kv in body.split() if "=" in kv)
        who = "kswapd" if re.fullmatch(r"kswapd\d+", comm) else "other"
        add("events")
        if event == "mm_vmscan_write_folio":
            add("write anon" if "RECLAIM_WB_ANON" in f.get("flags", "") else "write file")
        elif event == "mm_vmscan_throttled":
            r = f.get("reason", "?").replace("VMSCAN_THROTTLE_", "")
            add("throttled %s %s" % (REASONS.get(r, r), who))
        elif event in ("mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end",
                       "mm_vmscan_direct_reclaim_begin", "mm_vmscan_kswapd_wake"):
            add(event)
        elif event == "mm_vmscan_lru_shrink_inactive":
            v = {k: int(f.get(k, 0)) for k in ("nr_scanned", "nr_reclaimed", "nr_dirty",
                                                "nr_writeback", "nr_congested", "nr_immediate")}
            add(who + " calls")
            add(who + " scanned", v["nr_scanned"])
            add(who + " reclaimed", v["nr_reclaimed"])
            add(who + " writeback pages", v["nr_writeback"])
            if v["nr_immediate"] > 0:
                add(who + " immediate")
            if v["nr_congested"] > 0 and v["nr_immediate"] == 0:
                add(who + " congested only")
            if v["nr_writeback"] > 0:
                add(who + " writeback")
            if v["nr_dirty"] > 0:
                add(who + " dirty")
    return c


def vmstat(path):
    def read(p):
        with open(p) as f:
            return {k: int(v) for k, v in (l.split() for l in f)}
    base = path[:-4]
    return read(base + ".vmstat-before"), read(base + ".vmstat-after")


def fmt(n):
    return "{:,}".format(n)


def main(files):
    names = [os.path.basename(f)[len("zram-"):-4] for f in files]
    counts = [count(f) for f in files]
    head = "| %s | " + " | ".join(names) + " |"
    sep = "| --- |" + " ---: |" * len(files)
    rows = [("file size (bytes)", [fmt(os.path.getsize(f)) for f in files]),
            ("events", None),
            ("mm_vmscan_write_folio, RECLAIM_WB_ANON", "write anon"),
            ("mm_vmscan_write_folio, RECLAIM_WB_FILE", "write file")]
    for r in ("WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED"):
        for who in ("kswapd", "other"):
            rows.append(("mm_vmscan_throttled, %s, %s" % (r, "kswapd" if who == "kswapd"
                                                        else "other tasks"),
                         "throttled %s %s" % (r, who)))
    rows += [("mm_vmscan_memcg_reclaim_begin", None), ("mm_vmscan_memcg_reclaim_end", None),
             ("mm_vmscan_direct_reclaim_begin", None), ("mm_vmscan_kswapd_wake", None)]
    for who, title in (("kswapd", "kswapd"), ("other", "other tasks'")):
        rows += [("%s lru_shrink_inactive calls" % title, who + " calls"),
                 ("&nbsp;&nbsp;nr_scanned, nr_reclaimed (pages)", None, who),
                 ("&nbsp;&nbsp;with nr_immediate > 0", who + " immediate"),
                 ("&nbsp;&nbsp;with nr_congested > 0, nr_immediate 0", who + " congested only"),
                 ("&nbsp;&nbsp;with nr_writeback > 0", who + " writeback"),
                 ("&nbsp;&nbsp;with nr_dirty > 0", who + " dirty"),
                 ("&nbsp;&nbsp;sum of nr_writeback (pages)", who + " writeback pages")]
    print(head % "counted in `trace-cmd report`")
    print(sep)
    for row in rows:
        label, key = row[0], row[1]
        if isinstance(key, list):
            vals = key
        elif len(row) == 3:
            vals = ["%s, %s" % (fmt(c.get(row[2] + " scanned", 0)),
                                fmt(c.get(row[2] + " reclaimed", 0))) for c in counts]
        else:
            vals = [fmt(c.get(key or label, 0)) for c in counts]
        print("| %s | %s |" % (label, " | ".join(vals)))
    print()
    print(head % "/proc/vmstat")
    print(sep)
    snaps = [vmstat(f) for f in files]
    for k in ("pswpout", "pgsteal_anon", "pgsteal_file", "nr_vmscan_write",
              "nr_vmscan_immediate_reclaim", "pageoutrun", "pgscan_kswapd", "pgscan_direct"):
        print("| `%s` | %s |" % (k, " | ".join(fmt(a.get(k, 0) - b.get(k, 0)) for b, a in snaps)))
    print("| `allocstall_normal` + `allocstall_movable` | %s |" % " | ".join(
        "%s + %s" % (fmt(a["allocstall_normal"] - b["allocstall_normal"]),
                     fmt(a["allocstall_movable"] - b["allocstall_movable"])) for b, a in snaps))
    for k in ("nr_dirty", "nr_writeback"):
        print("| `%s` before, after (pages) | %s |" % (k, " | ".join(
            "%s, %s" % (fmt(b[k]), fmt(a[k])) for b, a in snaps)))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: pressure-figures.py FILE.dat...")
    main(sys.argv[1:])
