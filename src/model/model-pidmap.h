/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-pidmap.h - open-addressing hash from an int64 key (a pid, or a pid
 * and a kind) to a fixed-size value, for the model's per-task state
 * machines.  Linear probing, backward-shift deletion; allocates only when
 * it grows (load factor at most 3/4).  Not a public interface.
 */
#ifndef VR_MODEL_PIDMAP_H
#define VR_MODEL_PIDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct model_pidmap {
	size_t vsize;		/* bytes per value */
	size_t cap, n;		/* slots (power of two), used */
	int64_t *keys;		/* MODEL_NULL marks an empty slot */
	unsigned char *vals;
};

/** model_pidmap_init - an empty map of @vsize-byte values; no allocation. */
void model_pidmap_init(struct model_pidmap *pm, size_t vsize);
/** model_pidmap_release - free the slots; @pm is empty (and reusable) after. */
void model_pidmap_release(struct model_pidmap *pm);
/** model_pidmap_find - the value of @key (borrowed, valid until the map
 * changes), or NULL.  @key must not be MODEL_NULL. */
void *model_pidmap_find(const struct model_pidmap *pm, int64_t key);
/** model_pidmap_get - the value of @key, inserted zero-filled if missing
 * (*@fresh = true); valid until the map changes. */
void *model_pidmap_get(struct model_pidmap *pm, int64_t key, bool *fresh);
/** model_pidmap_remove - remove @key if present. */
void model_pidmap_remove(struct model_pidmap *pm, int64_t key);
/**
 * model_pidmap_next - the next used slot from *@slot on (start with 0), in
 * slot order: its key in *@key and its value returned; NULL when there is
 * none.  *@slot is advanced past it.  The map must not change meanwhile.
 */
void *model_pidmap_next(const struct model_pidmap *pm, size_t *slot, int64_t *key);

#endif /* VR_MODEL_PIDMAP_H */
