// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the model's per-task hash (src/model/model-pidmap.c): a few
 * thousand random inserts, finds and removes against a plain array kept
 * beside it (keys 0..N-1 map to array slots), with the map growing and
 * with removals that must shift later entries of a probe run back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model.h"
#include "model-pidmap.h"

#define NKEYS 700

struct val {
	int64_t key;
	uint32_t seq;
};

/* The map against @present/@seq: every key found iff present, with its value. */
static void check_all(const struct model_pidmap *pm, const bool *present, const uint32_t *seq)
{
	size_t n = 0;

	for (int64_t k = 0; k < NKEYS; k++) {
		const struct val *v = model_pidmap_find(pm, k * 131);

		if (!present[k]) {
			assert_null(v);
			continue;
		}
		assert_non_null(v);
		assert_int_equal(v->key, k * 131);
		assert_int_equal(v->seq, seq[k]);
		n++;
	}
	assert_int_equal(pm->n, n);
}

static void test_random_ops(void **state)
{
	struct model_pidmap pm;
	bool present[NKEYS] = { false };
	uint32_t seq[NKEYS] = { 0 };
	unsigned int rnd = 12345;

	(void)state;
	model_pidmap_init(&pm, sizeof(struct val));
	assert_null(model_pidmap_find(&pm, 5));
	for (uint32_t i = 1; i <= 20000; i++) {
		int64_t k;
		bool fresh;
		struct val *v;

		rnd = rnd * 1103515245u + 12345u;
		k = (rnd >> 8) % NKEYS;
		if ((rnd >> 4) % 3) {	/* two in three: insert or update */
			v = model_pidmap_get(&pm, k * 131, &fresh);
			assert_int_equal(fresh, !present[k]);
			if (fresh)
				assert_int_equal(v->seq, 0);	/* zero-filled */
			v->key = k * 131;
			v->seq = seq[k] = i;
			present[k] = true;
		} else {
			model_pidmap_remove(&pm, k * 131);
			present[k] = false;
		}
		if (i % 997 == 0)
			check_all(&pm, present, seq);
	}
	check_all(&pm, present, seq);
	model_pidmap_release(&pm);
	assert_int_equal(pm.n, 0);
	assert_null(model_pidmap_find(&pm, 131));
}

/* model_pidmap_next() visits every entry once. */
static void test_next(void **state)
{
	struct model_pidmap pm;
	bool seen[64] = { false };
	size_t slot = 0, count = 0;
	int64_t key;
	bool fresh;
	struct val *v;

	(void)state;
	model_pidmap_init(&pm, sizeof(struct val));
	assert_null(model_pidmap_next(&pm, &slot, &key));
	for (int64_t k = 0; k < 64; k += 3)
		((struct val *)model_pidmap_get(&pm, k, &fresh))->key = k;
	slot = 0;
	while ((v = model_pidmap_next(&pm, &slot, &key))) {
		assert_int_equal(v->key, key);
		assert_true(key % 3 == 0 && !seen[key]);
		seen[key] = true;
		count++;
	}
	assert_int_equal(count, 22);	/* 0, 3, ..., 63 */
	model_pidmap_release(&pm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ops),
		cmocka_unit_test(test_next),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
