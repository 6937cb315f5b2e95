#!/usr/bin/env bash
# One call on the GPU machine: what the machine is, whether cuFile can run there, then the
# calibration sweeps, each phase packed into OUT_DIR/PHASE.tar.gz as soon as it ends (so a
# call cut short still returns the phases it finished).
#   probe:   cuFileRead (-x gpu_direct) on a tmpfs and a disk file, as configured and with
#            compatibility mode forced (CUFILE_FORCE_COMPAT_MODE, and a user cufile.json with
#            properties.force_compat_mode); the first setting that works is used below.
#   disk:    the local virtio disk, interleaved rounds (the storage fit): 4K, 128K and 1M reads at QD
#            DISK_QDS (default 1 8 32) from 1 and 2 threads, so the buffers the reads land in range from
#            4 KiB to 64 MiB in every round (a virtual disk's copy cache is fitted on both sides of it).
#   figures: figures.md's runs: 4 GiB reads of a file on the disk, 16 MiB I/Os, one thread,
#            psync, every transfer type, cold (--invalidate), 3 interleaved rounds.
#   memory:  a file on tmpfs (no disk in the way): the paths differ only by their host and
#            GPU work (memcpy, pinned-memory copies, cuFile's bounce buffers).
#   writes:  writes to the disk, interleaved rounds: O_DIRECT (cpu_only) and buffered
#            (cpu_cached) by I/O size x queue depth x threads, each made durable at the end
#            (fio's end_fsync); buffered writes also fsync'ed every 64 writes and O_DSYNC.
#   copies:  host<->GPU copies into pinned, pageable (reused) and pageable-fresh memory
#            (with and without transparent huge pages) by chunk size, a CPU pass (memcpy,
#            CRC-32) over host bytes, and small copies for the per-call cost.
#   flush:   scripts/probe-virtio-flush.py: the disk's flush against the bytes written
#            since the last one (O_DIRECT overwrites of a filled file, then fdatasync), write
#            ingest by 1, 2 and 8 threads, buffered writes then fsync (FLUSH_SIZES MiB,
#            default 1,16,256,1024; BUFFERED_GIB, default 1,4).
#   pagecache: scripts/probe-page-cache.py: write() of PAGECACHE_GIB (default 4) GiB from a hot
#            1 MiB block and from a cold source against memcpys of the same bytes (the page
#            cache's cost per page), their fsyncs, and the file read cold, warm and O_DIRECT.
#   readpath: scripts/probe-read-path.py: a cold buffered read of READPATH_GIB (default 4) GiB in
#            1, 4 and 16 MiB read()s, with POSIX_FADV_SEQUENTIAL and _RANDOM, through a mapping,
#            against O_DIRECT reads of 1, 4 and 16 MiB at QD 1 and 4 MiB at QD 2: the reader's CPU
#            share, the disk's request sizes, busy time and in-flight reads.
#   pages:   O_DIRECT reads of one PAGES_GIB (default 2) GiB file, once over it, PAGES_IO (default
#            "1M 4M") at QD 1, into host buffers of 2 MiB pages and of 4 KiB pages (--buffer-pages), into
#            host memory (cpu_only) and staged to the GPU from it pinned (cpu_gpu), interleaved
#            rounds: what a virtual disk charges per DMA segment.
#   depth:   O_DIRECT reads (cpu_only, io_uring, one thread) of a DEPTH_GIB (default 8) GiB file
#            at rising queue depths, DEPTH_POINTS (default 128K at 16, 64, 128; 1M at 1-32; 4M at
#            1-8), each point twice: the sweep's way (1 s over a 1 GiB region, re-read) and once
#            over 2 GiB of the file (no byte read twice in a run), interleaved rounds: how the disk's rate
#            follows the bytes it holds, and whether re-reading a region reads faster. With
#            READ_DIRECT (a build of scripts/read-direct.c), also 2 GiB O_DIRECT passes with the
#            reads in flight and the memory they land in set apart (threads x buffers).
#   drifttrace: for DRIFTTRACE_SECONDS (default 360), in turn: the sweep's O_DIRECT points DRIFTTRACE_POINTS
#            (default 1M QD1, 128K QD1, 1M QD8; 1 s each over a 1 GiB file) and a cold buffered read of a
#            DRIFTTRACE_STREAM_GIB (default 2) GiB file in 4 MiB reads (the page cache's readahead; times.txt
#            has each turn's start): how fast the disk's rate moves and whether a stream moves with it.
#   mappedload: scripts/probe-mapped-load.py: a cold safetensors load_file of MAPPEDLOAD_GIB (default 4)
#            GiB and its copy to the GPU out of the mapping, against a buffered read and page faults
#            on a mapping of the same file (cold and warm): how a mapped load reads.
#   guestmem: scripts/probe-guest-memory.py: what guest memory costs the first time it is written after
#            the guest reported it free (virtio-balloon free page reporting): a populate of
#            GUESTMEM_POPULATE_GIB (default 8) GiB settled and at once, and a cold fill of a GUESTMEM_GIB
#            (default 4) GiB file at once and GUESTMEM_SETTLE (default 8) s after its pages were dropped.
#   gpualloc: scripts/probe-gpu-alloc.py: the GPU memory a restore allocates, from cudaMalloc (the caching
#            allocator emptied) against from the allocator's cache, alone and inside .to(GPU) of a host state of
#            GPUALLOC_SIZES (default 2,8) GB in 640 tensors.
#   h2dsource: scripts/probe-h2d-source.py: a copy to the GPU of the same host tensors filled by the CPU,
#            by a cached read, by a cold read, and by a cold read followed by H2DSOURCE_WAIT (default 3) s
#            idle, for a file of each of H2DSOURCE_GIB (default "8 2") GiB in 512 tensors.
#   coldloads: scripts/probe-cold-loads.py: one training state of each of COLDLOADS_SIZES (default 2,8) GB
#            saved by torch.save and safetensors, each file read cold by a child process that never imports
#            torch, by this process's plain reads, by torch.load / load_file, and torch.load of a file just
#            saved: whether the frameworks' cold loads read slower than a plain reader, and why.
#   crccost: scripts/probe-crc-cost.py: torch.save of CRCCOST_GIB (default 1) GiB as one tensor and as a training
#            state, to /dev/shm and to the disk's page cache, with and without compute_crc32, CRCCOST_ROUNDS
#            (default 5) rounds: what the CRC costs where checkpoints are written, against the /dev/shm probe.
#   readorder: scripts/probe-torch-read-order.py: torch.load's read() calls logged (torch.save lays its records
#            out sorted by their keys as strings, torch.load reads them in numeric order), then cold: torch.load,
#            its reads replayed in its order and sorted by offset, a 4 MiB stream; READORDER_SIZES (default 2,8)
#            GB, READORDER_ROUNDS (default 4) rounds.
#   timeline: scripts/probe-stream-timeline.py: a file of each of TIMELINE_SIZES (default 2,8) GB read cold
#            from start to end after TIMELINE_IDLE (default 2) s of idleness, right after other reads, with
#            O_DIRECT, and right after a new file of its size was written and fsync'ed (the checkpoint runs'
#            order), the disk's bytes sampled every 2 ms: where a cold stream's time goes.
#   torchcopy: scripts/probe-torch-copy-cost.py: .cpu() and .to(GPU) of 512 tensors of 4 KiB to 1 MiB against
#            copy_() into tensors allocated before, TORCHCOPY_ROUNDS (default 5) rounds: what PyTorch adds to
#            each tensor's copy beyond the CUDA copy.
#   writeback: scripts/probe-writeback.py: buffered writes of 1, 2 and WRITEBACK_GIB (default 8) GiB
#            made durable by fsync, to a new file, the same file overwritten and a new file
#            fallocated first: what writeback costs by how the file's blocks stand (the write
#            sweeps overwrite a file laid out once; checkpoints are new files).
#   frameworks: scripts/checkpoint-frameworks.py: torch.save + fsync, safetensors and DCP
#            checkpoints of FRAMEWORK_SIZES GB, saved until durable and loaded cold and warm; with
#            plain_stream in FRAMEWORK_WRITERS also a plain file of each size, written, made durable
#            and read cold in 4 MiB reads in the same rounds: the disk's stream rate beside the loads.
#   drift:   the disk phase's O_DIRECT points again, the same way (cpu_only, 1 GiB file, 1 s a point,
#            DISK_ROUNDS interleaved rounds) at DRIFT_SIZES (default "128K 1M") x DRIFT_QDS (default
#            "1 8 32"), one thread: run last in the call that holds the checkpoints, it tells how far the
#            virtual disk moved between the calibration and the checkpoints (scripts/sweep-drift.py
#            SESSION; scripts/checkpoint-derive.py --check prints it). A one-run session in two calls on
#            one warm machine: `probe disk frameworks drift`, then `writeback copies writes`, so that the
#            reads the model is fitted on and the loads it predicts lie minutes apart, not a call apart.
#   scripts/calibrate-gpu-machine.sh OUT_DIR [PHASE...]   (default: probe depth disk figures memory writes copies flush frameworks)
# Environment: IOWALL (binary), ROUNDS (default 3), DISK_ROUNDS (default 4), DISK_SIZES (default "4K 128K 1M"),
# DISK_QDS, PRIVATE_UDEV,
# FRAMEWORK_SIZES (default "2 8"), FRAMEWORK_WRITERS (default the four framework writers;
# plain_stream is there only when named), FRAMEWORK_TENSORS (parameter tensors of the state, default
# 128: 4 tensors each, the fp32 ones 4.5 MB at 2 GB; 8 makes them 72 MB, over glibc's 32 MiB mmap
# threshold, so a process's later saves copy into new memory too).
#
# PRIVATE_UDEV=1 (root only): cuFile refuses a file whose block device has no udev entry
# (error 5027; a VM without udev has none). With this setting the script runs itself in a
# private mount namespace and gives that namespace its own /run/udev, holding one entry
# for the disk the work folder is on (ID_FS_USAGE=filesystem and its file system type, as
# udev's blkid builtin would record). The machine's own /run is never written: the view is
# a tmpfs (or an overlay whose upper layer is a private tmpfs folder) that exists only in
# the namespace and disappears with it.
set -uo pipefail
if [ "${PRIVATE_UDEV:-0}" = 1 ] && [ -z "${IOWALL_PRIVATE_UDEV_NS:-}" ]; then
  command -v unshare >/dev/null && exec unshare --mount --propagation private env IOWALL_PRIVATE_UDEV_NS=1 bash "$0" "$@"
