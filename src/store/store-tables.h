/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-tables.h - the DDL of the tables that modules above the store make
 * when a load first needs them (windows.c: reclaim_window; snapshot.c:
 * run_snapshot, snapshot_counter; coverage.c: counter_coverage).  The store
 * reads it too, so that store_own_object() counts them as vmscan-report's
 * own and evidence.db carries them (a table made elsewhere would otherwise
 * be taken for a user's and left out).  Each is CREATE TABLE IF NOT EXISTS.
 */
#ifndef VR_STORE_TABLES_H
#define VR_STORE_TABLES_H

#define WINDOWS_SCHEMA \
	"CREATE TABLE IF NOT EXISTS reclaim_window (" \
	" run_id INTEGER NOT NULL REFERENCES run(id)," \
	" nid INTEGER," /* NULL: the whole machine */ \
	" window INTEGER NOT NULL," /* 0, 1, ... */ \
	" start_ns INTEGER NOT NULL, width_ns INTEGER NOT NULL," \
	" kswapd_scanned INTEGER, kswapd_reclaimed INTEGER," /* NULL: pages not */ \
	" other_scanned INTEGER, other_reclaimed INTEGER," /* traced (recorded.h) */ \
	" kswapd_running_ns INTEGER NOT NULL," \
	" stall_ns INTEGER," /* NULL row only */ \
	" throttled_writeback INTEGER NOT NULL, throttled_isolated INTEGER NOT NULL," \
	" throttled_noprogress INTEGER NOT NULL, throttled_congested INTEGER NOT NULL);"

#define SNAPSHOT_SCHEMA \
	"CREATE TABLE IF NOT EXISTS run_snapshot (" \
	" run_id INTEGER NOT NULL REFERENCES run(id)," \
	" moment TEXT NOT NULL," /* 'start' or 'end' */ \
	" file TEXT NOT NULL," /* snapshot_files[].name */ \
	" ts_ns INTEGER," /* the marker's time; NULL: no marker in the trace */ \
	" content TEXT NOT NULL," \
	" PRIMARY KEY (run_id, moment, file));" \
	"CREATE TABLE IF NOT EXISTS snapshot_counter (" \
	" run_id INTEGER NOT NULL REFERENCES run(id)," \
	" file TEXT NOT NULL, name TEXT NOT NULL," \
	" start_value INTEGER, end_value INTEGER," /* NULL: not in that file */ \
	" PRIMARY KEY (run_id, file, name));"

#define COVERAGE_SCHEMA \
	"CREATE TABLE IF NOT EXISTS counter_coverage (" \
	" run_id INTEGER NOT NULL REFERENCES run(id)," \
	" position INTEGER NOT NULL," /* table order */ \
	" counter TEXT NOT NULL," /* the /proc/vmstat name (allocstall: the sum of allocstall_*) */ \
	" vmstat_unit TEXT NOT NULL," /* pages or count */ \
	" trace_unit TEXT NOT NULL," /* pages, count or folios */ \
	" vmstat_delta INTEGER," /* NULL: the kernel has no such counter */ \
	" trace_value INTEGER," /* NULL: not traced / not recorded */ \
	" difference INTEGER," /* vmstat_delta - trace_value */ \
	" verdict TEXT NOT NULL," /* exact, explained, unexplained, not traced, not recorded */ \
	" explanation TEXT," \
	" PRIMARY KEY (run_id, counter));"

/* All of them, for store_own_object(). */
#define STORE_LAZY_TABLES WINDOWS_SCHEMA SNAPSHOT_SCHEMA COVERAGE_SCHEMA

#endif
