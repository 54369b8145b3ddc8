// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-tasks.c - the comm each pid had over time, as the readers see it
 * in timestamp order: one span per (pid, comm) run of events, for the task
 * table, and interned comm strings that stay valid until the tracker is
 * freed (so that the model can keep a stall's comm from its begin to its
 * end without copying it).
 *
 * Each span says where its comm came from (ingest_task_span.source).  A
 * trace.dat pid with rows before any sched event names it takes the saved
 * cmdline for them, provisionally: trace-cmd saves the kernel's
 * saved_cmdlines at the end of the recording, so that is the pid's *last*
 * name, wrong for the rows before an exec.  When the trace then shows a
 * name for the pid (the first sched event naming it), that first shown
 * name is the one those early rows get: the span is renamed, and the span
 * reports the saved name it replaced and until when (ingest_task_span.
 * replaced, replaced_until_ns), so that rows already written under it
 * (the derived rows' comm) are renamed too (store.c).  A pid the trace
 * never names keeps the saved cmdline, its source "saved_cmdline".
 */
#include "ingest-priv.h"
#include "vr.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

/* The comm of one pid from first_ns to last_ns. */
struct task_span {
	int pid;
	const char *comm;	/* interned */
	int64_t first_ns, last_ns;
	bool saved;		/* taken from the saved cmdlines, not an event */
	const char *source;	/* where the comm came from (static) */
	const char *replaced;	/* the saved comm it replaced (interned), or NULL */
	int64_t replaced_until_ns;	/* the last row under that one */
};

struct ingest_tasks {
	GHashTable *names;	/* interned comms (owned keys) */
	GHashTable *cur;	/* pid + 1 -> index in spans of its open span */
	GArray *spans;		/* struct task_span, in the order they opened */
	struct vr_buf key;
	uint64_t saved_later;	/* saved spans an event's comm followed */
};

struct ingest_tasks *ingest_tasks_new(void)
{
	struct ingest_tasks *t = vr_calloc(1, sizeof(*t));

	t->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	t->cur = g_hash_table_new(g_direct_hash, g_direct_equal);
	t->spans = g_array_new(FALSE, FALSE, sizeof(struct task_span));
	vr_buf_init(&t->key);
	return t;
}

void ingest_tasks_free(struct ingest_tasks *t)
{
	if (!t)
		return;
	g_hash_table_destroy(t->names);
	g_hash_table_destroy(t->cur);
	g_array_free(t->spans, TRUE);
	vr_buf_release(&t->key);
	free(t);
}

static const char *intern(struct ingest_tasks *t, const char *comm, size_t len)
{
	char *name;

	vr_buf_reset(&t->key);
	vr_buf_add(&t->key, comm, len);
	name = g_hash_table_lookup(t->names, t->key.buf);
	if (!name) {
		name = g_strndup(comm, len);
		g_hash_table_add(t->names, name);
	}
	return name;
}

static struct task_span *open_span(struct ingest_tasks *t, int pid)
{
	gpointer v;

	if (!g_hash_table_lookup_extended(t->cur, GINT_TO_POINTER(pid + 1), NULL, &v))
		return NULL;
	return &g_array_index(t->spans, struct task_span, GPOINTER_TO_UINT(v));
}

static const char *note(struct ingest_tasks *t, int pid, const char *comm, size_t len,
			uint64_t ts_ns, bool saved, const char *source)
{
	struct task_span *s = open_span(t, pid);
	struct task_span n;

	if (s && strlen(s->comm) == len && !memcmp(s->comm, comm, len)) {
		if ((int64_t)ts_ns > s->last_ns)
			s->last_ns = (int64_t)ts_ns;
		if (s->saved && !saved)		/* an event says so too */
			s->source = source;
		s->saved &= saved;
		return s->comm;
	}
	if (s && s->saved && !saved) {
		/* the first name the trace shows: the early rows had it too */
		t->saved_later++;
		s->replaced = s->comm;
		s->replaced_until_ns = s->last_ns;
		s->comm = intern(t, comm, len);
		s->source = source;
		s->saved = false;
		if ((int64_t)ts_ns > s->last_ns)
			s->last_ns = (int64_t)ts_ns;
		return s->comm;
	}
	n = (struct task_span){ pid, intern(t, comm, len), (int64_t)ts_ns, (int64_t)ts_ns, saved,
				source, NULL, 0 };
	g_array_append_val(t->spans, n);
	g_hash_table_insert(t->cur, GINT_TO_POINTER(pid + 1),
			    GUINT_TO_POINTER(t->spans->len - 1));
	return n.comm;
}

const char *ingest_tasks_note(struct ingest_tasks *t, int pid, const char *comm, size_t len,
			      uint64_t ts_ns)
{
	return note(t, pid, comm, len, ts_ns, false, "line");
}

const char *ingest_tasks_note_from(struct ingest_tasks *t, int pid, const char *comm, size_t len,
				   uint64_t ts_ns, const char *source)
{
	return note(t, pid, comm, len, ts_ns, false, source);
}

const char *ingest_tasks_note_saved(struct ingest_tasks *t, int pid, const char *comm,
				    uint64_t ts_ns)
{
	return note(t, pid, comm, strlen(comm), ts_ns, true, "saved_cmdline");
}

uint64_t ingest_tasks_saved_later(const struct ingest_tasks *t)
{
	return t->saved_later;
}

const char *ingest_tasks_current(struct ingest_tasks *t, int pid, uint64_t ts_ns)
{
	struct task_span *s = open_span(t, pid);

	if (!s)
		return NULL;
	if ((int64_t)ts_ns > s->last_ns)
		s->last_ns = (int64_t)ts_ns;
	return s->comm;
}

int ingest_tasks_emit(const struct ingest_tasks *t, const struct ingest_sink *sink)
{
	int ret = 0;

	for (guint i = 0; !ret && (sink->task || sink->task_span) && i < t->spans->len; i++) {
		const struct task_span *s = &g_array_index(t->spans, struct task_span, i);
		struct ingest_task_span ts = {
			.pid = s->pid, .comm = s->comm, .source = s->source,
			.first_ns = s->first_ns, .last_ns = s->last_ns,
			.replaced = s->replaced, .replaced_until_ns = s->replaced_until_ns,
		};

		ret = sink->task_span ? sink->task_span(sink->arg, &ts) :
		      sink->task(sink->arg, s->pid, s->comm, s->first_ns, s->last_ns);
	}
	return ret;
}
