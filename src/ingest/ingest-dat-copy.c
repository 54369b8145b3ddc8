// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-dat-copy.c - go on reading a compressed trace.dat from an
 * uncompressed copy of it, so that memory stays bounded.
 *
 * libtracecmd 3.1.6 keeps every chunk of a compressed file it decompressed
 * until the file is closed (ingest-dat-spill.c says why), so a load that
 * read a compressed file to the end would hold all of its data, about ten
 * times the file.  Waiting for a copy before reading costs the time of
 * making it; here the reader decodes the compressed file in memory while
 * trace-cmd convert makes the copy, opens the copy on a thread of its own,
 * then moves every CPU cursor to the same record in the copy and closes
 * the compressed file.  Past a cap of data read in memory it waits.
 */
#include "ingest-dat-priv.h"

#include <stdatomic.h>
#include <string.h>
#include <time.h>

/*
 * The uncompressed copy to go on from (ingest_dat_switch_when_copied()):
 * made by trace-cmd convert, then opened on a thread of its own (the
 * reader goes on meanwhile), then taken over by the reader.
 */
struct copy_switch {
	struct ingest_spill *spill;
	uint64_t cap;			/* bytes read in memory before waiting for it */
	bool opening;			/* the opener thread was started */
	pthread_t opener;
	atomic_bool opened;		/* the opener is done: the fields below are set */
	struct tracecmd_input *h;	/* NULL if the copy cannot be opened */
	struct tracecmd_input **inst;
	int ninst, ncur;
	struct dat_cursor *cur;
	struct dat_drop_file drop;	/* the copy, noted while it has its name */
};

void dat_copy_end(struct ingest_dat *d)
{
	struct copy_switch *cs = d->copy;

	if (!cs)
		return;
	if (cs->opening) {
		pthread_join(cs->opener, NULL);
		if (cs->h)
			dat_close_handles(cs->cur, cs->ncur, cs->inst, cs->ninst, cs->h);
	}
	ingest_dat_spill_cancel(cs->spill);	/* an open copy stays readable */
	free(cs);
	d->copy = NULL;
}

void ingest_dat_switch_when_copied(struct ingest_dat *d, struct ingest_spill *s,
				   uint64_t cap_bytes)
{
	dat_copy_end(d);
	if (!s)
		return;
	d->copy = vr_calloc(1, sizeof(*d->copy));
	d->copy->spill = s;
	d->copy->cap = cap_bytes;
}

int64_t ingest_dat_copy_taken_at(const struct ingest_dat *d)
{
	return d->copy_taken_at;
}

/* Bytes of CPU data read so far from the file in memory: what libtracecmd
 * holds decompressed, give or take a chunk per CPU. */
static uint64_t bytes_read(struct ingest_dat *d)
{
	uint64_t sum = 0;

	for (int c = 0; c < d->ncur; c++) {
		struct dat_cursor *cur = &d->cur[c];

		if (cur->rec && cur->rec->offset > cur->base)
			cur->seen = cur->rec->offset - cur->base;
		sum += cur->seen;
	}
	return sum;
}

static bool same_record(const struct tep_record *a, const struct tep_record *b)
{
	return a->ts == b->ts && a->size == b->size && !memcmp(a->data, b->data, (size_t)a->size);
}

/*
 * Does the CPU data of cursor @n (the copy) end where that of @o (@d's file)
 * does, with the same record?  A copy cut short, or of another file, would
 * not.  A record's offset from its CPU's first record is the same in both
 * files, since trace-cmd convert copies the ring-buffer pages as they are.
 * Moves both CPU iterators; @o's is put back after its record.
 */
/*
 * The last record of @o's CPU, read back from the end of its data; for a
 * stream that ended, where it ended (dat_check_cpu_end() found it there):
 * libtracecmd 3.1.6's tracecmd_read_cpu_last() on an iterator already at
 * the end of the last page returns that page's first record.
 */
static struct tep_record *last_record(struct dat_cursor *o)
{
	if (o->rec)
		return tracecmd_read_cpu_last(o->handle, o->cpu);
	return o->any ? tracecmd_read_at(o->handle, o->last, NULL) : NULL;
}

static bool same_extent(struct dat_cursor *o, struct dat_cursor *n)
{
	struct tep_record *a = last_record(o);
	struct tep_record *b = tracecmd_read_cpu_last(n->handle, n->cpu);
	bool same = (!a && !b) || (a && b && a->offset - o->base == b->offset - n->base &&
				   same_record(a, b));

	tracecmd_free_record(a);
	tracecmd_free_record(b);
	if (o->rec)
		tracecmd_free_record(tracecmd_read_at(o->handle, o->rec->offset, NULL));
	return same;
}

/*
 * Move the cursors @nw of the copy to where @d's cursors are (same offset
 * from the CPU's first record; a CPU @d has read to the end is ended).
 * 0, or -1 if a record there is not the one @d holds.
 */
