// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-dat-drop.c - keep the memory a user sees near the load's own while
 * an uncompressed trace.dat (a user's, or the copy of a compressed one) is
 * read through libtracecmd's mappings of it.
 *
 * libtracecmd 3.1.6 reads an uncompressed file's CPU data through
 * mmap(PROT_READ, MAP_PRIVATE) windows of the largest power of two of
 * pages not above the largest CPU's data (trace-input.c init_cpu_data():
 * page_map_size; allocate_page_map()), and unmaps a window only when
 * reading moves past it.  Every page read stays mapped until then, counted
 * in the process's RSS (RssFile): 1856 MB on make bench's 10x trace, of
 * which the load's own memory was about 150 MB.
 *
 * Reading goes forward through each CPU's data, and the events of a page
 * are copied out before the next page is read, so the pages behind a CPU's
 * cursor are dropped from the mapping with madvise(MADV_DONTNEED) every
 * DROP_BYTES.  For a read-only private mapping of a file that only drops
 * page table entries: the pages stay in the page cache, and a read would
 * fault the same bytes back in (madvise(2); mm/madvise.c).  On anonymous
 * memory it would zero the pages, so a range is dropped only when
 * /proc/self/maps shows it inside mappings of the file itself (its device
 * and inode, read-only private): never a compressed file's decompressed
 * chunks or the buffers libtracecmd read() pages into when mmap fails.
 */
#include "ingest-dat-priv.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Bytes read past on a CPU before they are dropped: one madvise() and one
 * read of /proc/self/maps per 4 MiB (about 500 at 2 GB of data). */
#define DROP_BYTES (4ull << 20)

void dat_drop_init(struct dat_drop_file *f, const char *path)
{
	struct stat st;

	f->on = !stat(path, &st) && S_ISREG(st.st_mode);
	f->dev = f->on ? st.st_dev : 0;
	f->ino = f->on ? st.st_ino : 0;
}

/*
 * Is [@lo, @hi) inside mappings of @d's file (read-only, private), one
 * after another with no gap?  Reads /proc/self/maps (lines "start-end perms
 * offset major:minor inode path", addresses and device in hex).
 */
static bool file_mapped(const struct dat_drop_file *d, uintptr_t lo, uintptr_t hi)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	uintptr_t at = lo;

	if (!f)
		return false;
	while (at < hi && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off, ino;
		unsigned int maj, mnr;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &start, &end, perms, &off, &maj,
			   &mnr, &ino) != 7 || end <= at)
			continue;
		if (start > at || strcmp(perms, "r--p") || ino != (unsigned long long)d->ino ||
		    makedev(maj, mnr) != d->dev)
			break;		/* a gap, or not the file's */
		at = (uintptr_t)end;
	}
	fclose(f);
	return at >= hi;
}

void dat_drop_behind(struct ingest_dat *d, struct dat_cursor *c, const void *page,
		     unsigned long long at)
{
	uintptr_t p = (uintptr_t)page, sys = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;

	if (!d->drop.on)
		return;
	/* the same window as the last mark: its address moved as the offset did */
	if (!c->drop_ptr || at < c->drop_off || p < c->drop_ptr ||
	    p - c->drop_ptr != at - c->drop_off) {
		c->drop_ptr = p;
		c->drop_off = at;
		return;
	}
	if (at - c->drop_off < DROP_BYTES)
		return;
	lo = (c->drop_ptr + sys - 1) & ~(sys - 1);
	hi = p & ~(sys - 1);		/* the page being read stays */
	if (lo < hi && file_mapped(&d->drop, lo, hi))
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
	c->drop_ptr = p;
	c->drop_off = at;
}
