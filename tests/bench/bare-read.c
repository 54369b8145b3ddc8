// SPDX-License-Identifier: GPL-2.0
/*
 * bare-read - the floor for `load`: read every record of a trace.dat with
 * libtracecmd and do nothing with it.  Modes: "percpu" reads each CPU
 * stream to its end in turn (top buffer and instances), "merge" merges the
 * top buffer's CPU streams record by record by timestamp, "iterate" uses
 * tracecmd_iterate_events(), "fields" merges as "merge" does and, as a
 * loader must, finds each record's event by its id and reads three of its
 * fields (common_pid and the event's first two numeric fields): the floor
 * make bench compares load with (issue 28: "the bare reader").  Prints the
 * record count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

int tracecmd_cpus(struct tracecmd_input *handle);

static int count_cb(struct tracecmd_input *h, struct tep_record *r, int cpu, void *data)
{
	(void)h; (void)r; (void)cpu;
	(*(unsigned long long *)data)++;
	return 0;
}

/* common_pid and the first two numeric fields of @r's event, summed. */
static unsigned long long read_fields(struct tep_handle *tep, struct tep_record *r)
{
	struct tep_event *e = tep_find_event_by_record(tep, r);
	struct tep_format_field *f;
	unsigned long long v, sum = (unsigned long long)tep_data_pid(tep, r);
	int k = 0;

	if (!e)
		return sum;
	for (f = e->format.fields; f && k < 2; f = f->next) {
		if (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))
			continue;
		if (!tep_read_number_field(f, r->data, &v))
			sum += v;
		k++;
	}
	return sum;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	unsigned long long n = 0, sum = 0;

	if (argc != 3)
		return fprintf(stderr, "usage: bare-read percpu|merge|fields|iterate FILE\n"), 2;
	h = tracecmd_open(argv[2], 0);
	if (!h)
		return fprintf(stderr, "bare-read: cannot open %s\n", argv[2]), 1;
	if (!strcmp(argv[1], "merge") || !strcmp(argv[1], "fields")) {
		/* top buffer only: per-CPU streams merged by timestamp */
		int ncpu = tracecmd_cpus(h);
		struct tep_record **cur = calloc(ncpu, sizeof(*cur));
		struct tep_handle *tep = tracecmd_get_tep(h);
		int fields = !strcmp(argv[1], "fields");

		for (int c = 0; c < ncpu; c++)
			cur[c] = tracecmd_read_data(h, c);
		for (;;) {
			int best = -1;

			for (int c = 0; c < ncpu; c++)
				if (cur[c] && (best < 0 || cur[c]->ts < cur[best]->ts))
					best = c;
			if (best < 0)
				break;
			n++;
			if (fields)
				sum += read_fields(tep, cur[best]);
			tracecmd_free_record(cur[best]);
			cur[best] = tracecmd_read_data(h, best);
		}
		free(cur);
	} else if (!strcmp(argv[1], "iterate")) {
		tracecmd_iterate_events(h, NULL, 0, count_cb, &n);
		for (int b = 0; b < tracecmd_buffer_instances(h); b++) {
			struct tracecmd_input *in = tracecmd_buffer_instance_handle(h, b);

			tracecmd_iterate_events(in, NULL, 0, count_cb, &n);
			tracecmd_close(in);
		}
	} else {
		/* the top buffer, then every instance buffer */
		for (int b = -1; b < tracecmd_buffer_instances(h); b++) {
			struct tracecmd_input *in = b < 0 ? h : tracecmd_buffer_instance_handle(h, b);
			int ncpu = tracecmd_cpus(in);

			for (int c = 0; c < ncpu; c++) {
				struct tep_record *r;

				while ((r = tracecmd_read_data(in, c))) {
					n++;
					tracecmd_free_record(r);
				}
			}
			if (b >= 0)
				tracecmd_close(in);
		}
	}
	if (sum == 42)	/* keep the reads */
		fprintf(stderr, "bare-read: sum 42\n");
	printf("%llu\n", n);
	tracecmd_close(h);
	return 0;
}
