// Does a disk's rate depend on where requests start, on how many it holds, or on how much memory
// its transfers land in? THREADS threads read FILE with O_DIRECT, BS_KIB a read and one at a time
// each, taking the next BS of the file in turn from START_KIB (a shared offset: TOTAL_MIB are read
// once, in order); the k-th read of the file lands in buffer k mod BUFFERS (default THREADS) of one
// pool of 2 MiB pages (huge: one DMA segment per request up to 2 MiB) or 4 KiB pages (small), so
// that the reads in flight (THREADS) and the memory they cycle through (BUFFERS x BS) are set
// apart; prints the rate. Reads only FILE.
//
//   gcc -O2 -static -pthread -o read-direct scripts/read-direct.c
//   read-direct FILE huge|small BS_KIB START_KIB TOTAL_MIB THREADS [BUFFERS]
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { kMaxThreads = 64 };
static const size_t kHuge = (size_t)2 << 20;

static const char* path;
static int huge;
static size_t bs, start, end, buffers, stride;
static char* pool;
static atomic_size_t next_offset;
static atomic_int failed;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void* reader(void* unused) {
  (void)unused;
  const int fd = open(path, O_RDONLY | O_DIRECT);
  if (fd < 0) {
    atomic_store(&failed, 1);
    return NULL;
  }
  for (;;) {
    const size_t off = atomic_fetch_add(&next_offset, bs);
    if (off + bs > end) break;
    char* buf = pool + (off - start) / bs % buffers * stride;
    if (pread(fd, buf, bs, (off_t)off) != (ssize_t)bs) {
      perror("pread");
      atomic_store(&failed, 1);
      break;
    }
  }
  close(fd);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: %s FILE huge|small BS_KIB START_KIB TOTAL_MIB THREADS [BUFFERS]\n", argv[0]);
    return 2;
  }
  path = argv[1];
  huge = strcmp(argv[2], "huge") == 0;
  bs = strtoul(argv[3], NULL, 10) << 10;
  start = strtoul(argv[4], NULL, 10) << 10;
  end = start + (strtoul(argv[5], NULL, 10) << 20);
  const int threads = atoi(argv[6]);
  buffers = argc > 7 ? strtoul(argv[7], NULL, 10) : (size_t)threads;
  if ((!huge && strcmp(argv[2], "small") != 0) || bs == 0 || threads < 1 || threads > kMaxThreads ||
      buffers < 1 || buffers > 4096) {
    fprintf(stderr, "read-direct: pages huge or small, BS_KIB > 0, 1 to %d threads, 1 to 4096 buffers\n",
            kMaxThreads);
    return 2;
  }
  // Each buffer starts on a 2 MiB boundary; all are mapped before the timed reads.
  stride = (bs + kHuge - 1) & ~(kHuge - 1);
  const size_t map = buffers * stride + kHuge;
  char* raw = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  madvise(raw, map, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  memset(raw, 1, map);
  pool = (char*)(((unsigned long)raw + kHuge - 1) & ~(kHuge - 1));
  atomic_store(&next_offset, start);
  pthread_t t[kMaxThreads];
  const double t0 = now();
  for (int i = 0; i < threads; ++i) pthread_create(&t[i], NULL, reader, NULL);
  for (int i = 0; i < threads; ++i) pthread_join(t[i], NULL);
  const double wall = now() - t0;
  if (atomic_load(&failed)) return 1;
  const size_t bytes = (end - start) / bs * bs;
  printf("direct %s bs=%zuK start=%zuK threads=%d buffers=%zu %.3f GB/s\n", argv[2], bs >> 10, start >> 10,
         threads, buffers, bytes / wall / 1e9);
  return 0;
}
