/*
 * simoop-lite: a small memory-pressure workload in the spirit of Chris Mason's
 * simoop, written for recording vmscan tracepoints.
 *
 *  - reader threads stream sequentially through files (pread of -b KiB),
 *  - writer threads stream sequentially over their own files (pwrite of -b KiB),
 *    so the page cache fills with clean and dirty pages and writeback runs,
 *  - allocator threads allocate anonymous memory in bursts (-a MB, in mmap'ed
 *    chunks of -c KB whose pages are all touched), then munmap the burst,
 *  - an optional anonymous "hog" held resident for the whole run shrinks the
 *    memory left for the page cache so that kswapd and direct reclaim work
 *    (--mlock locks it, so that with swap on it is not simply swapped out).
 *
 * Each operation's latency is measured in microseconds.  Every -i seconds the
 * latencies since the end of the warmup are printed in simoop's report format:
 *
 *   Run time: 10 seconds
 *   Read latency usec: (p50: 1,234) (p95: 5,678) (p99: 9,012) (max: 12,345)
 *   Write latency usec: (p50: ...) (p95: ...) (p99: ...) (max: ...)
 *   Allocation latency usec: (p50: ...) (p95: ...) (p99: ...) (max: ...)
 *
 * followed at the end by a "Final stats:" block in the same format.
 * Percentiles use the nearest-rank rule on all samples since the warmup.
 *
 * Memory safety: the hog never grows while MemAvailable is below the -L
 * target, and a watchdog gives hog memory back whenever MemAvailable falls
 * below the -F floor.  The process sets its oom_score_adj to 1000 so that, if
 * the OOM killer ever runs, it picks this process before anyone else's.
 *
 * The program stops by itself after the run time (or on SIGINT/SIGTERM) and
 * removes the files it created (unless --keep-files: deleting a file waits for
 * its pages under writeback, which on a throttled device takes long).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024UL * 1024UL)
#define HOG_CHUNK_MB 64UL

struct lat_stats {
	pthread_mutex_t lock;
	uint64_t *v;
	size_t n, cap;
	const char *label;
};

static struct lat_stats st_read = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, "Read" };
static struct lat_stats st_write = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, "Write" };
static struct lat_stats st_alloc = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, "Allocation" };

/* options */
static const char *opt_dir;
static unsigned opt_runtime = 30;      /* seconds, 0 = until signalled (hog-only) */
static unsigned opt_warmup;            /* seconds */
static unsigned opt_interval = 5;      /* seconds */
static unsigned opt_readers = 2;
static unsigned opt_writers = 1;
static unsigned opt_allocators = 1;
static unsigned long opt_file_mb = 1024;
static unsigned long opt_block_kb = 1024;
static unsigned long opt_alloc_mb = 64;    /* allocation burst */
static unsigned long opt_chunk_kb = 2048;  /* one timed allocation */
static unsigned long opt_rate_mb;      /* MB/s per reader thread, 0 = unlimited */
static long opt_wrate_mb = -1;         /* MB/s per writer thread, -1 = same as readers */
static unsigned long opt_pause_ms;     /* allocator pause after each free */
static unsigned long opt_hog_mb;       /* maximum hog size */
static unsigned long opt_leave_mb;     /* grow hog only while MemAvailable > this */
static unsigned long opt_floor_mb = 2560;
static int opt_hog_only;
static int opt_mlock;                  /* mlock the hog: it stays put when swap is on */
static int opt_keep_files;             /* leave the data files at exit */
static int opt_use_files;              /* use DIR/simoop-lite.data.N as they are */


static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t start_flag;
static int opt_wait_start;
static volatile int measuring; /* set once the warmup is over */

/* hog */
static pthread_mutex_t hog_lock = PTHREAD_MUTEX_INITIALIZER;
static void **hog_chunks;
static size_t hog_nr, hog_cap;
static uint64_t hog_released_mb;

static char **file_names;
static unsigned nr_files;

