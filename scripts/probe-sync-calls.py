#!/usr/bin/env python3
"""What a write made durable costs by each call that makes it so, on a file it creates and fills
first (overwrites: no allocation, so no journal commit): 200 O_DIRECT writes of 128 KiB and 1 MiB
plain, with O_DSYNC (the block layer adds a flush behind each), each followed by fdatasync, and
each followed by fsync; then fdatasync with nothing written since the last one. Three rounds,
alternating; per-write medians to stdout. Writes only the file it makes in a folder it makes
under DIR (default /var/tmp), removed at the end.
usage: scripts/probe-sync-calls.py [DIR]
"""
import os, mmap, time, statistics, sys, tempfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import probe_parser  # noqa: E402
MIB=1<<20
ap=probe_parser(__doc__, output=False)
ap.add_argument("dir", nargs="?", default="/var/tmp")
args=ap.parse_args()
if not os.path.isdir(args.dir):
    ap.error(f"DIR {args.dir}: not an existing folder")
d=tempfile.mkdtemp(prefix="iowall-sync.", dir=args.dir)
try:
    p=os.path.join(d,"f"); span=64*MIB
    buf=mmap.mmap(-1,MIB); buf.write(os.urandom(MIB))
    fd=os.open(p,os.O_RDWR|os.O_CREAT|os.O_EXCL|os.O_DIRECT,0o600)
    for o in range(0,span,MIB): os.pwrite(fd,buf,o)
    os.fsync(fd); os.close(fd)
    res={}
    for r in range(3):
        for size in (128*1024, MIB):
            v=memoryview(buf)[:size]; n=200
            # O_DIRECT only
            fd=os.open(p,os.O_RDWR|os.O_DIRECT); t=time.perf_counter()
            for i in range(n): os.pwrite(fd,v,(i*size)%span)
            res.setdefault(("direct",size),[]).append((time.perf_counter()-t)/n*1e6); os.close(fd)
            # O_DSYNC
            fd=os.open(p,os.O_RDWR|os.O_DIRECT|os.O_DSYNC); t=time.perf_counter()
            for i in range(n): os.pwrite(fd,v,(i*size)%span)
            res.setdefault(("dsync",size),[]).append((time.perf_counter()-t)/n*1e6); os.close(fd)
            # O_DIRECT + fdatasync per write
            fd=os.open(p,os.O_RDWR|os.O_DIRECT); t=time.perf_counter()
            for i in range(n): os.pwrite(fd,v,(i*size)%span); os.fdatasync(fd)
            res.setdefault(("fdatasync_each",size),[]).append((time.perf_counter()-t)/n*1e6); os.close(fd)
            # O_DIRECT + fsync per write
            fd=os.open(p,os.O_RDWR|os.O_DIRECT); t=time.perf_counter()
            for i in range(n): os.pwrite(fd,v,(i*size)%span); os.fsync(fd)
            res.setdefault(("fsync_each",size),[]).append((time.perf_counter()-t)/n*1e6); os.close(fd)
        # a bare fdatasync with nothing written since the last
        fd=os.open(p,os.O_RDWR|os.O_DIRECT); os.fdatasync(fd); t=time.perf_counter()
        for i in range(200): os.fdatasync(fd)
        res.setdefault(("bare_fdatasync",0),[]).append((time.perf_counter()-t)/200*1e6); os.close(fd)
    print("mode size per_write_us_median (rounds)")
    for k in sorted(res): print(k[0],k[1],round(statistics.median(res[k]),1),[round(x,1) for x in res[k]])
finally:
    shutil.rmtree(d,ignore_errors=True)
