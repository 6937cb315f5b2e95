// When does a disk run dry under a cold buffered reader? One thread reads a file cold (its pages
// dropped with posix_fadvise DONTNEED first) with read() into its own buffer (`read`) or with
// sendfile() to /dev/null (`sendfile`: the same readahead, no copy into the reader's memory),
// BS KiB a call, while another samples the disk's in-flight reads (/sys/block/DISK/inflight)
// every ~20 us and logs each change. Output: one line per call, "R start_s end_s", and one per
// change, "S time_s reads_in_flight"; on stderr the rate and the share of the time nothing was in
// flight. Reads only FILE; writes only OUT.
//
//   gcc -O2 -static -pthread -o read-trace scripts/read-trace.c
//   read-trace FILE BS_KIB read|sendfile OUT [DISK]     (DISK default vda)
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>

enum { kMaxSamples = 2000000, kMaxCalls = 1000000 };

struct Sample {
  double t;
  int reads;
};

static double clock_zero;
static atomic_int stop_sampling;
static struct Sample samples[kMaxSamples];
static int sample_count;
static double call_start[kMaxCalls], call_end[kMaxCalls];
static char inflight_path[256];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9 - clock_zero;
}

static void* sampler(void* unused) {
  (void)unused;
  const int fd = open(inflight_path, O_RDONLY);
  if (fd < 0) return NULL;
  int last = -1;
  char text[64];
  while (!atomic_load(&stop_sampling)) {
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n > 0) {
      text[n] = 0;
      int reads = 0;
      sscanf(text, "%d", &reads);
      if (reads != last && sample_count < kMaxSamples) {
        samples[sample_count].t = now();
        samples[sample_count].reads = reads;
        ++sample_count;
        last = reads;
      }
    }
    usleep(20);
  }
  close(fd);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s FILE BS_KIB read|sendfile OUT [DISK]\n", argv[0]);
    return 2;
  }
  const size_t bs = strtoul(argv[2], NULL, 10) << 10;
  const int copy = strcmp(argv[3], "read") == 0;
  snprintf(inflight_path, sizeof inflight_path, "/sys/block/%s/inflight", argc > 5 ? argv[5] : "vda");
  const int fd = open(argv[1], O_RDONLY);
  const int null_fd = open("/dev/null", O_WRONLY);
  char* buf = malloc(bs);
  if (fd < 0 || null_fd < 0 || !buf || bs == 0) {
    fprintf(stderr, "read-trace: cannot open %s or allocate %zu bytes\n", argv[1], bs);
    return 2;
  }
  memset(buf, 1, bs);  // mapped before the timed reads
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  clock_zero = now();
  pthread_t thread;
  pthread_create(&thread, NULL, sampler, NULL);
  usleep(1000);
  int calls = 0;
  off_t offset = 0;
  while (calls < kMaxCalls) {
    call_start[calls] = now();
    const ssize_t got = copy ? read(fd, buf, bs) : sendfile(null_fd, fd, &offset, bs);
    call_end[calls] = now();
    if (got <= 0) break;
    ++calls;
  }
  atomic_store(&stop_sampling, 1);
  pthread_join(thread, NULL);
  if (calls == 0) return 1;
  const double wall = call_end[calls - 1] - call_start[0];
  double idle = 0;
  for (int i = 0; i + 1 < sample_count; ++i)
    if (samples[i].reads == 0 && samples[i].t > call_start[0]) idle += samples[i + 1].t - samples[i].t;
  fprintf(stderr, "%s %.3f GB/s idle %.0f%% samples %d reads %d\n", argv[3], (double)calls * bs / wall / 1e9,
          100 * idle / wall, sample_count, calls);
  FILE* out = fopen(argv[4], "w");
  if (!out) return 2;
  for (int i = 0; i < calls; ++i) fprintf(out, "R %.6f %.6f\n", call_start[i], call_end[i]);
  for (int i = 0; i < sample_count; ++i) fprintf(out, "S %.6f %d\n", samples[i].t, samples[i].reads);
  fclose(out);
  return 0;
}
