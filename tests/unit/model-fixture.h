/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-fixture.h - helpers for the model unit tests (test-model-*.c):
 * build struct ingest_event values by event and field name, a format stub
 * for model_config.has_field, and a sink that copies every row into memory.
 * Include after <cmocka.h>.
 */
#ifndef VR_MODEL_FIXTURE_H
#define VR_MODEL_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "spec.h"

#define MS(x) ((uint64_t)((x) * 1000000.0 + 0.5))	/* ms -> ns */
#define CAP_MAX 64

struct cap {
	struct model_stall stall[CAP_MAX];
	char stall_nids[CAP_MAX][64];
	int nstall;
	struct model_kswapd_cycle cyc[CAP_MAX];
	int ncyc;
	struct model_wakeup wk[CAP_MAX];
	int nwk;
	struct model_flag flag[CAP_MAX];
	char flag_ev[CAP_MAX][128];
	int nflag;
	struct model_throttle thr[CAP_MAX];
	int nthr;
	struct model_slab slab[CAP_MAX];
	char slab_name[CAP_MAX][64];
	int nslab;
	struct model_write wr[CAP_MAX];
	int nwr;
	char q_item[CAP_MAX][64];
	char q_detail[CAP_MAX][256];
	int64_t q_count[CAP_MAX];
	int nq;
};

static int cap_stall(void *a, const struct model_stall *r)
{
	struct cap *c = a;

	assert_true(c->nstall < CAP_MAX);
	c->stall[c->nstall] = *r;
	if (r->nids) {
		snprintf(c->stall_nids[c->nstall], sizeof(c->stall_nids[0]), "%s", r->nids);
		c->stall[c->nstall].nids = c->stall_nids[c->nstall];
	}
	c->nstall++;
	return 0;
}

static int cap_cycle(void *a, const struct model_kswapd_cycle *r)
{
	struct cap *c = a;

	assert_true(c->ncyc < CAP_MAX);
	c->cyc[c->ncyc++] = *r;
	return 0;
}

static int cap_wakeup(void *a, const struct model_wakeup *r)
{
	struct cap *c = a;

	assert_true(c->nwk < CAP_MAX);
	c->wk[c->nwk++] = *r;
	return 0;
}

static int cap_flag(void *a, const struct model_flag *r)
{
	struct cap *c = a;

	assert_true(c->nflag < CAP_MAX);
	snprintf(c->flag_ev[c->nflag], sizeof(c->flag_ev[0]), "%s", r->evidence);
	c->flag[c->nflag] = *r;
	c->flag[c->nflag].evidence = c->flag_ev[c->nflag];
	c->nflag++;
	return 0;
}

static int cap_throttle(void *a, const struct model_throttle *r)
{
	struct cap *c = a;

	assert_true(c->nthr < CAP_MAX);
	c->thr[c->nthr++] = *r;
	return 0;
}

static int cap_slab(void *a, const struct model_slab *r)
{
	struct cap *c = a;

	assert_true(c->nslab < CAP_MAX);
	snprintf(c->slab_name[c->nslab], sizeof(c->slab_name[0]), "%s",
		 r->shrinker ? r->shrinker : "(null)");
	c->slab[c->nslab] = *r;
	c->slab[c->nslab].shrinker = c->slab_name[c->nslab];
	c->nslab++;
	return 0;
}

static int cap_write(void *a, const struct model_write *r)
{
	struct cap *c = a;

	assert_true(c->nwr < CAP_MAX);
	c->wr[c->nwr++] = *r;
	return 0;
}

static int cap_quality(void *a, const char *item, int64_t count, const char *detail)
{
	struct cap *c = a;

	assert_true(c->nq < CAP_MAX);
	snprintf(c->q_item[c->nq], sizeof(c->q_item[0]), "%s", item);
	snprintf(c->q_detail[c->nq], sizeof(c->q_detail[0]), "%s", detail ? detail : "");
	c->q_count[c->nq++] = count;
	return 0;
}

/* Count of quality item @item, or -1 if it was not emitted. */
static inline int64_t cap_q(const struct cap *c, const char *item)
{
	for (int i = 0; i < c->nq; i++)
		if (!strcmp(c->q_item[i], item))
			return c->q_count[i];
	return -1;
}

static inline const char *cap_q_detail(const struct cap *c, const char *item)
{
	for (int i = 0; i < c->nq; i++)
		if (!strcmp(c->q_item[i], item))
			return c->q_detail[i];
	return NULL;
}

static inline struct model_sink cap_sink(struct cap *c)
{
	memset(c, 0, sizeof(*c));
	return (struct model_sink){ .stall = cap_stall, .kswapd_cycle = cap_cycle,
				    .wakeup = cap_wakeup, .flag = cap_flag,
				    .throttle = cap_throttle, .slab = cap_slab, .write = cap_write,
				    .quality = cap_quality, .arg = c };
}

/*
 * Format stub: @arg is a NULL-terminated list of "event" and
 * "event.field" strings the recording has.
 */
static int fmt_has(void *arg, const char *system, const char *event, const char *field)
{
	const char *const *l = arg;
	size_t n = strlen(event);

	(void)system;
	for (; *l; l++) {
		if (strncmp(*l, event, n) || ((*l)[n] != '\0' && (*l)[n] != '.'))
			continue;
		if (!field || ((*l)[n] == '.' && !strcmp(*l + n + 1, field)))
			return 1;
	}
	return 0;
}

/*
 * ev_set - fill @ev as event @name at @ts_ns from @pid; then pairs of
 * (field name, int64 value) ending with NULL.  Text fields take a
 * (const char *) value instead.
 */
static inline void ev_set(struct ingest_event *ev, const char *system, const char *name,
			  uint64_t ts_ns, int cpu, int pid, ...)
{
	va_list ap;
	const char *f;
	int spec = spec_find(system, name);

	assert_true(spec >= 0);
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = ts_ns;
	ev->cpu = cpu;
	ev->pid = pid;
	ev->spec = spec;
	ev->system = system;
	ev->name = name;
	va_start(ap, pid);
	while ((f = va_arg(ap, const char *))) {
		int i;

		for (i = 0; i < spec_nfields(spec); i++)
			if (!strcmp(vr_event_specs[spec].fields[i].name, f))
				break;
		assert_true(i < spec_nfields(spec));
		if (vr_event_specs[spec].fields[i].type == VR_FT_TEXT)
			ev->str[i] = va_arg(ap, const char *);
		else
			ev->val[i] = va_arg(ap, int64_t);
		ev->present |= 1u << i;
	}
	va_end(ap);
}

/* Feed one event built by ev_set() with the same arguments. */
#define FEED(m, ...) do {					\
		struct ingest_event ev_;			\
		ev_set(&ev_, __VA_ARGS__, NULL);		\
		assert_int_equal(model_event((m), &ev_), 0);	\
	} while (0)

#define I64(x) ((int64_t)(x))

#endif /* VR_MODEL_FIXTURE_H */
