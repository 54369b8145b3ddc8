// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-tasks.c - the comm each pid had over time, as the readers see it
 * in timestamp order: one span per (pid, comm) run of events, for the task
 * table, and interned comm strings that stay valid until the tracker is
 * freed (so that the model can keep a stall's comm from its begin to its
 * end without copying it).
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
			uint64_t ts_ns, bool saved)
{
	struct task_span *s = open_span(t, pid);
	struct task_span n;

	if (s && strlen(s->comm) == len && !memcmp(s->comm, comm, len)) {
		if ((int64_t)ts_ns > s->last_ns)
			s->last_ns = (int64_t)ts_ns;
		s->saved &= saved;	/* an event says so too */
		return s->comm;
	}
	if (s && s->saved)
		t->saved_later++;
	n = (struct task_span){ pid, intern(t, comm, len), (int64_t)ts_ns, (int64_t)ts_ns, saved };
	g_array_append_val(t->spans, n);
	g_hash_table_insert(t->cur, GINT_TO_POINTER(pid + 1),
			    GUINT_TO_POINTER(t->spans->len - 1));
	return n.comm;
}

const char *ingest_tasks_note(struct ingest_tasks *t, int pid, const char *comm, size_t len,
			      uint64_t ts_ns)
{
	return note(t, pid, comm, len, ts_ns, false);
}

const char *ingest_tasks_note_saved(struct ingest_tasks *t, int pid, const char *comm,
				    uint64_t ts_ns)
{
	return note(t, pid, comm, strlen(comm), ts_ns, true);
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

	for (guint i = 0; !ret && sink->task && i < t->spans->len; i++) {
		const struct task_span *s = &g_array_index(t->spans, struct task_span, i);

		ret = sink->task(sink->arg, s->pid, s->comm, s->first_ns, s->last_ns);
	}
	return ret;
}
