/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spec.h - the one table of event specs.  Each known event (system + name)
 * lists the union of its fields across kernel versions 4.4 to 6.18 (and the
 * 7.1 additions known so far).  The table drives both the SQLite schema (one
 * typed table per event, named after the event) and the decoding (fields
 * are looked up by name in the formats stored in each trace file, once per
 * file).  Field history: the TRACE_EVENT definitions in
 * include/trace/events/{vmscan,writeback,compaction,sched}.h per release,
 * summarised with their commits in README.md "Tracepoints and their fields
 * by kernel version" and next to each entry in src/spec.c.
 */
#ifndef VR_SPEC_H
#define VR_SPEC_H

#include <stddef.h>

/* Most fields any spec lists; checked by a unit test. */
#define VR_SPEC_MAX_FIELDS 16

enum vr_field_type {
	VR_FT_INT,	/* integer of any size, stored as SQLite INTEGER (int64;
			 * unsigned 64-bit values above INT64_MAX keep their bit
			 * pattern, e.g. kernel pointers read negative;
			 * a counter there is refused: spec_field_is_counter()) */
	VR_FT_TEXT,	/* char array or __data_loc string, stored as TEXT */
};

enum vr_field_flags {
	VR_FF_KSYM = 1 << 0,	/* a kernel address: the store adds a column
				 * <column>_sym with the symbol name resolved
				 * from the kallsyms saved in the file */
	VR_FF_MODEL = 1 << 1,	/* in no kernel's format: the model fills it in
				 * while loading (model.h says which), the
				 * decoders never read it, and its column comes
				 * after `extra` */
};

struct vr_field_spec {
	const char *name;	/* field name in the kernel's format file */
	const char *column;	/* SQL column; NULL means same as name */
	enum vr_field_type type;
	unsigned int flags;	/* enum vr_field_flags */
};

struct vr_event_spec {
	const char *system;	/* trace system, e.g. "vmscan" */
	const char *name;	/* event name, also the SQL table name */
	const char *versions;	/* kernels that have it, for documentation */
	struct vr_field_spec fields[VR_SPEC_MAX_FIELDS]; /* ends at name NULL */
};

/* The table, in a fixed order; indexes into it are stable within a build. */
extern const struct vr_event_spec vr_event_specs[];
extern const size_t vr_event_specs_count;

/**
 * spec_find - find the spec of @system:@name.
 * Returns its index in vr_event_specs, or -1 if the event is not known
 * (such events go to the generic other_event table).
 */
int spec_find(const char *system, const char *name);

/**
 * spec_field_is_counter - is @name a page counter the kernel declares
 * unsigned long (or unsigned int) in its TP_STRUCT__entry (nr_scanned,
 * nr_reclaimed, ...; the list and its sources in src/spec.c)?  Such a value
 * above 2^63 - 1 is no count (stored, it would read negative): both
 * readers refuse it, the text one at its line, the trace.dat one at its
 * CPU and timestamp.
 */
int spec_field_is_counter(const char *name);

/** spec_nfields - number of fields of spec @idx (0 <= idx < count). */
int spec_nfields(int idx);

/**
 * spec_column - SQL column name of field @f of spec @idx (the column
 * override, or the kernel field name).  Borrowed from the static table.
 */
const char *spec_column(int idx, int f);

/**
 * spec_decoded - is field @f of spec @idx read from the trace (not a
 * VR_FF_MODEL field)?
 */
static inline int spec_decoded(int idx, int f)
{
	return !(vr_event_specs[idx].fields[f].flags & VR_FF_MODEL);
}

/* Columns every event table starts with, in this order. */
#define VR_SPEC_COMMON_COLUMNS "run_id", "ts_ns", "cpu", "pid"

#endif /* VR_SPEC_H */
