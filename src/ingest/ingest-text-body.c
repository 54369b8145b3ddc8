// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-text-body.c - event bodies of text traces -> spec fields.
 *
 * Bodies are `label=value` lists (the kernel's print formats) except for
 * mm_shrink_slab_* ("nid: %d objects to shrink %ld ...") and the trace-cmd
 * sched plugin's sched_switch/sched_wakeup forms, which have small phrase
 * parsers.  Labels are mapped to spec field names by label_maps[] below;
 * the labels are those of the TP_printk() formats of include/trace/events/
 * {vmscan,writeback,compaction,sched}.h in 2.6.35-6.18.
 * A value whose number depends on the kernel build (gfp flag names,
 * compaction status, task states other than R/S/D) is stored NULL and its
 * text kept in the event's extra JSON.
 */
#define _GNU_SOURCE	/* memmem */
#include "ingest-text-priv.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* How a printed value becomes the field's number. */
enum text_conv {
	CV_NUM,			/* decimal or 0x hex */
	CV_RECLAIM_FLAGS,	/* RECLAIM_WB_FILE|RECLAIM_WB_ASYNC -> 0xa */
	CV_LRU,			/* inactive_file -> 2 */
	CV_GFP,			/* numeric or "none"; names depend on the build */
	CV_THROTTLE,		/* VMSCAN_THROTTLE_WRITEBACK -> 0x1 (1 << reason) */
	CV_HOPELESS,		/* KSWAPD -> 1 (enum kswapd_clear_hopeless_reason) */
	CV_SYNC_MODE,		/* compaction mode=sync/async -> sync 1/0 */
	CV_TASK_STATE,		/* R -> 0, S -> 1, D -> 2; others symbolic */
	CV_SYMBOLIC,		/* numeric, else kept as text (compaction status) */
	CV_EXTRA,		/* never a field: kept in extra (page=%p) */
};

/*
 * Printed label -> spec field, where they differ or need a conversion.
 * event NULL: any event.  field "*zone": classzone_idx before 5.8,
 * highest_zoneidx from 5.8 (97a225e69a1f kept the label `classzone=`).
 */
struct label_map {
	const char *event;
	const char *label;
	const char *field;
	enum text_conv conv;
};

static const struct label_map label_maps[] = {
	{ "mm_vmscan_lru_isolate", "classzone", "*zone", CV_NUM },
	{ "mm_vmscan_memcg_isolate", "classzone", "*zone", CV_NUM },
	{ "mm_vmscan_lru_shrink_inactive", "nr_activate_anon", "nr_activate0", CV_NUM },
	{ "mm_vmscan_lru_shrink_inactive", "nr_activate_file", "nr_activate1", CV_NUM },
	{ "mm_vmscan_reclaim_pages", "nr_activate_anon", "nr_activate0", CV_NUM },
	{ "mm_vmscan_reclaim_pages", "nr_activate_file", "nr_activate1", CV_NUM },
	{ "mm_vmscan_throttled", "usect_delayed", "usec_delayed", CV_NUM },	/* sic, 5.16+ */
	{ "mm_vmscan_throttled", "reason", "reason", CV_THROTTLE },
	{ "mm_vmscan_kswapd_clear_hopeless", "reason", "reason", CV_HOPELESS },
	{ "mm_vmscan_reset_kswapd_failures", "reason", "reason", CV_HOPELESS },
	{ "mm_vmscan_writepage", "page", NULL, CV_EXTRA },	/* %p of pfn_to_page() */
	{ "mm_vmscan_write_folio", "page", NULL, CV_EXTRA },
	{ "mm_compaction_begin", "mode", "sync", CV_SYNC_MODE },
	{ "mm_compaction_end", "mode", "sync", CV_SYNC_MODE },
	{ "mm_compaction_end", "status", "status", CV_SYMBOLIC },
	{ "sched_switch", "prev_state", "prev_state", CV_TASK_STATE },
	{ NULL, "flags", "reclaim_flags", CV_RECLAIM_FLAGS },
	{ NULL, "reclaim_flags", "reclaim_flags", CV_RECLAIM_FLAGS },
	{ NULL, "lru", "lru", CV_LRU },
	{ NULL, "gfp_flags", "gfp_flags", CV_GFP },
};

/* Phrase-printed events: "PHRASE VALUE" pairs (mm_shrink_slab_*). */
struct phrase_map {
	const char *event;
	const char *phrase;	/* followed by a space and the value */
	const char *field;
	enum text_conv conv;
};

static const struct phrase_map phrase_maps[] = {
	{ "mm_shrink_slab_start", "nid:", "nid", CV_NUM },
	{ "mm_shrink_slab_start", "objects to shrink", "nr_objects_to_shrink", CV_NUM },
	{ "mm_shrink_slab_start", "gfp_flags", "gfp_flags", CV_GFP },
	{ "mm_shrink_slab_start", "pgs_scanned", "pgs_scanned", CV_NUM },
	{ "mm_shrink_slab_start", "lru_pgs", "lru_pgs", CV_NUM },
	{ "mm_shrink_slab_start", "cache items", "cache_items", CV_NUM },
	{ "mm_shrink_slab_start", "delta", "delta", CV_NUM },
	{ "mm_shrink_slab_start", "total_scan", "total_scan", CV_NUM },
	{ "mm_shrink_slab_start", "priority", "priority", CV_NUM },
	{ "mm_shrink_slab_end", "nid:", "nid", CV_NUM },
	{ "mm_shrink_slab_end", "unused scan count", "unused_scan", CV_NUM },
	{ "mm_shrink_slab_end", "new scan count", "new_scan", CV_NUM },
	{ "mm_shrink_slab_end", "total_scan", "total_scan", CV_NUM },
	{ "mm_shrink_slab_end", "last shrinker return val", "retval", CV_NUM },
};

struct name_value {
	const char *name;
	int64_t value;
};

/* include/trace/events/vmscan.h: RECLAIM_WB_* (show_reclaim_flags). */
static const struct name_value reclaim_flag_names[] = {
	{ "RECLAIM_WB_ANON", 0x1 }, { "RECLAIM_WB_FILE", 0x2 }, { "RECLAIM_WB_SYNC", 0x4 },
	{ "RECLAIM_WB_ASYNC", 0x8 }, { "RECLAIM_WB_MIXED", 0x10 }, { "RECLAIM_WB_NONE", 0 },
	{ NULL, 0 }
};
/*
 * show_gfp_flags() names with their 6.18 values, evaluated from the print
 * format of mm_vmscan_direct_reclaim_begin on a 6.18.44 kernel
 * (include/linux/gfp_types.h; bits 0-23 do not depend on the kernel
 * config).  Left out: __GFP_SKIP_ZERO, __GFP_SKIP_KASAN, __GFP_NOLOCKDEP
 * and __GFP_NO_OBJ_EXT, whose bits move with CONFIG_KASAN_HW_TAGS,
 * CONFIG_LOCKDEP and CONFIG_SLAB_OBJ_EXT: a string with them stays text.
 * Other releases moved bits (GFP_KERNEL was 0x24000c0 in 4.4-4.9, 0x14000c0
 * in 4.10-4.14), so their names are kept as text rather than guessed.
 */
static const struct name_value gfp_names_6_18[] = {
	{ "GFP_TRANSHUGE", 0x1c24ca }, { "GFP_TRANSHUGE_LIGHT", 0x1c20ca },
	{ "GFP_HIGHUSER_MOVABLE", 0x100cca }, { "GFP_HIGHUSER", 0x100cc2 },
	{ "GFP_USER", 0x100cc0 }, { "GFP_KERNEL_ACCOUNT", 0x400cc0 },
	{ "GFP_KERNEL", 0xcc0 }, { "GFP_NOFS", 0xc40 }, { "GFP_ATOMIC", 0x820 },
	{ "GFP_NOIO", 0xc00 }, { "GFP_NOWAIT", 0x2800 }, { "GFP_DMA", 0x1 },
	{ "GFP_DMA32", 0x4 }, { "__GFP_RECLAIM", 0xc00 }, { "__GFP_DMA", 0x1 },
	{ "__GFP_HIGHMEM", 0x2 }, { "__GFP_DMA32", 0x4 }, { "__GFP_MOVABLE", 0x8 },
	{ "__GFP_RECLAIMABLE", 0x10 }, { "__GFP_HIGH", 0x20 }, { "__GFP_IO", 0x40 },
	{ "__GFP_FS", 0x80 }, { "__GFP_ZERO", 0x100 }, { "__GFP_DIRECT_RECLAIM", 0x400 },
	{ "__GFP_KSWAPD_RECLAIM", 0x800 }, { "__GFP_WRITE", 0x1000 },
	{ "__GFP_NOWARN", 0x2000 }, { "__GFP_RETRY_MAYFAIL", 0x4000 },
	{ "__GFP_NOFAIL", 0x8000 }, { "__GFP_NORETRY", 0x10000 },
	{ "__GFP_MEMALLOC", 0x20000 }, { "__GFP_COMP", 0x40000 },
	{ "__GFP_NOMEMALLOC", 0x80000 }, { "__GFP_HARDWALL", 0x100000 },
	{ "__GFP_THISNODE", 0x200000 }, { "__GFP_ACCOUNT", 0x400000 },
	{ "__GFP_ZEROTAGS", 0x800000 },
	{ NULL, 0 }
};
/* include/linux/mmzone.h enum lru_list (LRU_NAMES). */
static const struct name_value lru_names[] = {
	{ "inactive_anon", 0 }, { "active_anon", 1 }, { "inactive_file", 2 },
	{ "active_file", 3 }, { "unevictable", 4 },
	/* the short spellings of the node-LRU series as it stood in mmotm
	 * for 4.7, before the names of include/linux/mmzone.h LRU_NAMES */
	{ "ia_anon", 0 }, { "ac_anon", 1 }, { "ia_file", 2 }, { "ac_file", 3 },
	{ NULL, 0 }
};
/* include/trace/events/vmscan.h show_throttle_flags(), 5.16+. */
static const struct name_value throttle_names[] = {
	{ "VMSCAN_THROTTLE_WRITEBACK", 0x1 }, { "VMSCAN_THROTTLE_ISOLATED", 0x2 },
	{ "VMSCAN_THROTTLE_NOPROGRESS", 0x4 }, { "VMSCAN_THROTTLE_CONGESTED", 0x8 },
	{ NULL, 0 }
};
/*
 * enum kswapd_clear_hopeless_reason (include/linux/mmzone.h), printed by
 * name by mm_vmscan_kswapd_clear_hopeless: a45088376d8a "mm/vmscan: add
 * tracepoint and reason for kswapd_failures reset" (Jiayuan Chen, Jan
 * 2026, v4 of the series).  A name not listed (a later reason) keeps its
 * text in extra, the value NULL.
 */
static const struct name_value hopeless_names[] = {
	{ "OTHER", 0 }, { "KSWAPD", 1 }, { "DIRECT", 2 }, { "PCP", 3 },
	{ NULL, 0 }
};


static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/*
 * Parse an integer: optional '-', decimal (leading zeros are decimal, as in
 * "target_cpu=003") or 0x hex up to 64 bits (kept as the bit pattern).
 * Returns 0, -2 for a number beyond 64 bits, or -1 for anything else.
 */
static int parse_num(const char *s, size_t n, int64_t *out)
{
	bool neg = false;
	uint64_t v = 0;
	size_t i = 0;

	if (n && s[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i >= n)
		return -1;
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		size_t z = i + 2;

		while (z < n - 1 && s[z] == '0')	/* leading zeros are no overflow */
			z++;
		if (neg)
			return -1;
		if (n - z > 16)
			return strspn(s + z, "0123456789abcdefABCDEF") == n - z ? -2 : -1;
		for (i += 2; i < n; i++) {
			int c = s[i], d;

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
				return -1;
			v = v << 4 | (uint64_t)d;
		}
		*out = (int64_t)v;
		return 0;
	}
	for (size_t k = i; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return -1;
	for (; i < n; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -2;
		v = v * 10 + d;
	}
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return -2;
		*out = (int64_t)(0 - v);
	} else {
		*out = (int64_t)v;	/* above INT64_MAX: bit pattern, as in ingest-dat */
	}
	return 0;
}

/* "A|B|0x10" against @names; every part must be known.  0 or -1. */
static int parse_flags(const char *s, size_t n, const struct name_value *names, int64_t *out)
{
	int64_t v = 0;
	size_t i = 0;

	if (!n)
		return -1;
	while (i <= n) {
		size_t j = i;
		int64_t part;
		bool found = false;

		while (j < n && s[j] != '|')
			j++;
		for (const struct name_value *nv = names; nv->name; nv++)
			if (strlen(nv->name) == j - i && !memcmp(nv->name, s + i, j - i)) {
				v |= nv->value;
				found = true;
				break;
			}
		if (!found) {
			if (parse_num(s + i, j - i, &part))
				return -1;
			v |= part;
		}
		i = j + 1;
	}
	*out = v;
	return 0;
}


static int spec_field(int spec, const char *name, size_t len)
{
	for (int f = 0; f < VR_SPEC_MAX_FIELDS && vr_event_specs[spec].fields[f].name; f++) {
		const char *fn = vr_event_specs[spec].fields[f].name;

		if (strlen(fn) == len && !memcmp(fn, name, len) && spec_decoded(spec, f))
			return f;
	}
	return -1;
}

/* Plain decimal that fits int64 without doubt (at most 18 digits). */
static bool plain_decimal(const char *v, size_t n)
{
	size_t i = n && v[0] == '-';

	if (i >= n || n - i > 18 || (v[i] == '0' && n - i > 1))
		return false;
	for (; i < n; i++)
		if (!isdigit((unsigned char)v[i]))
			return false;
	return true;
}

/* Append "key":value to the event's extra JSON; a plain decimal value is
 * written as a number when @as_number, everything else as a string. */
void ingest_text_json_add(struct text_ctx *c, const char *key, size_t klen, const char *v,
			  size_t vlen, bool as_number)
{
	struct vr_buf *b = &c->json;

	vr_buf_addstr(b, b->len ? "," : "{");
	vr_buf_add_json_str(b, key, klen);
	vr_buf_addstr(b, ":");
	if (as_number && plain_decimal(v, vlen))
		vr_buf_add(b, v, vlen);
	else
		vr_buf_add_json_str(b, v, vlen);
}

#define json_add ingest_text_json_add

static void note_bad_field(struct text_ctx *c, uint32_t lineno)
{
	if (!c->st->bad_fields++)
		c->st->first_bad_field = lineno;
}

/*
 * A kernel address printed as its symbol ("super_cache_scan+0x0/0x1a0", as
 * %pS prints; "+0x..." the offset, "/0x..." the size, then maybe a
 * " [module]"): the name before the last "+0x" is what the trace.dat
 * reader stores in the field's _sym column; the address stays absent
 * (NULL).  Anything else gives no name.
 */
static void set_symbol(struct text_ctx *c, int f, const char *v, size_t vlen,
		       struct ingest_event *ev)
{
	const char *plus = NULL;

	for (const char *p = v; p + 2 < v + vlen; p++)
		if (p[0] == '+' && p[1] == '0' && p[2] == 'x')
			plus = p;
	if (!plus || plus == v)
		return;
	vr_buf_reset(&c->text[f]);
	vr_buf_add(&c->text[f], v, (size_t)(plus - v));
	ev->str[f] = c->text[f].buf;
}

/*
 * Fields the kernel declares int, unsigned int, pid_t or bool in
 * TP_STRUCT__entry of include/trace/events/vmscan.h (nid, zid, order,
 * highest_zoneidx / classzone_idx, priority, lru, reclaim_flags, retval,
 * usec_timeout, usec_delayed, reason: 4.4-6.18), writeback.h (usec_*,
 * unsigned int, up to 5.17), compaction.h (sync, status) and sched.h
 * (pids, prios, success, target_cpu): a printed value beyond 32 bits
 * cannot have come from them.  gfp_flags is left out (unsigned long from
 * 5.19), as are the unsigned long counters and pfns.
 */
static const char *const int32_fields[] = {
	"nid", "zid", "order", "classzone_idx", "highest_zoneidx", "priority", "lru",
	"reclaim_flags", "retval", "usec_timeout", "usec_delayed", "reason", "may_writepage",
	"isolate_mode", "file", "sync", "status", "prev_pid", "next_pid", "prev_prio",
	"next_prio", "pid", "prio", "success", "target_cpu", NULL
};

/*
 * Unsigned long pfns, struct page addresses and gfp masks, printed in hex
 * (%lx, %p: vmscan.h writepage, compaction.h compaction_begin/end): a
 * minus sign cannot have come from them; above 2^63 - 1 they are stored as
 * the bit pattern, as ingest-dat stores them.
 */
static const char *const unsigned_fields[] = {
	"page", "pfn", "zone_start", "migrate_pfn", "free_pfn", "zone_end", "gfp_flags", NULL
};

static bool listed(const char *const *names, const char *name)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Why @x (printed as @v) cannot be field @f of @spec, or NULL if it can. */
static const char *out_of_field(int spec, int f, int64_t x, const char *v)
{
	const char *name = vr_event_specs[spec].fields[f].name;

	if (listed(int32_fields, name) && (x < INT32_MIN || x > (int64_t)UINT32_MAX))
		return "out of range (the kernel's field is a 32-bit integer)";
	if (spec_field_is_counter(name) && x < 0)
		return v[0] == '-' ? "out of range (the kernel's field is an unsigned counter)"
				   : "out of range (a counter above 2^63 - 1)";
	if (listed(unsigned_fields, name) && v[0] == '-')
		return "out of range (the kernel's field is unsigned)";
	return NULL;
}

/* A value out of range: remembered for the caller to report. */
static void bad_value(struct text_ctx *c, const char *label, size_t llen, const char *v,
		      size_t vlen, const char *why)
{
	if (c->bad_value)
		return;
	c->bad_value = true;
	snprintf(c->bad_why, sizeof(c->bad_why), "%.*s=%.*s: %s", (int)(llen > 40 ? 40 : llen),
		 label, (int)(vlen > 40 ? 40 : vlen), v, why);
}

/*
 * Store @v as field @f of @ev by @conv.  A value that cannot be converted
 * goes to extra as text: counted as symbolic when its number depends on
 * the kernel build, else as a bad field.
 */
static void set_field(struct text_ctx *c, int spec, int f, enum text_conv conv, const char *label,
		      size_t llen, const char *v, size_t vlen, struct ingest_event *ev,
		      uint32_t lineno)
{
	int64_t x = 0;
	int r = -1;
	bool symbolic = false;
	const char *why;

	if (c->printed & (1u << f)) {	/* "nr_reclaimed=0 ... nr_reclaimed=999999" */
		bad_value(c, label, llen, v, vlen, "given twice in the line (no kernel event"
			  " prints a field twice: which is it?)");
		return;
	}
	c->printed |= 1u << f;
	if (vr_event_specs[spec].fields[f].type == VR_FT_TEXT) {
		vr_buf_reset(&c->text[f]);
		vr_buf_add(&c->text[f], v, vlen);
		ev->str[f] = c->text[f].buf;
		ev->present |= 1u << f;
		return;
	}
	switch (conv) {
	case CV_NUM:
		r = parse_num(v, vlen, &x);
		/* a kernel address printed as a symbol ("shrink=super_cache_scan+0x0"):
		 * the address is not in the text */
		symbolic = r && (vr_event_specs[spec].fields[f].flags & VR_FF_KSYM);
		break;
	case CV_RECLAIM_FLAGS:
		r = parse_flags(v, vlen, reclaim_flag_names, &x);
		break;
	case CV_LRU:
		r = parse_flags(v, vlen, lru_names, &x);
		if (!r && memchr(v, '|', vlen))
			r = -1;
		break;
	case CV_THROTTLE:
		r = parse_flags(v, vlen, throttle_names, &x);
		break;
	case CV_HOPELESS:
		r = memchr(v, '|', vlen) ? -1 : parse_flags(v, vlen, hopeless_names, &x);
		symbolic = r != 0;
		break;
	case CV_SYNC_MODE:
		if (vlen == 4 && !memcmp(v, "sync", 4))
			x = 1, r = 0;
		else if (vlen == 5 && !memcmp(v, "async", 5))
			x = 0, r = 0;
		else
			r = parse_num(v, vlen, &x);
		break;
	case CV_GFP:
		if (vlen == 4 && !memcmp(v, "none", 4))
			x = 0, r = 0;
		else if (c->gfp_6_18)
			r = parse_flags(v, vlen, gfp_names_6_18, &x);
		else
			r = parse_num(v, vlen, &x);
		symbolic = r != 0;
		break;
	case CV_TASK_STATE:
		if (vlen == 1 && (v[0] == 'R' || v[0] == 'S' || v[0] == 'D'))
			x = v[0] == 'R' ? 0 : v[0] == 'S' ? 1 : 2, r = 0;
		else
			r = parse_num(v, vlen, &x);
		symbolic = r != 0;
		break;
	case CV_SYMBOLIC:
		r = parse_num(v, vlen, &x);
		symbolic = r != 0;
		break;
	case CV_EXTRA:
		break;
	}
	if (!r && (why = out_of_field(spec, f, x, v))) {
		bad_value(c, label, llen, v, vlen, why);
		return;
	}
	if (!r) {
		ev->val[f] = x;
		ev->present |= 1u << f;
		return;
	}
	if (r == -2) {
		bad_value(c, label, llen, v, vlen, "out of range (more than 64 bits)");
		return;
	}
	if (symbolic)
		c->st->symbolic++;
	else
		note_bad_field(c, lineno);
	if (symbolic && (vr_event_specs[spec].fields[f].flags & VR_FF_KSYM))
		set_symbol(c, f, v, vlen, ev);
	json_add(c, label, llen, v, vlen, false);
}

/* Route one label=value of a known event. */
static void put_label(struct text_ctx *c, int spec, const char *ename, const char *l, size_t ll,
		      const char *v, size_t vl, struct ingest_event *ev, uint32_t lineno)
{
	const struct label_map *m = NULL;
	const char *fname;
	int f;

	for (size_t i = 0; i < VR_ARRAY_SIZE(label_maps); i++) {
		const struct label_map *lm = &label_maps[i];

		if (strlen(lm->label) == ll && !memcmp(lm->label, l, ll) &&
		    (!lm->event || !strcmp(lm->event, ename))) {
			m = lm;
			break;
		}
	}
	if (m && m->conv == CV_EXTRA) {
		json_add(c, l, ll, v, vl, false);
		return;
	}
	fname = m ? m->field : NULL;
	if (fname && !strcmp(fname, "*zone"))
		fname = c->zone_new ? "highest_zoneidx" : "classzone_idx";
	f = fname ? spec_field(spec, fname, strlen(fname)) : spec_field(spec, l, ll);
	if (f < 0) {
		json_add(c, l, ll, v, vl, true);
		return;
	}
	set_field(c, spec, f, m ? m->conv : CV_NUM, l, ll, v, vl, ev, lineno);
}

enum text_label_kind ingest_text_label_kind(int spec, const char *ename, const char *l,
					    size_t ll)
{
	const struct label_map *m = NULL;
	const char *fname;
	int f;

	if (spec < 0)
		return TL_ANY;
	for (size_t i = 0; i < VR_ARRAY_SIZE(label_maps) && !m; i++)
		if (strlen(label_maps[i].label) == ll && !memcmp(label_maps[i].label, l, ll) &&
		    (!label_maps[i].event || !strcmp(label_maps[i].event, ename)))
			m = &label_maps[i];
	if (m && m->conv == CV_EXTRA)
		return TL_ANY;
	fname = m ? m->field : NULL;
	if (fname && !strcmp(fname, "*zone"))
		return TL_NUMBER;
	f = fname ? spec_field(spec, fname, strlen(fname)) : spec_field(spec, l, ll);
	if (f < 0)
		return TL_UNKNOWN;
	if (vr_event_specs[spec].fields[f].type == VR_FT_TEXT ||
	    (vr_event_specs[spec].fields[f].flags & VR_FF_KSYM) || (m && m->conv != CV_NUM))
		return TL_ANY;
	return TL_NUMBER;
}

bool ingest_text_label_prefix(int spec, const char *ename, const char *l, size_t ll)
{
	if (spec < 0)
		return true;
	for (size_t i = 0; i < VR_ARRAY_SIZE(label_maps); i++)
		if (!strncmp(label_maps[i].label, l, ll) && strlen(label_maps[i].label) >= ll &&
		    (!label_maps[i].event || !strcmp(label_maps[i].event, ename)))
			return true;
	for (int f = 0; f < VR_SPEC_MAX_FIELDS && vr_event_specs[spec].fields[f].name; f++)
		if (!strncmp(vr_event_specs[spec].fields[f].name, l, ll) &&
		    strlen(vr_event_specs[spec].fields[f].name) >= ll)
			return true;
	return false;
}

/* Is there an identifier followed by '=' at @i?  *@eq gets the '='. */
static bool label_at(const char *s, size_t n, size_t i, size_t *eq)
{
	size_t j = i;

	while (j < n && is_ident((unsigned char)s[j]))
		j++;
	if (j == i || j >= n || s[j] != '=')
		return false;
	*eq = j;
	return true;
}

static bool arrow_at(const char *s, size_t n, size_t i)
{
	return i + 4 <= n && !memcmp(s + i, " ==>", 4);
}

/*
 * Walk "label=value label=value ..." (a value runs to the next " label=" or
 * " ==> ", so comms with spaces survive).  Returns false if @s does not
 * start with a label.
 */
static bool walk_labels(struct text_ctx *c, int spec, const char *ename, const char *s, size_t n,
			struct ingest_event *ev, uint32_t lineno)
{
	size_t i = 0, eq, tmp;

	if (!label_at(s, n, 0, &eq))
		return false;
	while (i < n) {
		size_t v0, p;

		if (!label_at(s, n, i, &eq)) {	/* stray text: keep it */
			json_add(c, "text", 4, s + i, n - i, false);
			break;
		}
		v0 = eq + 1;
		for (p = v0; p < n; p++)
			if (s[p] == ' ' && (arrow_at(s, n, p) || label_at(s, n, p + 1, &tmp)))
				break;
		size_t ve = p;

		while (ve > v0 && (s[ve - 1] == ' ' || s[ve - 1] == ','))
			ve--;
		if (spec >= 0)
			put_label(c, spec, ename, s + i, eq - i, s + v0, ve - v0, ev, lineno);
		else
			json_add(c, s + i, eq - i, s + v0, ve - v0, true);
		i = p;
		while (i < n && s[i] == ' ')
			i++;
		if (i + 3 <= n && !memcmp(s + i, "==>", 3))
			for (i += 3; i < n && s[i] == ' '; i++)
				;
	}
	return true;
}

/* "super_cache_scan+0x0/0x1a0 0xffff88...: nid: 0 objects to shrink 5 ..." */
static void walk_phrases(struct text_ctx *c, int spec, const char *ename, const char *s, size_t n,
			 struct ingest_event *ev, uint32_t lineno)
{
	size_t sym = 0;
	bool any = false;

	while (sym < n && s[sym] != ' ')
		sym++;
	if (sym) {
		int f = spec_field(spec, "shrink", 6);

		if (f >= 0)
			set_symbol(c, f, s, sym, ev);
		json_add(c, "shrink", 6, s, sym, false);
	}
	for (size_t i = 0; i < VR_ARRAY_SIZE(phrase_maps); i++) {
		const struct phrase_map *pm = &phrase_maps[i];
		size_t pl = strlen(pm->phrase);
		const char *hit = s;

		if (strcmp(pm->event, ename))
			continue;
		/* the phrase must start a word and be followed by a space */
		for (;;) {
			hit = memmem(hit, n - (size_t)(hit - s), pm->phrase, pl);
			if (!hit || ((hit == s || hit[-1] == ' ') && hit + pl < s + n &&
				     hit[pl] == ' '))
				break;
			hit++;
		}
		if (!hit)
			continue;
		const char *v = hit + pl + 1;
		size_t vl = 0;

		while (v + vl < s + n && v[vl] != ' ')
			vl++;
		int f = spec_field(spec, pm->field, strlen(pm->field));

		if (f >= 0) {
			set_field(c, spec, f, pm->conv, pm->field, strlen(pm->field), v, vl, ev,
				  lineno);
			any = true;
		}
	}
	if (!any)
		json_add(c, "text", 4, s, n, false);
}

/*
 * trace-cmd's sched plugin: "prev:123 [120] S ==> next:0 [120]" and
 * "comm:123 [120] success=1 CPU:003".  Task names may hold spaces and ':'.
 */
static bool task_part(const char *s, size_t n, const char **comm, size_t *cl, int64_t *pid,
		      int64_t *prio, size_t *end)
{
	const char *br = memmem(s, n, " [", 2);
	size_t colon, b0, b1;

	if (!br)
		return false;
	b0 = (size_t)(br - s);
	colon = b0;
	while (colon > 0 && s[colon - 1] != ':')
		colon--;
	if (!colon || parse_num(s + colon, b0 - colon, pid))
		return false;
	b1 = b0 + 2;
	while (b1 < n && s[b1] != ']')
		b1++;
	if (b1 >= n || parse_num(s + b0 + 2, b1 - b0 - 2, prio))
		return false;
	*comm = s;
	*cl = colon - 1;
	*end = b1 + 1;
	return true;
}

/* Set field @fname of @ev from text, if the spec has it. */
static void set_named(struct text_ctx *c, int spec, const char *fname, enum text_conv conv,
		      const char *v, size_t vl, struct ingest_event *ev, uint32_t lineno)
{
	int f = spec_field(spec, fname, strlen(fname));

	if (f >= 0)
		set_field(c, spec, f, conv, fname, strlen(fname), v, vl, ev, lineno);
}

static void set_int(struct text_ctx *c, int spec, const char *fname, int64_t v,
		    struct ingest_event *ev)
{
	int f = spec_field(spec, fname, strlen(fname));
	char num[24];
	const char *why;

	snprintf(num, sizeof(num), "%lld", (long long)v);
	if (f >= 0 && (why = out_of_field(spec, f, v, num))) {
		bad_value(c, fname, strlen(fname), num, strlen(num), why);
	} else if (f >= 0) {
		ev->val[f] = v;
		ev->present |= 1u << f;
	}
}

/* Length of the word at @s (up to a space or @end). */
static size_t word_len(const char *s, const char *end)
{
	size_t n = 0;

	while (s + n < end && s[n] != ' ')
		n++;
	return n;
}

static void sched_plugin(struct text_ctx *c, int spec, const char *ename, const char *s, size_t n,
			 struct ingest_event *ev, uint32_t lineno)
{
	const char *comm, *end_s = s + n;
	size_t cl, end;
	int64_t pid, prio;
	bool sw = !strcmp(ename, "sched_switch");
	const char *arrow = sw ? memmem(s, n, " ==> ", 5) : NULL;

	if ((sw && !arrow) || !task_part(s, sw ? (size_t)(arrow - s) : n, &comm, &cl, &pid, &prio,
					 &end)) {
		json_add(c, "text", 4, s, n, false);
		note_bad_field(c, lineno);
		return;
	}
	set_named(c, spec, sw ? "prev_comm" : "comm", CV_NUM, comm, cl, ev, lineno);
	set_int(c, spec, sw ? "prev_pid" : "pid", pid, ev);
	set_int(c, spec, sw ? "prev_prio" : "prio", prio, ev);
	if (sw) {
		size_t a = end, rest = (size_t)(arrow - s);
		const char *r = arrow + 5;
		size_t rn = (size_t)(end_s - r);

		while (a < rest && s[a] == ' ')
			a++;
		set_named(c, spec, "prev_state", CV_TASK_STATE, s + a, rest - a, ev, lineno);
		if (task_part(r, rn, &comm, &cl, &pid, &prio, &end)) {
			set_named(c, spec, "next_comm", CV_NUM, comm, cl, ev, lineno);
			set_int(c, spec, "next_pid", pid, ev);
			set_int(c, spec, "next_prio", prio, ev);
		} else {
			note_bad_field(c, lineno);
			json_add(c, "text", 4, r, rn, false);
		}
		return;
	}
	const char *cpu = memmem(s + end, n - end, "CPU:", 4);
	const char *succ = memmem(s + end, n - end, "success=", 8);

	if (succ)
		set_named(c, spec, "success", CV_NUM, succ + 8, word_len(succ + 8, end_s), ev,
			  lineno);
	if (cpu)
		set_named(c, spec, "target_cpu", CV_NUM, cpu + 4, word_len(cpu + 4, end_s), ev,
			  lineno);
}

void ingest_text_body(struct text_ctx *c, int spec, const char *ename, const char *body,
		      size_t n, struct ingest_event *ev, uint32_t lineno)
{
	c->printed = 0;
	if (n >= 17 && !memcmp(body, "[FAILED TO PARSE]", 17)) {
		c->st->failed_to_parse++;
		json_add(c, "text", 4, body, n, false);
	} else if (!walk_labels(c, spec, ename, body, n, ev, lineno) && n) {
		if (spec >= 0 && !strncmp(ename, "mm_shrink_slab_", 15))
			walk_phrases(c, spec, ename, body, n, ev, lineno);
		else if (spec >= 0 && (!strcmp(ename, "sched_switch") ||
				       !strcmp(ename, "sched_wakeup") ||
				       !strcmp(ename, "sched_waking")))
			sched_plugin(c, spec, ename, body, n, ev, lineno);
		else
			json_add(c, "text", 4, body, n, false);
	}
}
