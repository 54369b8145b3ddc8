/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfile.h - output files that are never left half-written, never written
 * through a symbolic link, and never replace a file this tool did not write.
 *
 * struct outfile: one file.  Its bytes go to a temporary in the same
 * directory, ".vmscan-report-PID.NAME", created with O_CREAT | O_EXCL (which
 * neither follows nor reuses anything already at that name).  Committing it
 * checks every write, the flush, fsync(2) and close(2), then rename(2)s the
 * temporary over NAME; rename replaces a symbolic link at NAME itself and
 * never writes through it, and a symbolic link found there beforehand is an
 * error.  On any failure the temporary is removed and whatever NAME held is
 * left as it was.  Used by `chart -o` (through render-cairo.c).
 *
 * struct outdir: the files of one directory written as one whole
 * (`report -o DIR`).  DIR/MANIFEST lists each file written with the SHA-256
 * of its content, in sha256sum(1)'s format ("HEX  NAME", after a "#"
 * comment line, so `sha256sum -c MANIFEST` checks the directory).  A file
 * is replaced or removed only when it is still what MANIFEST records; a
 * name taken by anything else (a user's file, a file changed since, a
 * symbolic link, a directory) makes the whole directory fail with nothing
 * replaced.  Nothing is renamed until every file has been written.
 *
 * Errors are printed with vr_error() as "vmscan-report: PATH: what" and the
 * functions return -1 or NULL; callers only decide what to do next.
 */
#ifndef VR_OUTFILE_H
#define VR_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

struct outfile;
struct outdir;

/**
 * outfile_create - start writing @path (a chart named by the user).
 * @path is absent or a regular file, which outfile_commit() replaces; a
 * symbolic link, a directory or any other kind of file at @path is an
 * error ("PATH: is a symbolic link: not followed, not replaced").  The
 * temporary is created with mode 0666 less the umask.
 * Returns the file (owned by the caller until outfile_commit() or
 * outfile_abort()), or NULL after a message (no such directory, cannot
 * create the temporary).
 */
struct outfile *outfile_create(const char *path);

/**
 * outfile_write - append @len bytes of @buf to @of's temporary.  Returns 0,
 * or -1 when this or an earlier write failed; the first failure's errno is
 * kept for outfile_finish()'s message (no message here, so that cairo's
 * write callback can call it).
 */
int outfile_write(struct outfile *of, const void *buf, size_t len);

/**
 * outfile_stream - a stdio stream writing through outfile_write() (a
 * fopencookie(3) stream, so the reason of a failed write is kept); closed
 * by outfile_finish().  Borrowed; NULL after a message when it cannot be
 * made, and @of has then failed.
 */
FILE *outfile_stream(struct outfile *of);

/** outfile_path - the name the file will have once committed (borrowed). */
const char *outfile_path(const struct outfile *of);

/** outfile_error - errno of the first failed write, or 0. */
int outfile_error(const struct outfile *of);

/**
 * outfile_finish - complete the temporary: close the stream, fsync(2),
 * hash, close(2).  Returns 0; or -1 after "PATH: cannot write: REASON"
 * (ENOSPC gives "No space left on device"), the temporary removed and @of
 * failed.  Calling it again returns the same result.
 */
int outfile_finish(struct outfile *of);

/**
 * outfile_fail - give up on @of: remove its temporary; it stays failed
 * (outdir_commit() then replaces nothing).  @err: an errno to report as
 * "PATH: cannot write: REASON", or 0 when the caller printed the message.
 */
void outfile_fail(struct outfile *of, int err);

/**
 * outfile_commit - outfile_finish(), then rename the temporary over the
 * name and fsync the directory; frees @of.  Only for a file of
 * outfile_create() (an outdir commits its own).  Returns 0 or -1 after a
 * message (the name then holds what it held before).
 */
int outfile_commit(struct outfile *of);

/** outfile_abort - remove the temporary and free @of (of outfile_create(); NULL is fine). */
void outfile_abort(struct outfile *of);

/**
 * outdir_open - start writing the files of directory @dir (created, mode
 * 0777 less the umask, when missing).  Reads DIR/MANIFEST:
 *  - absent: no file in @dir is ours;
 *  - "# vmscan-report" first line, then "HEX  NAME" lines: NAME is ours
 *    while its content has SHA-256 HEX;
 *  - a list of plain names, the last one "MANIFEST" (written by a
 *    vmscan-report before hashes were recorded): NAME is ours when it
 *    matches one of the fnmatch(3) patterns @legacy (NULL-terminated; the
 *    names the writer uses), others are left alone with a warning.
 * Anything else at DIR/MANIFEST is not ours and is never replaced: error.
 * Also finishes the replacement of a vmscan-report killed during
 * outdir_commit()'s renames (outdir_settle()), then removes the temporaries
 * of vmscan-reports that died while writing here (".vmscan-report-PID."
 * with PID no longer running or a zombie, regular files).
 * Returns the directory (owned; outdir_commit() or outdir_abort() frees
 * it) or NULL after a message ("DIR: cannot write the bundle there: not a
 * directory", "DIR/MANIFEST: not written by vmscan-report ...").
 */
struct outdir *outdir_open(const char *dir, const char *const *legacy);

/**
 * outdir_settle - after a writer of @dir died: finish the replacement it
 * began and could not end (killed during outdir_commit()'s renames, after
 * its intent was written: the files then MANIFEST put in place from its
 * temporaries), as outdir_open() does for any dead process, and remove the
 * temporaries of the dead (the writer reaped by the caller).  @legacy as
 * for outdir_open().  Says what it finished.  Returns the number of
 * replacements finished (0: nothing was begun, the directory is as it was).
 */
int outdir_settle(const char *dir, const char *const *legacy);

/**
 * outdir_remove_temporaries - remove the temporaries that process @pid (a
 * child of the caller, ended) left in @dir: ".vmscan-report-PID." regular
 * files, as outdir_open() removes those of any dead process.  No message.
 */
void outdir_remove_temporaries(const char *dir, pid_t pid);

/**
 * outdir_create - start writing @name in @d.  @name must be a plain file
 * name (no '/', no leading '.', no control characters, not "MANIFEST", not
 * used before in @d).  It may replace only a regular file that DIR/MANIFEST
 * says is ours with its content unchanged; anything else at @name is an
 * error ("DIR/NAME: not written by vmscan-report ...: not replaced").
 * Returns the file, owned by @d (write it, then outfile_finish() or
 * outfile_fail(); never outfile_commit()), or NULL after a message; the
 * whole of @d has then failed.  Once @d has failed, returns NULL for every
 * later name, with a message only for names that are taken.
 */
struct outfile *outdir_create(struct outdir *d, const char *name);

/**
 * outdir_commit - when every file of @d was written: write DIR/MANIFEST
 * (the files in the order created, with their SHA-256), rename each file
 * over its name, remove the files of the previous MANIFEST that are not
 * written again and are still ours (a changed one is kept, with a
 * warning), then rename MANIFEST and fsync @dir.  Otherwise, or when
 * MANIFEST cannot be written, every temporary is removed and @dir is as
 * it was.  Frees @d.  Returns 0, or -1 after "DIR: nothing replaced ...".
 * A kill between the first rename and the last leaves new files under a
 * MANIFEST listing the old hashes: the next run then refuses to replace
 * them (they are not what MANIFEST records), it never deletes them.
 */
int outdir_commit(struct outdir *d);

/**
 * outdir_abort - remove every temporary of @d and free it; @dir is as it
 * was (a @dir outdir_open() made is removed again when it is empty).
 */
void outdir_abort(struct outdir *d);

#endif /* VR_OUTFILE_H */