static int align_cursors(struct ingest_dat *d, struct dat_cursor *nw)
{
	for (int c = 0; c < d->ncur; c++) {
		struct dat_cursor *o = &d->cur[c], *n = &nw[c];
		int cpu = -1;

		if (n->cpu != o->cpu || !same_extent(o, n))
			return -1;
		n->counted = o->counted;	/* offsets from the first record match */
		tracecmd_free_record(n->rec);
		n->rec = NULL;
		if (!o->rec)
			continue;
		n->rec = tracecmd_read_at(n->handle, n->base + (o->rec->offset - o->base), &cpu);
		if (!n->rec || cpu != n->cpu || !same_record(o->rec, n->rec))
			return -1;
	}
	return 0;
}

/* The opener thread: open the copy and its cursors (libtracecmd parses the
 * headers and kallsyms, about 0.2 s, while the reader goes on). */
static void *open_copy(void *arg)
{
	struct copy_switch *cs = arg;
	struct tracecmd_input *clock_from = NULL;

	pthread_mutex_lock(&dat_open_lock);
	cs->h = tracecmd_open(ingest_dat_spill_path(cs->spill), TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	pthread_mutex_unlock(&dat_open_lock);
	dat_drop_init(&cs->drop, ingest_dat_spill_path(cs->spill));
	if (cs->h) {
		cs->inst = vr_calloc((size_t)tracecmd_buffer_instances(cs->h) + 1, sizeof(*cs->inst));
		cs->cur = dat_open_cursors(cs->h, cs->inst, &cs->ninst, &cs->ncur, &clock_from);
	}
	atomic_store(&cs->opened, true);
	return NULL;
}

/*
 * Go on reading from the opened copy, and close the file in memory.  The
 * old tep_handle stays until the end: events in flight point at its event
 * and function names.  0, or -1 (nothing changed) if the copy does not
 * match.
 */
static int take_copy(struct ingest_dat *d, struct copy_switch *cs)
{
	if (!cs->h || cs->ncur != d->ncur || cs->ninst != d->ninstances ||
	    align_cursors(d, cs->cur))
		return -1;
	d->copy_taken_at = (int64_t)bytes_read(d);
	d->old_tep = d->tep;
	tep_ref(d->old_tep);
	dat_release_tracecmd(d);
	d->handle = cs->h;
	d->tep = tracecmd_get_tep(cs->h);
	d->cur = cs->cur;
	d->ncur = cs->ncur;
	d->instances = cs->inst;
	d->ninstances = cs->ninst;
	d->drop = cs->drop;
	cs->h = NULL;		/* now @d's */
	for (int i = 0; i < d->nevents; i++) {	/* plans point into the old formats */
		free(d->events[i].extra);
		memset(&d->events[i], 0, sizeof(d->events[i]));
	}
	return 0;
}

/*
 * One step towards the copy: start opening it once made and three
 * quarters of the cap are read in memory (its tracecmd_open() takes about
 * 0.2 s, some 15 MB of reading: 16 MiB of the default 64 MiB cap), take
 * it once open; @in_memory: bytes_read().  1 when nothing more is to be
 * done (switched, or given up), else 0.  Waits nothing.
 *
 * A copy made early is taken near the cap all the same: the memory budget
 * is the cap whatever the trace, so that a load's peak does not depend on
 * how soon trace-cmd finished (make bench: 98 MB on the first 1M events of
 * its trace, 127 MB on all 3M, when the copy was taken as soon as made).
 */
static int copy_step(struct ingest_dat *d, struct copy_switch *cs, uint64_t in_memory)
{
	int made;

	if (!cs->opening) {
		if (in_memory < cs->cap - cs->cap / 4)
			return 0;
		made = ingest_dat_spill_poll(cs->spill);
		if (made < 0)
			vr_warn("%s: reading it in memory after all", d->path);
		if (made <= 0)
			return made < 0;
		if (pthread_create(&cs->opener, NULL, open_copy, cs)) {
			vr_warn("%s: cannot open its uncompressed copy: reading it in memory", d->path);
			return 1;
		}
		cs->opening = true;
		return 0;
	}
	if (!atomic_load(&cs->opened))
		return 0;
	pthread_join(cs->opener, NULL);
	cs->opening = false;
	if (take_copy(d, cs))
		vr_warn("%s: its uncompressed copy does not match it: reading it in memory",
			d->path);
	if (cs->h)
		dat_close_handles(cs->cur, cs->ncur, cs->inst, cs->ninst, cs->h);
	return 1;
}

void dat_poll_copy(struct ingest_dat *d, bool (*stop)(void *arg), void *arg)
{
	uint64_t in_memory;

	while (!copy_step(d, d->copy, in_memory = bytes_read(d))) {
		if (in_memory < d->copy->cap || stop(arg) ||
		    (d->early.interrupted && *d->early.interrupted))
			return;
		nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
	}
	dat_copy_end(d);
}
