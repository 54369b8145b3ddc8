// SPDX-License-Identifier: GPL-2.0
/*
 * model-pidmap.c - the model's per-task hash (model-pidmap.h).
 */
#include "model-pidmap.h"
#include "model.h"
#include "vr.h"

#include <stdlib.h>
#include <string.h>

void model_pidmap_init(struct model_pidmap *pm, size_t vsize)
{
	memset(pm, 0, sizeof(*pm));
	pm->vsize = vsize;
}

void model_pidmap_release(struct model_pidmap *pm)
{
	free(pm->keys);
	free(pm->vals);
	model_pidmap_init(pm, pm->vsize);
}

static size_t pm_hash(int64_t key, size_t cap)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

static size_t pm_slot(const struct model_pidmap *pm, int64_t key)
{
	size_t i = pm_hash(key, pm->cap);

	while (pm->keys[i] != MODEL_NULL && pm->keys[i] != key)
		i = (i + 1) & (pm->cap - 1);
	return i;
}

void *model_pidmap_find(const struct model_pidmap *pm, int64_t key)
{
	size_t i;

	if (!pm->n)
		return NULL;
	i = pm_slot(pm, key);
	return pm->keys[i] == key ? pm->vals + i * pm->vsize : NULL;
}

static void pm_grow(struct model_pidmap *pm)
{
	struct model_pidmap old = *pm;
	size_t cap = old.cap ? old.cap * 2 : 64;

	pm->cap = cap;
	pm->n = 0;
	pm->keys = vr_malloc(cap * sizeof(*pm->keys));
	pm->vals = vr_calloc(cap, pm->vsize);
	for (size_t i = 0; i < cap; i++)
		pm->keys[i] = MODEL_NULL;
	for (size_t i = 0; i < old.cap; i++) {
		if (old.keys[i] == MODEL_NULL)
			continue;
		size_t j = pm_slot(pm, old.keys[i]);

		pm->keys[j] = old.keys[i];
		memcpy(pm->vals + j * pm->vsize, old.vals + i * old.vsize, pm->vsize);
		pm->n++;
	}
	free(old.keys);
	free(old.vals);
}

void *model_pidmap_get(struct model_pidmap *pm, int64_t key, bool *fresh)
{
	size_t i;

	if ((pm->n + 1) * 4 > pm->cap * 3)
		pm_grow(pm);
	i = pm_slot(pm, key);
	*fresh = pm->keys[i] != key;
	if (*fresh) {
		pm->keys[i] = key;
		memset(pm->vals + i * pm->vsize, 0, pm->vsize);
		pm->n++;
	}
	return pm->vals + i * pm->vsize;
}

void model_pidmap_remove(struct model_pidmap *pm, int64_t key)
{
	size_t mask, i, j;

	if (!pm->n)
		return;
	mask = pm->cap - 1;
	i = pm_slot(pm, key);
	if (pm->keys[i] != key)
		return;
	/* backward shift: move later entries of the run into the hole */
	for (j = (i + 1) & mask; pm->keys[j] != MODEL_NULL; j = (j + 1) & mask) {
		size_t home = pm_hash(pm->keys[j], pm->cap);

		/* can the entry at j live at i?  only if home is not in (i, j] */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			pm->keys[i] = pm->keys[j];
			memcpy(pm->vals + i * pm->vsize, pm->vals + j * pm->vsize, pm->vsize);
			i = j;
		}
	}
	pm->keys[i] = MODEL_NULL;
	pm->n--;
}

void *model_pidmap_next(const struct model_pidmap *pm, size_t *slot, int64_t *key)
{
	for (size_t i = *slot; i < pm->cap; i++) {
		if (pm->keys[i] == MODEL_NULL)
			continue;
		*slot = i + 1;
		*key = pm->keys[i];
		return pm->vals + i * pm->vsize;
	}
	*slot = pm->cap;
	return NULL;
}
