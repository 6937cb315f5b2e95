// Does where a request starts matter to a disk? O_DIRECT reads of BS_KIB into one buffer of 2 MiB
// pages (one DMA segment per request) at offsets START_KIB + k * BS, once over TOTAL_MIB of FILE,
// one at a time; prints the rate. Reads only FILE.
//
//   gcc -O2 -static -o read-offsets scripts/read-offsets.c
//   read-offsets FILE BS_KIB START_KIB TOTAL_MIB
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s FILE BS_KIB START_KIB TOTAL_MIB\n", argv[0]);
    return 2;
  }
  const size_t huge = (size_t)2 << 20;
  const size_t bs = strtoul(argv[2], NULL, 10) << 10, start = strtoul(argv[3], NULL, 10) << 10;
  const size_t total = strtoul(argv[4], NULL, 10) << 20;
  const size_t map = bs + 2 * huge;
  char* raw = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  const int fd = open(argv[1], O_RDONLY | O_DIRECT);
  if (raw == MAP_FAILED || fd < 0 || bs == 0) {
    fprintf(stderr, "read-offsets: cannot open %s or map %zu bytes\n", argv[1], map);
    return 2;
  }
  char* buf = (char*)(((unsigned long)raw + huge - 1) & ~(huge - 1));
  madvise(raw, map, MADV_HUGEPAGE);
  memset(raw, 1, map);
  const double t = now();
  size_t done = 0;
  for (size_t off = start; off + bs <= start + total; off += bs) {
    if (pread(fd, buf, bs, (off_t)off) != (ssize_t)bs) {
      perror("pread");
      return 1;
    }
    done += bs;
  }
  printf("bs=%zuK start=%zuK %.3f GB/s\n", bs >> 10, start >> 10, done / (now() - t) / 1e9);
  return 0;
}
