/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-query.h - the one way to read the database: a prepared statement of
 * a struct store with typed binds, a step that reports its own errors, and
 * typed column readers, plus helpers for the common shapes (one row of
 * numbers, one column of every row, a callback per row).
 *
 * Every statement carries a purpose ("summary totals"), so that an error
 * reads "vmscan-report: DB: PURPOSE: sqlite's message" whatever went wrong
 * (prepare, a bind, a step).  Every function accepts a NULL statement (a
 * failed store_stmt_new(), whose message is already printed): binds and
 * readers do nothing, steps return -1, so a caller checks once, at the step.
 *
 * Nothing here writes to the database on its own; statements are prepared
 * on the store's connection and must be freed before store_close().
 */
#ifndef VR_STORE_QUERY_H
#define VR_STORE_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;
struct store_stmt;

/**
 * store_stmt_new - prepare @sql (one statement, parameters ?N) on @s for
 * the purpose @what (a noun phrase for error messages; borrowed, it must
 * outlive the statement: a string literal).
 * Returns the statement (free with store_stmt_free()), or NULL after
 * "vmscan-report: DB: WHAT: reason".
 */
struct store_stmt *store_stmt_new(struct store *s, const char *sql, const char *what);

/**
 * store_stmt_newf - store_stmt_new() of the SQL text printf-formatted from
 * @fmt (for fixed fragments chosen by the caller, never for values: values
 * are bound).
 */
struct store_stmt *store_stmt_newf(struct store *s, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * store_bind_* - bind parameter ?@i (from 1) of @q.  Text is borrowed: it
 * must stay valid until the parameter is bound again or @q is freed.  A
 * parameter left unbound is NULL.  A failed bind (no parameter @i) is
 * reported by the next store_step().
 */
void store_bind_int64(struct store_stmt *q, int i, int64_t v);
void store_bind_int(struct store_stmt *q, int i, int v);
void store_bind_double(struct store_stmt *q, int i, double v);
void store_bind_text(struct store_stmt *q, int i, const char *v);
void store_bind_null(struct store_stmt *q, int i);

/**
 * store_step - the next row of @q.  Returns 1 (a row: read it with the
 * store_col_* readers), 0 (no more rows), or -1 after
 * "vmscan-report: DB: WHAT: reason" (also for a NULL @q, then silently:
 * its error was printed when it was prepared).  After 0 or -1 the next
 * call starts the statement again only after store_stmt_reset().
 */
int store_step(struct store_stmt *q);

/** store_stmt_reset - make @q ready to run again; bindings are kept. */
void store_stmt_reset(struct store_stmt *q);

/** store_stmt_free - finalize and free @q; NULL is allowed. */
void store_stmt_free(struct store_stmt *q);

/*
 * store_col_* - column @i (from 0) of the current row of @q (only after
 * store_step() returned 1).  A NULL value reads as 0, 0.0 or NULL text.
 * Text is borrowed until the next step, reset or free of @q.
 */
int64_t store_col_int64(struct store_stmt *q, int i);
int store_col_int(struct store_stmt *q, int i);
double store_col_double(struct store_stmt *q, int i);
const char *store_col_text(struct store_stmt *q, int i);
bool store_col_is_null(struct store_stmt *q, int i);

/**
 * store_stmt_each - step @q to its end, calling @row(@q, @arg) for each
 * row.  @row returns 0 to go on, or non-zero to stop (it prints its own
 * message).  Returns 0 when every row was read, -1 after an SQLite error,
 * or @row's non-zero value.  @q is not freed.
 */
int store_stmt_each(struct store_stmt *q, int (*row)(struct store_stmt *q, void *arg),
		    void *arg);

/**
 * store_stmt_row_int64 - step @q once and read columns 0..@n-1 of the row
 * into @out[0..@n-1] (0 for NULL; all 0 when there is no row).
 * Returns 1 (a row), 0 (no row) or -1 (error, message printed; @out zeros).
 */
int store_stmt_row_int64(struct store_stmt *q, int64_t *out, int n);

/**
 * store_stmt_row_double - as store_stmt_row_int64() with doubles, NAN for
 * a NULL value or when there is no row.
 */
int store_stmt_row_double(struct store_stmt *q, double *out, int n);

/**
 * store_stmt_doubles - column 0 of every row of @q as doubles, rows whose
 * value is NULL left out, in row order.  A statement with a second column
 * gives there how many times the row's value counts (a count of samples of
 * that value: slab_shrink_ns calls); a row whose count is NULL or below 1
 * counts once.
 * @out: OUT: malloc'ed array (NULL when empty); the caller frees it.
 * @n: OUT: its length.  Returns 0, or -1 after a message (*out NULL, *n 0).
 */
int store_stmt_doubles(struct store_stmt *q, double **out, size_t *n);

/**
 * store_stmt_texts - column 0 of every row of @q as strings (NULL values
 * as ""), in row order.
 * @out: OUT: malloc'ed array of malloc'ed strings (NULL when empty); free
 * each and the array.  @n: OUT.  Returns 0, or -1 after a message (*out
 * NULL, *n 0).
 */
int store_stmt_texts(struct store_stmt *q, char ***out, size_t *n);

#endif /* VR_STORE_QUERY_H */
