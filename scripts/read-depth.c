// Does a disk's rate depend on how many requests it holds? THREADS threads read FILE with O_DIRECT,
// BS_KIB a read, one at a time each, taking the next BS of the file in turn (a shared offset: the
// file is read once, in order), into buffers of 2 MiB pages (huge) or 4 KiB pages (small); prints
// the rate. Reads only FILE.
//
//   gcc -O2 -static -pthread -o read-depth scripts/read-depth.c
//   read-depth FILE huge|small BS_KIB TOTAL_MIB THREADS
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <stdatomic.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static size_t bs,total; static atomic_size_t next; static const char*path; static int huge;
static void*worker(void*a){
  size_t map=bs+(4<<20); char*raw=mmap(0,map,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
  char*buf=(char*)(((unsigned long)raw+(2<<20)-1)&~((2UL<<20)-1));
  madvise(raw,map,huge?MADV_HUGEPAGE:MADV_NOHUGEPAGE); memset(raw,1,map);
  int fd=open(path,O_RDONLY|O_DIRECT);
  for(;;){size_t off=atomic_fetch_add(&next,bs); if(off>=total)break; pread(fd,buf,bs,off);} return 0;}
int main(int argc,char**argv){ path=argv[1]; huge=!strcmp(argv[2],"huge"); bs=strtoul(argv[3],0,10)<<10; total=strtoul(argv[4],0,10)<<20; int n=atoi(argv[5]);
  pthread_t t[16]; double s=now(); for(int i=0;i<n;i++)pthread_create(&t[i],0,worker,0); for(int i=0;i<n;i++)pthread_join(t[i],0);
  printf("direct %s bs=%zuK threads=%d %.3f GB/s\n",argv[2],bs>>10,n,total/(now()-s)/1e9); return 0;}