fi
out=${1:?usage: calibrate-gpu-machine.sh OUT_DIR [PHASE...]}
shift
phases=("$@")
[ ${#phases[@]} -eq 0 ] && phases=(probe depth disk figures memory writes copies flush frameworks)
iowall=$(realpath "${IOWALL:-build/release/iowall}")
here=$(cd "$(dirname "$0")" && pwd)
# Everything the script creates lives in two private folders, one on the disk and one on
# tmpfs, removed at the end: nothing else on the machine is written or deleted.
work=$(mktemp -d /var/tmp/iowall-gpu-calibration.XXXXXX)
shm=$(mktemp -d /dev/shm/iowall-gpu-calibration.XXXXXX)
trap 'rm -rf "$work" "$shm"' EXIT
mkdir -p "$out"
out=$(realpath "$out")


{
  nvidia-smi -L 2>&1
  nproc
  free -g
  uname -r
  df -hT /dev/shm /var/tmp | tail -n 2
  ls /usr/local/cuda*/targets/x86_64-linux/lib/libcufile.so* 2>&1 | head -n 3
} > "$out/machine.txt" 2>&1

# Inside the private namespace only (see PRIVATE_UDEV above).
private_udev() {
  local dev fstype
  dev=$(stat -c '%Hd:%Ld' "$work") fstype=$(findmnt -n -o FSTYPE --target "$work")
  if [ -d /run/udev ]; then
    mount -t tmpfs -o mode=0755,size=1m iowall-udev /run/udev || return 1
  else
    mkdir -p "$shm/run-upper" "$shm/run-work" || return 1
    mount -t overlay iowall-run -o "lowerdir=/run,upperdir=$shm/run-upper,workdir=$shm/run-work" /run || return 1
  fi
  mkdir -p /run/udev/data &&
    printf 'E:ID_FS_USAGE=filesystem\nE:ID_FS_TYPE=%s\n' "$fstype" > "/run/udev/data/b$dev" &&
    echo "private udev view: /run/udev/data/b$dev ($fstype), in this mount namespace only"
}
if [ -n "${IOWALL_PRIVATE_UDEV_NS:-}" ]; then
  private_udev >> "$out/machine.txt" 2>&1 || echo "private udev view: could not be set up" >> "$out/machine.txt"
fi

pack() {  # phase
  tar -C "$work" -czf "$out/$1.tar.gz" "$1"
}

# cuFile writes cufile.log into the working directory: each phase runs in its own and
# keeps the log's tail.
keep_cufile_log() {
  [ -f cufile.log ] && tail -n 200 cufile.log > cufile-tail.log && rm -f cufile.log
}
# Whether gpu_direct can run on a file in the folder of that kind (tmp or shm): with the
# setting the probe found, or as configured.
gpu_direct_runs() {
  [ ${#cufile_env[@]} -gt 0 ] || [ -e "$work/probe/default-works-$1" ]
}
cufile_env=()
probe() {
  mkdir -p "$work/probe" && cd "$work/probe" || return
  printf '{ "properties": { "allow_compat_mode": true, "force_compat_mode": true } }\n' > force-compat.json
  local ok=""
  for place in "$shm" "$work"; do
    local kind=tmp
    [ "$place" = "$shm" ] && kind=shm
    local f=$place/probe.bin
    "$iowall" measure -f "$f" -s 64M -i 1M --keep --quiet
    for setting in default CUFILE_FORCE_COMPAT_MODE=true CUFILE_ENV_PATH_JSON=$work/probe/force-compat.json; do
      local envs=()
      [ "$setting" != default ] && envs=("$setting")
      echo "== $kind $setting" >> probe.txt
      if env "${envs[@]}" "$iowall" measure -f "$f" -i 1M -x gpu_direct --output-format normal,json \
           --output "probe-$kind-${setting%%=*}.json" >> probe.txt 2>&1; then
        echo "works" >> probe.txt
        [ "$setting" = default ] && touch "default-works-$kind"
        [ -z "$ok" ] && [ "$kind" = tmp ] && ok=$setting
      fi
    done
    rm -f "$f"
  done
  keep_cufile_log
  echo "${ok:-none}" > compat-setting.txt
}

with_cufile_env() { env "${cufile_env[@]}" "$@"; }

# A calibration sweep (scripts/calibrate-sweep.sh) in folder $1 of the calibration file under
# $2 ($work or $shm; kind $3 for the cuFile probe's answer), ROUNDS $4, IO_SIZES $5, QDS $6.
sweep_phase() {
  mkdir -p "$work/$1" && cd "$work/$1" || return
  local types=(cpu_only cpu_cached cpu_gpu)
  gpu_direct_runs "$3" && types+=(gpu_direct)
  with_cufile_env env IOWALL="$iowall" CALIB_FILE="$2/calibration.bin" FILE_SIZE=1G RUNTIME="1 s" REPEAT=1 \
    ROUNDS="$4" IO_SIZES="$5" QDS="$6" THREADS="1 2" "$here/calibrate-sweep.sh" "$work/$1/sweep" "${types[@]}" 2> sweep.log
  keep_cufile_log
}

disk() { sweep_phase disk "$work" tmp "${DISK_ROUNDS:-4}" "${DISK_SIZES:-4K 128K 1M}" "${DISK_QDS:-1 8 32}"; }

figures() {
  mkdir -p "$work/figures" && cd "$work/figures" || return
  local f=$work/figures.bin
  "$iowall" measure -f "$f" -s 4G -i 16M --keep --quiet
  local types=(cpu_only cpu_gpu cpu_cached_gpu cpu_cached)
  gpu_direct_runs tmp && types+=(gpu_direct)
  for r in 1 2 3; do
    for x in "${types[@]}" cpu_cached_gpu-pageable; do
      echo "measuring $x-16M-r$r" >&2
      local flags=()
      [ "$x" = cpu_cached_gpu-pageable ] && flags=(--pageable)
      with_cufile_env "$iowall" measure -f "$f" -i 16M -x "${x%-pageable}" "${flags[@]}" --engine psync --invalidate \
        --output-format json --output "$x-16M-qd1-t1-r$r.json" --quiet 2> "$x-r$r.err" && rm -f "$x-r$r.err"
    done
  done 2> figures.log
  rm -f "$f"
  keep_cufile_log
}

memory() { sweep_phase memory "$shm" shm "${ROUNDS:-3}" "4K 64K 1M 16M" "1 8"; }

writes() {
  mkdir -p "$work/writes" && cd "$work/writes" || return
  local f=$work/writes.bin
  for r in $(seq 1 "${ROUNDS:-3}"); do
    for x in cpu_only cpu_cached; do
      for io in 4K 128K 1M; do
        for qd in 1 8; do
          for t in 1 2; do
            local name=$x-write-$io-qd$qd-t$t-r$r
            echo "measuring $name" >&2
            "$iowall" measure -f "$f" -s "${WRITE_SIZE:-1G}" -i "$io" -w "$t" -x "$x" -I write --engine io_uring --qd "$qd" \
              --end-fsync --output-format json --output "$name.json" --quiet 2> "$name.err" && rm -f "$name.err"
          done
        done
      done
    done
    # Buffered writes made durable as they go: an fsync every 64 writes, and O_DSYNC.
    for io in 128K 1M; do
      "$iowall" measure -f "$f" -s "${WRITE_SIZE:-1G}" -i "$io" -x cpu_cached -I write --fsync 64 \
        --output-format json --output "cpu_cached-write-fsync64-$io-qd1-t1-r$r.json" --quiet
      "$iowall" measure -f "$f" -s 256M -i "$io" -x cpu_only -I write --sync \
        --output-format json --output "cpu_only-write-osync-$io-qd1-t1-r$r.json" --quiet
    done
  done 2> writes.log
  rm -f "$f"
}

copies() {
  mkdir -p "$work/copies" && cd "$work/copies" || return
  for r in $(seq 1 "${ROUNDS:-3}"); do
    for dir in d2h h2d; do
      for mem in pinned pageable pageable_fresh; do
        local thps=(none)
        [ "$mem" = pageable_fresh ] && thps=(huge nohuge)
        for thp in "${thps[@]}"; do
          for chunk in 1M 16M 256M; do
            local name=$dir-$mem-$thp-$chunk-r$r flags=()
            [ "$thp" != none ] && flags=(--thp "$thp")
            echo "measuring $name" >&2
            "$iowall" measure --copy "$dir" --host-memory "$mem" "${flags[@]}" -s 2G -i "$chunk" \
              --output-format json --output "$name.json" --quiet 2> "$name.err" && rm -f "$name.err"
          done
        done
      done
      # The per-call cost: small copies from pinned memory.
      "$iowall" measure --copy "$dir" --host-memory pinned -s 64M -i 4K --output-format json \
        --output "$dir-pinned-none-4K-r$r.json" --quiet
    done
    for pass in memcpy crc32; do
      "$iowall" measure --copy cpu_pass --pass "$pass" -s 2G -i 64M --output-format json --output "cpu_pass-$pass-r$r.json" --quiet
    done
  done 2> copies.log
}

pages() {
  mkdir -p "$work/pages" && cd "$work/pages" || return
  local f=$work/pages.bin
  "$iowall" measure -f "$f" -s "${PAGES_GIB:-2}G" -i 16M --keep --quiet
  for r in $(seq 1 "${ROUNDS:-3}"); do
    for io in ${PAGES_IO:-1M 4M}; do
      for x in cpu_only cpu_gpu; do
        for pages in huge small; do
          local name=$x-$io-qd1-t1-$pages-r$r
          echo "measuring $name" >&2
          "$iowall" measure -f "$f" -i "$io" -x "$x" --buffer-pages "$pages" --engine psync \
            --output-format json --output "$name.json" --quiet 2> "$name.err" && rm -f "$name.err"
        done
      done
    done
  done 2> pages.log
  rm -f "$f"
}

drift() {
  mkdir -p "$work/drift" && cd "$work/drift" || return
  env IOWALL="$iowall" CALIB_FILE="$work/calibration.bin" FILE_SIZE=1G RUNTIME="1 s" REPEAT=1 ROUNDS="${DISK_ROUNDS:-4}" \
    IO_SIZES="${DRIFT_SIZES:-128K 1M}" QDS="${DRIFT_QDS:-1 8 32}" THREADS=1 "$here/calibrate-sweep.sh" "$work/drift/sweep" \
    cpu_only 2> sweep.log
}

drifttrace() {
  mkdir -p "$work/drifttrace" && cd "$work/drifttrace" || return
  local f=$work/drifttrace.bin s=$work/drifttrace-stream.bin i=0
  "$iowall" measure -f "$f" -s 1G -i 1M --keep --quiet
  "$iowall" measure -f "$s" -s "${DRIFTTRACE_STREAM_GIB:-2}G" -i 1M --keep --quiet
  local end=$((SECONDS + ${DRIFTTRACE_SECONDS:-360}))
  while [ "$SECONDS" -lt "$end" ]; do
    i=$((i + 1))
    echo "$i $(date +%s.%N)" >> times.txt
    for p in ${DRIFTTRACE_POINTS:-1M:1 128K:1 1M:8}; do
      local io=${p%%:*} qd=${p##*:}
      "$iowall" measure -f "$f" -i "$io" -x cpu_only --engine io_uring --qd "$qd" -I read --runtime "1 s" \
        --output-format json --output "direct-$io-qd$qd-i$i.json" --quiet 2>> drifttrace.log
    done
    "$iowall" measure -f "$s" -i 4M -x cpu_cached --invalidate -I read --output-format json \
      --output "stream-i$i.json" --quiet 2>> drifttrace.log
  done
  rm -f "$f" "$s"
}

depth() {
  mkdir -p "$work/depth" && cd "$work/depth" || return
  local f=$work/depth.bin
  "$iowall" measure -f "$f" -s "${DEPTH_GIB:-8}G" -i 16M --keep --quiet
  local points=(${DEPTH_POINTS:-128K:16 128K:64 128K:128 1M:1 1M:2 1M:4 1M:8 1M:12 1M:16 1M:24 1M:32 4M:1 4M:2 4M:3 4M:4 4M:6 4M:8})
  for r in $(seq 1 "${ROUNDS:-3}"); do
    for p in "${points[@]}"; do
      local io=${p%%:*} qd=${p##*:}
      for mode in loop pass; do
        local name=$mode-$io-qd$qd-r$r span=(-s 1G -T "1 s")
        [ "$mode" = pass ] && span=(-s 2G)
        echo "measuring $name" >&2
        "$iowall" measure -f "$f" "${span[@]}" -i "$io" -x cpu_only --engine io_uring --qd "$qd" \
          --output-format json --output "$name.json" --quiet 2> "$name.err" && rm -f "$name.err"
      done
    done
  done 2> depth.log
  if [ -n "${READ_DIRECT:-}" ]; then
    local cases=(4096:1:1 4096:1:4 4096:1:8 4096:2:2 4096:4:1 4096:4:4 1024:1:1 1024:1:16 1024:16:1 1024:16:16)
    for r in $(seq 1 "${ROUNDS:-3}"); do
      local i=0
      for c in "${cases[@]}"; do
        IFS=: read -r bs threads bufs <<< "$c"
        # each case from another quarter of the file, rotating over rounds
        local start=$(( ( (i + r) % 4 ) * ${DEPTH_GIB:-8} * 256 * 1024 ))
        "$READ_DIRECT" "$f" huge "$bs" "$start" 2048 "$threads" "$bufs" >> buffers.txt 2>> depth.log
        i=$((i + 1))
      done
    done
  fi
  rm -f "$f"
}

# One probe as a phase: its folder, the probe run there (under a time limit in seconds; 0: none),
# writing OUTPUT there, its summary and its log (PHASE.log) beside it.
#   probe_phase PHASE LIMIT SCRIPT OUTPUT [ARG...]
probe_phase() {
  local phase=$1 limit=$2 script=$3 output=$4
  shift 4
  mkdir -p "$work/$phase" && cd "$work/$phase" || return
  PYTHONUNBUFFERED=1 timeout "$limit" python3 "$here/$script" --output "$work/$phase/$output" "$@" \
    > summary.txt 2> "$phase.log"
}

pagecache() {
  probe_phase pagecache 0 probe-page-cache.py page-cache.json --dir "$work/pagecache" --rounds "${ROUNDS:-3}" \
    --size-gib "${PAGECACHE_GIB:-4}"
}

readpath() {
  probe_phase readpath 0 probe-read-path.py read-path.json --dir "$work/readpath" --rounds "${ROUNDS:-3}" \
    --size-gib "${READPATH_GIB:-4}"
}

flush() {
  probe_phase flush 0 probe-virtio-flush.py flush.json --dir "$work/flush" --rounds "${ROUNDS:-3}" \
    --sizes "${FLUSH_SIZES:-1,16,256,1024}" --buffered "${BUFFERED_GIB:-1,4}"
}

mappedload() {
  probe_phase mappedload "${MAPPEDLOAD_LIMIT:-300}" probe-mapped-load.py mapped-load.json --dir "$work/mappedload" \
    --rounds "${ROUNDS:-3}" --size-gib "${MAPPEDLOAD_GIB:-4}"
}

gpualloc() {
  probe_phase gpualloc "${GPUALLOC_LIMIT:-300}" probe-gpu-alloc.py gpu-alloc.json --rounds "${ROUNDS:-3}" \
    --sizes-gb "${GPUALLOC_SIZES:-2,8}"
}

h2dsource() {
  mkdir -p "$work/h2dsource" && cd "$work/h2dsource" || return
  for gib in ${H2DSOURCE_GIB:-8 2}; do
    PYTHONUNBUFFERED=1 timeout "${H2DSOURCE_LIMIT:-300}" python3 "$here/probe-h2d-source.py" --dir "$work/h2dsource" \
      --output "$work/h2dsource/h2d-source-${gib}g.json" --size-gib "$gib" --rounds "${ROUNDS:-3}" \
      --wait "${H2DSOURCE_WAIT:-3}" >> summary.txt 2>> h2dsource.log
  done
}

coldloads() {
  probe_phase coldloads "${COLDLOADS_LIMIT:-300}" probe-cold-loads.py cold-loads.json --dir "$work/coldloads" \
    --rounds "${ROUNDS:-3}" --sizes-gb "${COLDLOADS_SIZES:-2,8}"
}

readorder() {
  probe_phase readorder "${READORDER_LIMIT:-400}" probe-torch-read-order.py read-order.json --dir "$work/readorder" \
    --rounds "${READORDER_ROUNDS:-4}" --sizes-gb "${READORDER_SIZES:-2,8}"
}

timeline() {
  probe_phase timeline "${TIMELINE_LIMIT:-420}" probe-stream-timeline.py stream-timeline.json --dir "$work/timeline" \
    --rounds "${ROUNDS:-3}" --sizes-gb "${TIMELINE_SIZES:-2,8}" --idle "${TIMELINE_IDLE:-2}"
}

crccost() {
  probe_phase crccost "${CRCCOST_LIMIT:-200}" probe-crc-cost.py crc-cost.json --dir "$work/crccost" \
    --rounds "${CRCCOST_ROUNDS:-5}" --size-gib "${CRCCOST_GIB:-1}"
}

torchcopy() {
  probe_phase torchcopy "${TORCHCOPY_LIMIT:-200}" probe-torch-copy-cost.py torch-copy-cost.json \
    --rounds "${TORCHCOPY_ROUNDS:-5}"
}

guestmem() {
  probe_phase guestmem "${GUESTMEM_LIMIT:-300}" probe-guest-memory.py guest-memory.json --dir "$work/guestmem" \
    --rounds "${ROUNDS:-3}" --size-gib "${GUESTMEM_GIB:-4}" --populate-gib "${GUESTMEM_POPULATE_GIB:-8}" \
    --settle "${GUESTMEM_SETTLE:-8}"
}

writeback() {
  mkdir -p "$work/writeback" && cd "$work/writeback" || return
  PYTHONUNBUFFERED=1 timeout "${WRITEBACK_LIMIT:-400}" python3 "$here/probe-writeback.py" --dir "$work/writeback" --output "$work/writeback/writeback.json" \
    --rounds "${ROUNDS:-3}" --size-gib "${WRITEBACK_GIB:-8}" > summary.txt 2> writeback.log
}

frameworks() {
  mkdir -p "$work/frameworks" && cd "$work/frameworks" || return
  # shellcheck disable=SC2086  # sizes are words
  PYTHONUNBUFFERED=1 python3 "$here/checkpoint-frameworks.py" --dir "$work/frameworks" --output "$work/frameworks/checkpoints.json" \
    --rounds "${ROUNDS:-3}" --writers "${FRAMEWORK_WRITERS:-torch_save,torch_save_gpu,safetensors,dcp}" --crc-probe \
    --tensors "${FRAMEWORK_TENSORS:-128}" ${FRAMEWORK_SIZES:-2 8} > summary.txt 2> frameworks.log
}

for phase in "${phases[@]}"; do
  start=$(date +%s)
  case $phase in
    probe) probe ;;
    disk) disk ;;
    figures) figures ;;
    memory) memory ;;
    writes) writes ;;
    copies) copies ;;
    flush) flush ;;
    pagecache) pagecache ;;
    pages) pages ;;
    depth) depth ;;
    drift) drift ;;
    drifttrace) drifttrace ;;
    readpath) readpath ;;
    mappedload) mappedload ;;
    guestmem) guestmem ;;
    gpualloc) gpualloc ;;
    h2dsource) h2dsource ;;
    coldloads) coldloads ;;
    crccost) crccost ;;
    readorder) readorder ;;
    timeline) timeline ;;
    torchcopy) torchcopy ;;
    writeback) writeback ;;
    frameworks) frameworks ;;
    *) echo "unknown phase $phase" >&2; continue ;;
  esac
  if [ "$phase" = probe ]; then
    setting=$(cat "$work/probe/compat-setting.txt")
    case $setting in none|default) ;; *) cufile_env=("$setting") ;; esac
  fi
  echo "$phase: $(( $(date +%s) - start )) s" >> "$out/phases.txt"
  pack "$phase"
done
exit 0
