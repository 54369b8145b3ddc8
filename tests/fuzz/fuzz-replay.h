/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz-replay.h - main() for the replay build of a fuzz target: run
 * LLVMFuzzerTestOneInput() once on each file named on the command line
 * (SQLite fuzzcheck style).  `make test` uses it on tests/fuzz/corpus-*
 * and tests/fuzz/crashes; a crash or abort fails the test.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		do {
			if (len == cap) {
				cap = cap ? cap * 2 : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	printf("replayed %d input(s)\n", argc - 1);
	return 0;
}
