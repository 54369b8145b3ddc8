// SPDX-License-Identifier: GPL-2.0
/*
 * load-input.c - opening one input of a load: its trace source (what the
 * file is, its probe and memory policy are the source's: ingest.h) and,
 * for a source that decodes ahead, its model on the reader thread.
 */
#include "load-priv.h"
#include "model.h"
#include "store.h"
#include "vr.h"

#include <string.h>

/*
 * The flag clearing rule of the run labelled @label: the last --flag-clear
 * of that label, else the last without one, else NULL (the release's).
 */
static const char *flag_clear_of(const struct load_opts *o, const char *label)
{
	const char *any = NULL;

	for (int i = o->nflag_clear - 1; i >= 0; i--) {
		const struct load_flag_clear *fc = &o->flag_clear[i];

		if (fc->label && strlen(label) == fc->label_len &&
		    !memcmp(fc->label, label, fc->label_len))
			return o->flag_clear[i].rule;
		if (!o->flag_clear[i].label && !any)
			any = o->flag_clear[i].rule;
	}
	return any;
}

struct model *load_model(struct ingest_source *src, const struct load_opts *o,
			 struct store_derived *sd)
{
	const char *release = ingest_meta(src)->release;
	const char *label = o->kernel ? o->kernel : release ? release : "unknown";
	struct model_sink ms;
	struct model_config cfg = {
		.release = ingest_meta(src)->release,
		.has_field = ingest_has_field,
		.has_field_arg = src,
		.fields_printed = ingest_fields_printed(src),
		.kswapd_pid = ingest_kswapd_pid,
		.kswapd_pid_arg = src,
		.premature_ns = (uint64_t)o->premature_ms * 1000000ULL,
		.flag_clear = flag_clear_of(o, label),
	};

	store_derived_sink(sd, &ms);
	return model_create(&cfg, &ms);
}

/* The model of a source that decodes ahead runs on its reader thread,
 * rows deferred. */
static int model_early_event(void *arg, struct ingest_event *ev)
{
	return model_event(arg, ev);
}

static int model_early_lost(void *arg, int cpu, uint64_t ts_ns, int64_t count)
{
	return model_lost(arg, cpu, ts_ns, count);
}

int load_input_open_source(struct load_input *in, const char *path, const struct load_ctx *c,
			   char **sha256)
{
	struct ingest_opts opts = { .release = c->o.kernel, .low_memory = c->o.low_memory,
				    .supervised = c->supervised, .interrupted = c->interrupted };

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->src = ingest_open(path, &opts, sha256);
	return in->src ? 0 : -1;
}

int load_input_start(struct load_input *in, struct store *st, const struct load_ctx *c)
{
	if (!ingest_decodes_ahead(in->src))
		return 0;
	in->sd = store_derived_open(st, 0);
	store_derived_defer(in->sd);
	in->model = load_model(in->src, &c->o, in->sd);

	struct ingest_early early = { model_early_event, model_early_lost, in->model, NULL };

	return ingest_start(in->src, &early);
}

int load_input_open(struct load_input *in, struct store *st, const char *path,
		    const struct load_ctx *c, char **sha256)
{
	return load_input_open_source(in, path, c, sha256) || load_input_start(in, st, c) ? -1 : 0;
}

struct ingest_source *load_input_detach(struct load_input *in)
{
	struct ingest_source *src = in->src;

	ingest_stop(src);	/* the model is fed on its reader thread */
	model_free(in->model);
	store_derived_close(in->sd);
	memset(in, 0, sizeof(*in));
	return src;
}

void load_input_close(struct load_input *in)
{
	ingest_close(load_input_detach(in));
}
