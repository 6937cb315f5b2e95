// What one hand-off between two threads costs: thread A wakes thread B through a futex and
// sleeps on it until B wakes it back, ROUNDS times; half a round trip is one wake-up and one
// context switch. With both threads pinned to one core it is the switch alone (a kernel
// handing work to a workqueue worker on the same core); on two cores it adds the wake-up of
// an idle core (an interprocessor interrupt and the idle state's exit).
//   cc -O2 -pthread scripts/probe-wakeup.c -o probe-wakeup
//   probe-wakeup [ROUNDS [RUNS [CPU_A CPU_B]]]   (defaults 200000 5 0 1)
// Prints one JSON object: each run's microseconds per hand-off, same core and two cores.
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static _Atomic int turn;
static long rounds;

static void wait_while(int v) {
  while (atomic_load(&turn) == v) syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}
static void hand_to(int v) {
  atomic_store(&turn, v);
  syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}
static void* partner(void* cpu) {
  if (pin(*(int*)cpu) != 0) return NULL;
  for (long i = 0; i < rounds; i++) {
    wait_while(0);
    hand_to(0);
  }
  return NULL;
}
// Microseconds per hand-off with the threads on cpu_a and cpu_b; negative if pinning fails.
static double run(int cpu_a, int cpu_b) {
  static int b;
  b = cpu_b;
  atomic_store(&turn, 0);
  if (pin(cpu_a) != 0) return -1;
  pthread_t t;
  if (pthread_create(&t, NULL, partner, &b) != 0) return -1;
  struct timespec s, e;
  clock_gettime(CLOCK_MONOTONIC, &s);
  for (long i = 0; i < rounds; i++) {
    hand_to(1);
    wait_while(1);
  }
  clock_gettime(CLOCK_MONOTONIC, &e);
  pthread_join(t, NULL);
  const double ns = (e.tv_sec - s.tv_sec) * 1e9 + (e.tv_nsec - s.tv_nsec);
  return ns / rounds / 2 / 1000;
}
static long number(const char* text, const char* what, long lo, long hi) {
  char* end;
  errno = 0;
  const long v = strtol(text, &end, 10);
  if (errno || *end || v < lo || v > hi) {
    fprintf(stderr, "probe-wakeup: %s \"%s\" is not a whole number from %ld to %ld\n", what, text, lo, hi);
    exit(2);
  }
  return v;
}
int main(int argc, char** argv) {
  rounds = argc > 1 ? number(argv[1], "ROUNDS", 1, 100000000) : 200000;
  const int runs = argc > 2 ? (int)number(argv[2], "RUNS", 1, 1000) : 5;
  const int a = argc > 3 ? (int)number(argv[3], "CPU_A", 0, 65535) : 0;
  const int b = argc > 4 ? (int)number(argv[4], "CPU_B", 0, 65535) : 1;
  printf("{\"rounds\": %ld, \"cpu_a\": %d, \"cpu_b\": %d, \"online_cpus\": %ld,\n", rounds, a, b, sysconf(_SC_NPROCESSORS_ONLN));
  for (int pass = 0; pass < 2; pass++) {
    printf(" \"%s\": [", pass == 0 ? "same_core_us" : "two_cores_us");
    for (int r = 0; r < runs; r++) {
      const double us = run(a, pass == 0 ? a : b);
      if (us < 0) {
        fprintf(stderr, "probe-wakeup: cannot pin threads to CPUs %d and %d\n", a, pass == 0 ? a : b);
        return 2;
      }
      printf("%s%.3f", r ? ", " : "", us);
    }
    printf("]%s\n", pass == 0 ? "," : "");
  }
  printf("}\n");
  return 0;
}
