/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the evidence bundle of a database in one directory
 * (`vmscan-report report`): the changelog table (compare.txt, compare.md),
 * the per-run summary (summary.txt), the run list (runs.txt), evidence.db,
 * every chart as PNG and SVG, and index.md linking them (README.md
 * "report").  The text files are what the `compare`, `summary` and `runs`
 * commands print, from the same modules (compare.h, summary.h, runs.h);
 * the charts what `chart` draws (chart-draw.h).
 */
#ifndef VR_REPORT_H
#define VR_REPORT_H

#include <stdbool.h>

struct compare_opts;
struct store;

/* What to write. */
struct report_opts {
	const char *db_path;	/* the database's path as given, named in index.md
				 * and recorded in evidence.db */
	const char *const *db_paths;	/* several databases read as one: all of them */
	int ndbs;		/* their number (<= 1: @db_path alone) */
	const char *dir;	/* the bundle's directory, created if missing */
	const struct compare_opts *copts;	/* what the tables show (--kernels, ...) */
	int width, height;	/* chart size in px; height 0: chart_draw() decides */
	/* the options that shape the bundle (all but -d, -o, -q, -v) as given,
	 * for the command index.md names: @nagain long names (no "--") and
	 * their arguments (NULL: none) */
	const char *const *again_opt, *const *again_arg;
	int nagain;
	bool quiet;		/* no progress line (chart N of M) */
	bool verbose;		/* say each part made and its time, on stderr */
};

/**
 * report_bundle - write the bundle of @s (opened read-only from
 * @o->db_path, or several databases as one) into @o->dir.  The files are
 * written as one whole through outfile.h's outdir: DIR/MANIFEST records
 * each with its SHA-256, a re-run replaces or removes only files still as
 * recorded, and on any error nothing in DIR changes.  evidence.db is made
 * in $TMPDIR (default /var/tmp) as vmscan-report-PID.evidence.db, copied
 * into the bundle's temporary and removed.
 * The bundle is written by a child process: pango, cairo and fontconfig
 * end the process when memory runs out (glib's g_error() when a thread
 * cannot be created under ulimit -v: SIGTRAP; fontconfig: SIGSEGV), which
 * no caller can catch; after such a death this process removes the
 * child's temporaries (in DIR and $TMPDIR, with SQLite's side files), DIR
 * itself if the call made it and it is empty, and says so.  Without
 * fork(), the bundle is written in this process.
 * Returns 0; VR_ERR_USAGE after "unknown metric 'X'" (compare_check_metrics()),
 * DIR unchanged; -1 after a message (unknown kernel, SQL, I/O, a file at
 * one of the bundle's names that report did not write, the child died).
 */
int report_bundle(struct store *s, const struct report_opts *o);

#endif /* VR_REPORT_H */