static void die(const char *fmt, ...)
{
	va_list ap;

	/* do not leave gigabytes of data files behind */
	for (unsigned i = 0; !opt_use_files && file_names && i < nr_files; i++)
		if (file_names[i])
			unlink(file_names[i]);

	va_start(ap, fmt);
	fputs("simoop-lite: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000ULL;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void on_start_signal(int sig)
{
	(void)sig;
	start_flag = 1;
}

static void stats_add(struct lat_stats *s, uint64_t usec)
{
	if (!measuring)
		return;
	pthread_mutex_lock(&s->lock);
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 4096;
		uint64_t *nv = realloc(s->v, ncap * sizeof(*nv));

		if (!nv) {
			pthread_mutex_unlock(&s->lock);
			return; /* drop the sample rather than die */
		}
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n++] = usec;
	pthread_mutex_unlock(&s->lock);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* 1234567 -> "1,234,567" */
static const char *commas(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	size_t o = 0;

	for (int i = 0; i < n && o + 1 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

/* nearest-rank percentile of a sorted array */
static uint64_t pct(const uint64_t *v, size_t n, unsigned p)
{
	size_t rank;

	if (!n)
		return 0;
	rank = (size_t)(((uint64_t)p * n + 99) / 100);
	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

static void print_latency(FILE *f, struct lat_stats *s)
{
	uint64_t *copy = NULL;
	size_t n;
	char b50[32], b95[32], b99[32], bmax[32];

	pthread_mutex_lock(&s->lock);
	n = s->n;
	if (n) {
		copy = malloc(n * sizeof(*copy));
		if (copy)
			memcpy(copy, s->v, n * sizeof(*copy));
		else
			n = 0;
	}
	pthread_mutex_unlock(&s->lock);

	if (n)
		qsort(copy, n, sizeof(*copy), cmp_u64);
	fprintf(f, "%s latency usec: (p50: %s) (p95: %s) (p99: %s) (max: %s)\n",
		s->label,
		commas(pct(copy, n, 50), b50, sizeof(b50)),
		commas(pct(copy, n, 95), b95, sizeof(b95)),
		commas(pct(copy, n, 99), b99, sizeof(b99)),
		commas(n ? copy[n - 1] : 0, bmax, sizeof(bmax)));
	free(copy);
}

static void print_report(unsigned run_seconds)
{
	printf("Run time: %u seconds\n", run_seconds);
	print_latency(stdout, &st_read);
	print_latency(stdout, &st_write);
	print_latency(stdout, &st_alloc);
	fflush(stdout);
}

/* MemAvailable in MiB, or -1 */
static long mem_available_mb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

static void touch_pages(char *p, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < len; off += (size_t)pg)
		p[off] = (char)(off >> 12);
}

/* Sleep so that a thread that moved `bytes` since `t0` stays at `rate` MiB/s. */
static void rate_limit(unsigned long rate, uint64_t t0, uint64_t bytes)
{
	uint64_t due, now;

	if (!rate)
		return;
	due = t0 + bytes * 1000000ULL / (rate * MIB);
	now = now_usec();
	while (!stop_flag && now < due) {
		uint64_t d = due - now;

		usleep(d > 100000 ? 100000 : (useconds_t)d);
		now = now_usec();
	}
}

/* ---------------------------------------------------------------- hog */

static int hog_add_chunk(void)
{
	size_t len = HOG_CHUNK_MB * MIB;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	touch_pages(p, len);
	if (opt_mlock && mlock(p, len)) {
		fprintf(stderr, "simoop-lite: mlock of %lu MB: %s\n", HOG_CHUNK_MB, strerror(errno));
		munmap(p, len);
		return -1;
	}
	pthread_mutex_lock(&hog_lock);
	if (hog_nr == hog_cap) {
		size_t ncap = hog_cap ? hog_cap * 2 : 64;
		void **nc = realloc(hog_chunks, ncap * sizeof(*nc));

		if (!nc) {
			pthread_mutex_unlock(&hog_lock);
			munmap(p, len);
			return -1;
		}
		hog_chunks = nc;
		hog_cap = ncap;
	}
	hog_chunks[hog_nr++] = p;
	pthread_mutex_unlock(&hog_lock);
	return 0;
}

static int hog_release_chunk(void)
{
	void *p = NULL;

	pthread_mutex_lock(&hog_lock);
	if (hog_nr)
		p = hog_chunks[--hog_nr];
	pthread_mutex_unlock(&hog_lock);
	if (!p)
		return -1;
	munmap(p, HOG_CHUNK_MB * MIB);
	return 0;
}

static size_t hog_mb(void)
{
	size_t n;

	pthread_mutex_lock(&hog_lock);
	n = hog_nr;
	pthread_mutex_unlock(&hog_lock);
	return n * HOG_CHUNK_MB;
}

/* Grow the hog up to opt_hog_mb while MemAvailable stays above the target. */
static void hog_fill(void)
{
	unsigned long target = opt_leave_mb > opt_floor_mb ? opt_leave_mb : opt_floor_mb;
	uint64_t t0 = now_usec();

	while (!stop_flag && hog_mb() + HOG_CHUNK_MB <= opt_hog_mb) {
		long avail = mem_available_mb();

		if (avail < 0 || (unsigned long)avail < target + HOG_CHUNK_MB)
			break;
		if (hog_add_chunk())
			break;
	}
	fprintf(stderr, "simoop-lite: hog ready: %zu MB resident in %.1f s, MemAvailable %ld MB\n",
		hog_mb(), (now_usec() - t0) / 1e6, mem_available_mb());
}

/*
 * --hog-only and SIGUSR1: bring MemAvailable back to the -L target by growing
 * (up to -H) or shrinking the hog, so that every run of a series starts with
 * the same amount of memory even when other users' memory use changed.
 */
static void hog_retarget(void)
{
	unsigned long target = opt_leave_mb > opt_floor_mb ? opt_leave_mb : opt_floor_mb;
	long avail = mem_available_mb();

	while (!stop_flag && avail >= 0 && (unsigned long)avail < target &&
	       target - (unsigned long)avail >= HOG_CHUNK_MB / 2) {
		if (hog_release_chunk())
			break;
		avail = mem_available_mb();
	}
	hog_fill();
}

/* Give hog memory back whenever MemAvailable drops below the floor. */
static void *hog_watchdog(void *arg)
{
	(void)arg;
	while (!stop_flag) {
		long avail = mem_available_mb();

		if (avail >= 0 && (unsigned long)avail < opt_floor_mb) {
			/* release enough to get back above the floor, plus one chunk */
			long need = (long)opt_floor_mb - avail + (long)HOG_CHUNK_MB;

			while (need > 0 && !hog_release_chunk()) {
				need -= (long)HOG_CHUNK_MB;
				hog_released_mb += HOG_CHUNK_MB;
			}
			fprintf(stderr, "simoop-lite: MemAvailable %ld MB < floor %lu MB: hog now %zu MB\n",
				avail, opt_floor_mb, hog_mb());
		}
		usleep(100 * 1000);
	}
	return NULL;
}

/* ---------------------------------------------------------------- workers */

static void *reader_thread(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	const char *name = file_names[idx % nr_files];
	size_t bs = opt_block_kb * 1024;
	off_t size = (off_t)(opt_file_mb * MIB), off;
	uint64_t start, done = 0;
	char *buf;
	int fd = open(name, O_RDONLY);

	if (fd < 0)
		die("open %s: %s", name, strerror(errno));
	if (posix_memalign((void **)&buf, 4096, bs))
		die("out of memory");
	/* stagger the starting points so readers sharing a file do not share pages */
	off = (off_t)((size / bs) * idx / (opt_readers ? opt_readers : 1)) * (off_t)bs;
	start = now_usec();
	while (!stop_flag) {
		uint64_t t0 = now_usec();
		ssize_t r = pread(fd, buf, bs, off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("read %s: %s", name, strerror(errno));
		}
		stats_add(&st_read, now_usec() - t0);
		off += r;
		done += (uint64_t)r;
		if (r == 0 || off >= size)
			off = 0;
		rate_limit(opt_rate_mb, start, done);
	}
	free(buf);
	close(fd);
	return NULL;
}

static void *writer_thread(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	const char *name = file_names[opt_readers + idx];
	size_t bs = opt_block_kb * 1024;
	off_t size = (off_t)(opt_file_mb * MIB), off = 0;
	char *buf;
	unsigned gen = 0;
	uint64_t start, done = 0;
	int fd = open(name, O_WRONLY);

	if (fd < 0)
		die("open %s: %s", name, strerror(errno));
	if (posix_memalign((void **)&buf, 4096, bs))
		die("out of memory");
	memset(buf, 'w', bs);
	start = now_usec();
	while (!stop_flag) {
		uint64_t t0;
		ssize_t r;

		buf[0] = (char)gen; /* make each pass's data differ */
		t0 = now_usec();
		r = pwrite(fd, buf, bs, off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("write %s: %s", name, strerror(errno));
		}
		stats_add(&st_write, now_usec() - t0);
		off += r;
		done += (uint64_t)r;
		if (off >= size) {
			off = 0;
			gen++;
		}
		rate_limit(opt_wrate_mb < 0 ? opt_rate_mb : (unsigned long)opt_wrate_mb, start, done);
	}
	free(buf);
	close(fd);
	return NULL;
}

/*
 * Allocate a burst of opt_alloc_mb in chunks of opt_chunk_kb (each chunk is
 * mmap'ed, every page touched, and timed as one allocation), hold the burst
 * until it is complete, then free it all and pause.  Bursts drain free memory
 * faster than kswapd refills it, so they provoke direct reclaim.
 */
static void *allocator_thread(void *arg)
{
	size_t chunk = opt_chunk_kb * 1024;
	size_t n = (opt_alloc_mb * MIB + chunk - 1) / chunk;
	char **held = calloc(n, sizeof(*held));

	(void)arg;
	if (!held)
		die("out of memory");
	while (!stop_flag) {
		size_t got = 0;

		while (got < n && !stop_flag) {
			uint64_t t0 = now_usec();
			char *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED) {
				usleep(1000);
				break;
			}
			touch_pages(p, chunk);
			stats_add(&st_alloc, now_usec() - t0);
			held[got++] = p;
		}
		while (got)
			munmap(held[--got], chunk);
		for (unsigned long ms = 0; ms < opt_pause_ms && !stop_flag; ms += 10)
			usleep(10 * 1000);
	}
	free(held);
	return NULL;
}

/* ---------------------------------------------------------------- files */

static void create_files(void)
{
	size_t bs = 1024 * 1024;
	char *buf = malloc(bs);
	uint64_t t0 = now_usec();

	if (!buf)
		die("out of memory");
	memset(buf, 'r', bs);
	nr_files = opt_readers + opt_writers;
	file_names = calloc(nr_files, sizeof(*file_names));
	if (!file_names)
		die("out of memory");
	for (unsigned i = 0; i < nr_files; i++) {
		int n = opt_use_files ?
			asprintf(&file_names[i], "%s/simoop-lite.data.%u", opt_dir, i) :
			asprintf(&file_names[i], "%s/simoop-lite.%d.%u", opt_dir, (int)getpid(), i);

		if (n < 0)
			die("out of memory");
	}
	for (unsigned i = 0; i < nr_files && !stop_flag; i++) {
		struct stat sb;
		int fd;

		/* --use-files: a file already as big as -f is used as it is */
		if (opt_use_files && stat(file_names[i], &sb) == 0 &&
		    (unsigned long)sb.st_size >= opt_file_mb * MIB) {
			fprintf(stderr, "simoop-lite: using %s (%lld MB)\n", file_names[i],
				(long long)(sb.st_size / (off_t)MIB));
			continue;
		}
		fd = open(file_names[i], O_CREAT | O_TRUNC | O_WRONLY, 0600);

		if (fd < 0)
			die("create %s: %s", file_names[i], strerror(errno));
		for (unsigned long mb = 0; mb < opt_file_mb && !stop_flag; mb++) {
			buf[0] = (char)mb;
			if (write(fd, buf, bs) != (ssize_t)bs)
				die("write %s: %s", file_names[i], strerror(errno));
		}
		/* start the run with clean page cache: no leftover writeback */
		if (fsync(fd))
			die("fsync %s: %s", file_names[i], strerror(errno));
		close(fd);
	}
	free(buf);
	fprintf(stderr, "simoop-lite: created %u files of %lu MB in %s in %.1f s\n",
		nr_files, opt_file_mb, opt_dir, (now_usec() - t0) / 1e6);
}

static void remove_files(void)
{
	for (unsigned i = 0; i < nr_files; i++) {
		if (file_names[i]) {
			if (!opt_keep_files && !opt_use_files)
				unlink(file_names[i]);
			free(file_names[i]);
		}
	}
	free(file_names);
	file_names = NULL;
	nr_files = 0;
}

/* ---------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fprintf(f,
"usage: simoop-lite -d DIR [options]\n"
"       simoop-lite --hog-only -H MB [-L MB] [-F MB] [-r SECONDS]\n"
"\n"
"  -d, --dir DIR          directory for the data files (required unless --hog-only)\n"
"  -r, --runtime SEC      run time after the warmup, default 30 (0 with --hog-only: until signalled)\n"
"  -w, --warmup SEC       warmup time not counted in the statistics, default 0\n"
"  -i, --interval SEC     report every SEC seconds, default 5\n"
"  -R, --readers N        reader threads, default 2\n"
"  -W, --writers N        writer threads, default 1\n"
"  -A, --allocators N     allocator threads, default 1\n"
"  -f, --file-size MB     size of each data file (one per reader and per writer), default 1024\n"
"  -b, --block-size KB    read/write size per operation, default 1024\n"
"  -a, --alloc-size MB    anonymous memory per allocator burst, default 64\n"
"  -c, --alloc-chunk KB   size of one timed allocation within a burst, default 2048\n"
"  -t, --rate MB/s        limit each reader thread to MB/s (MiB), default 0 = unlimited\n"
"  -T, --write-rate MB/s  limit each writer thread to MB/s, default: the same as -t\n"
"  -p, --pause MS         allocator pause after freeing a burst, default 0\n"
"  -H, --hog MB           anonymous hog kept resident for the whole run, default 0\n"
"  -L, --leave MB         stop growing the hog when MemAvailable would fall below MB\n"
"  -F, --floor MB         free hog memory whenever MemAvailable < MB, default 2560\n"
"      --hog-only         only hold the hog (no files, no threads) until the run time ends;\n"
"                         SIGUSR1 then grows or shrinks the hog back to the -L target\n"
"      --wait-start       after creating the files, wait for SIGUSR1 before starting the run\n"
"      --mlock            mlock the hog (it stays resident when swap is on)\n"
"      --keep-files       do not remove the data files at exit\n"
"      --use-files        use DIR/simoop-lite.data.N (N = 0 .. readers + writers - 1,\n"
"                         readers first) as they are when each holds -f MB (made\n"
"                         beforehand, e.g. in a disk image), create them otherwise;\n"
"                         never remove them\n"
"  -h, --help             this help\n"
"\n"
"Latency reports go to stdout in simoop's format; progress messages go to stderr.\n");
}

static unsigned long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end)
		die("bad %s: %s", what, s);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "runtime", required_argument, NULL, 'r' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "interval", required_argument, NULL, 'i' },
		{ "readers", required_argument, NULL, 'R' },
		{ "writers", required_argument, NULL, 'W' },
		{ "allocators", required_argument, NULL, 'A' },
		{ "file-size", required_argument, NULL, 'f' },
		{ "block-size", required_argument, NULL, 'b' },
		{ "alloc-size", required_argument, NULL, 'a' },
		{ "alloc-chunk", required_argument, NULL, 'c' },
		{ "rate", required_argument, NULL, 't' },
		{ "write-rate", required_argument, NULL, 'T' },
		{ "pause", required_argument, NULL, 'p' },
		{ "hog", required_argument, NULL, 'H' },
		{ "leave", required_argument, NULL, 'L' },
		{ "floor", required_argument, NULL, 'F' },
		{ "hog-only", no_argument, NULL, 1 },
		{ "wait-start", no_argument, NULL, 2 },
		{ "mlock", no_argument, NULL, 3 },
		{ "keep-files", no_argument, NULL, 4 },
		{ "use-files", no_argument, NULL, 5 },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	pthread_t *tids, wd;
	unsigned nthreads, t = 0;
	struct sigaction sa;
	uint64_t start, next_report, end;
	int c, have_wd = 0;
	FILE *oom;

	while ((c = getopt_long(argc, argv, "d:r:w:i:R:W:A:f:b:a:c:t:T:p:H:L:F:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'd': opt_dir = optarg; break;
		case 'r': opt_runtime = (unsigned)parse_num(optarg, "runtime"); break;
		case 'w': opt_warmup = (unsigned)parse_num(optarg, "warmup"); break;
		case 'i': opt_interval = (unsigned)parse_num(optarg, "interval"); break;
		case 'R': opt_readers = (unsigned)parse_num(optarg, "readers"); break;
		case 'W': opt_writers = (unsigned)parse_num(optarg, "writers"); break;
		case 'A': opt_allocators = (unsigned)parse_num(optarg, "allocators"); break;
		case 'f': opt_file_mb = parse_num(optarg, "file size"); break;
		case 'b': opt_block_kb = parse_num(optarg, "block size"); break;
		case 'a': opt_alloc_mb = parse_num(optarg, "allocation size"); break;
		case 'c': opt_chunk_kb = parse_num(optarg, "allocation chunk"); break;
		case 't': opt_rate_mb = parse_num(optarg, "rate"); break;
		case 'T': opt_wrate_mb = (long)parse_num(optarg, "write rate"); break;
		case 'p': opt_pause_ms = parse_num(optarg, "pause"); break;
		case 'H': opt_hog_mb = parse_num(optarg, "hog size"); break;
		case 'L': opt_leave_mb = parse_num(optarg, "leave"); break;
		case 'F': opt_floor_mb = parse_num(optarg, "floor"); break;
		case 1: opt_hog_only = 1; break;
		case 2: opt_wait_start = 1; break;
		case 3: opt_mlock = 1; break;
		case 4: opt_keep_files = 1; break;
		case 5: opt_use_files = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!opt_hog_only) {
		if (!opt_dir) {
			usage(stderr);
			return 2;
		}
		if (!opt_interval || !opt_file_mb || !opt_block_kb || !opt_alloc_mb || !opt_chunk_kb)
			die("interval, file, block, allocation and chunk sizes must be > 0");
		if (opt_chunk_kb % 4)
			die("the allocation chunk must be a multiple of 4 KB");
		if (opt_readers + opt_writers + opt_allocators == 0)
			die("no threads");
		if (!opt_runtime)
			die("runtime must be > 0");
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_start_signal;
	sigaction(SIGUSR1, &sa, NULL);

	/* if memory ever runs out, let the OOM killer take us, not a bystander */
	oom = fopen("/proc/self/oom_score_adj", "w");
	if (oom) {
		fputs("1000\n", oom);
		fclose(oom);
	}

	if (opt_hog_mb) {
		hog_fill();
		if (pthread_create(&wd, NULL, hog_watchdog, NULL) == 0)
			have_wd = 1;
	}

	if (opt_hog_only) {
		start = now_usec();
		while (!stop_flag && (!opt_runtime || now_usec() - start < opt_runtime * 1000000ULL)) {
			if (start_flag) {
				start_flag = 0;
				hog_retarget();
			}
			usleep(100 * 1000);
		}
		stop_flag = 1;
		if (have_wd)
			pthread_join(wd, NULL);
		fprintf(stderr, "simoop-lite: hog released (%zu MB held at exit, %" PRIu64 " MB given back early)\n",
			hog_mb(), hog_released_mb);
		while (!hog_release_chunk())
			;
		return 0;
	}

	create_files();
	if (opt_wait_start && !stop_flag) {
		fprintf(stderr, "simoop-lite: setup complete, waiting for SIGUSR1 (pid %d)\n", (int)getpid());
		while (!start_flag && !stop_flag)
			usleep(10 * 1000);
	}
	if (stop_flag) {
		remove_files();
		return 1;
	}

	nthreads = opt_readers + opt_writers + opt_allocators;
	tids = calloc(nthreads, sizeof(*tids));
	if (!tids)
		die("out of memory");
	measuring = opt_warmup == 0;
	if (measuring)
		printf("Warmup complete (0 seconds)\n");
	for (unsigned i = 0; i < opt_readers; i++)
		if (pthread_create(&tids[t++], NULL, reader_thread, (void *)(uintptr_t)i))
			die("pthread_create failed");
	for (unsigned i = 0; i < opt_writers; i++)
		if (pthread_create(&tids[t++], NULL, writer_thread, (void *)(uintptr_t)i))
			die("pthread_create failed");
	for (unsigned i = 0; i < opt_allocators; i++)
		if (pthread_create(&tids[t++], NULL, allocator_thread, NULL))
			die("pthread_create failed");

	start = now_usec();
	if (opt_warmup) {
		while (!stop_flag && now_usec() - start < opt_warmup * 1000000ULL)
			usleep(10 * 1000);
		measuring = 1;
		printf("Warmup complete (%u seconds)\n", opt_warmup);
		fflush(stdout);
		start = now_usec();
	}
	end = start + opt_runtime * 1000000ULL;
	next_report = start + opt_interval * 1000000ULL;
	while (!stop_flag) {
		uint64_t now = now_usec();

		if (now >= end)
			break;
		if (now >= next_report) {
			print_report((unsigned)((now - start + 500000) / 1000000));
			next_report += opt_interval * 1000000ULL;
		}
		usleep(10 * 1000);
	}
	stop_flag = 1;
	for (unsigned i = 0; i < t; i++)
		pthread_join(tids[i], NULL);
	if (have_wd)
		pthread_join(wd, NULL);

	printf("Final stats:\n");
	print_report((unsigned)((now_usec() - start + 500000) / 1000000));
	remove_files();
	while (!hog_release_chunk())
		;
	if (hog_released_mb)
		fprintf(stderr, "simoop-lite: the hog gave back %" PRIu64 " MB during the run\n",
			hog_released_mb);
	free(tids);
	return 0;
}
