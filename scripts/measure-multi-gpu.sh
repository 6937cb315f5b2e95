#!/usr/bin/env bash
# One call on a machine with several GPUs: the host's topology, then host<->GPU copies,
# peer copies and storage reads from 1, 2, 4 and 8 GPUs at once. Each phase is packed into
# OUT_DIR/PHASE.tar.gz as soon as it ends (a call cut short still returns what it finished),
# and each has a time budget: a phase stops starting new runs once its budget is spent and
# says so in its log, so the whole call stays under ten minutes.
#   topo:    nvidia-smi topo -m and -p2p r, nvidia-smi's per-GPU PCI figures, lspci -tv,
#            numactl -H, `iowall topo discover` and scripts/capture-sysfs.sh (a recording
#            discovery can read again). Without GPUs or tools, each missing part says why.
#   copies:  `iowall measure --copy h2d|d2h` on N GPUs at once (N = 1, 2, 4, 8: GPUs 0..N-1),
#            one process per GPU, host memory pinned on the GPU's NUMA node, pinned on another
#            node, and pageable on the GPU's node (numactl --membind; where numactl or the
#            node is missing, unbound and said so), 1 MiB, 16 MiB and 256 MiB per call,
#            rounds interleaved. Each process repeats the copy COPY_REPEATS times: the middle
#            repeats are the ones that overlap the others (times.tsv has each process's
#            start and end, to check).
#   peer:    scripts/peer-copy-bandwidth.py: cudaMemcpyPeer between every pair of GPUs with
#            peer access enabled and disabled (CUDA runtime through ctypes; no framework).
#   storage: reads into N GPUs at once, one process per GPU on its own file: `iowall measure
#            -x cpu_gpu` and `-x gpu_direct` (compatibility mode forced unless GDS_SETTING says
#            otherwise), from the local disk (cold: --invalidate; DISK_TOTAL bytes split over
#            the N GPUs) and from tmpfs (the disk out of the way: what remains is the copies).
#   scripts/measure-multi-gpu.sh OUT_DIR [PHASE...]   (default: topo copies peer storage)
# Environment: IOWALL (binary), ROUNDS (3), COPY_REPEATS (5), COPY_SIZE (1G per process),
# COPY_BUDGET_S (300), PEER_BUDGET_S (70), STORAGE_BUDGET_S (150), DISK_TOTAL (4G),
# SHM_SIZE (1G per GPU), PEER_BYTES (256M per point and repetition), GDS_SETTING (CUFILE_FORCE_COMPAT_MODE=true; "default" for none).
set -uo pipefail
out=${1:?usage: measure-multi-gpu.sh OUT_DIR [PHASE...]}
shift
phases=("$@")
[ ${#phases[@]} -eq 0 ] && phases=(topo copies peer storage)
iowall=$(realpath "${IOWALL:-build/release/iowall}")
here=$(cd "$(dirname "$0")" && pwd)
# Everything the script creates lives in two private folders, one on the disk and one on
# tmpfs, removed at the end: nothing else on the machine is written or deleted.
work=$(mktemp -d /var/tmp/iowall-multi-gpu.XXXXXX)
shm=$(mktemp -d /dev/shm/iowall-multi-gpu.XXXXXX)
trap 'rm -rf "$work" "$shm"' EXIT
mkdir -p "$out"
out=$(realpath "$out")
rounds=${ROUNDS:-3}
# GPU indices as nvidia-smi numbers them (PCI bus order), for CUDA as well.
export CUDA_DEVICE_ORDER=PCI_BUS_ID

have() { command -v "$1" >/dev/null 2>&1; }

# GPU i's PCI address (sysfs form) and NUMA node (-1 when unknown), from nvidia-smi.
gpu_bdf=() gpu_node=()
if have nvidia-smi; then
  while IFS=', ' read -r idx bus; do
    [ -n "$bus" ] || continue
    bdf=$(echo "${bus#0000}" | tr 'A-F' 'a-f')
    node=$(cat "/sys/bus/pci/devices/$bdf/numa_node" 2>/dev/null || echo -1)
    gpu_bdf[idx]=$bdf gpu_node[idx]=$node
  done < <(nvidia-smi --query-gpu=index,pci.bus_id --format=csv,noheader 2>/dev/null)
fi
ngpu=${#gpu_bdf[@]}
nodes=()
if have numactl; then
  read -r -a nodes < <(numactl -H 2>/dev/null | sed -n 's/^available: [0-9]* nodes (\(.*\))$/\1/p' |
    awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) printf "%d ", i; else print $1 }')
fi
counts=()
for n in 1 2 4 8; do [ "$n" -le "$ngpu" ] && counts+=("$n"); done

{
  echo "gpus: $ngpu"
  for i in "${!gpu_bdf[@]}"; do echo "gpu$i ${gpu_bdf[i]} node ${gpu_node[i]}"; done
  echo "numa nodes: ${nodes[*]:-unknown (no numactl)}"
  echo "concurrent GPU counts: ${counts[*]:-none}"
  have nvidia-smi && nvidia-smi -L 2>&1 | sed 's/ (UUID: [^)]*)//'
  nproc
  free -g
  uname -r
  df -hT /dev/shm /var/tmp | tail -n 2
} > "$out/machine.txt" 2>&1

pack() {  # phase
  tar -C "$work" -czf "$out/$1.tar.gz" "$1"
}
keep_cufile_log() {
  [ -f cufile.log ] && tail -n 200 cufile.log > cufile-tail.log && rm -f cufile.log
}
# Whether the phase may start another run: false once its budget (seconds since
# phase_start) is spent; the first refusal is logged.
phase_start=0 budget=0 over=0
in_budget() {
  [ $(( $(date +%s) - phase_start )) -lt "$budget" ] && return 0
  [ "$over" = 0 ] && echo "budget of $budget s spent: later runs of this phase skipped" >> budget.txt
  over=1
  return 1
}
# A node other than $1 (the first listed), or nothing.
other_node() {
  local n
  for n in "${nodes[@]}"; do [ "$n" != "$1" ] && { echo "$n"; return; }; done
}
# numactl's arguments for memory on node $2 and CPUs on node $1; none without numactl or a
# known node.
numa_args() {  # cpu_node mem_node
  if have numactl && [ "${1:--1}" -ge 0 ] && [ -n "${2:-}" ] && [ "$2" -ge 0 ]; then
    echo "numactl --cpunodebind=$1 --membind=$2"
  fi
}
# Runs "$@" once per GPU of the list at once, each with CUDA_VISIBLE_DEVICES set to it and
# {G} in the arguments replaced by its index; its JSON goes to NAME-gG.json, its stderr to
# NAME-gG.err (removed when it succeeds), start and end times to times.tsv. MEMNODE_OF=local
# or remote chooses the memory node per GPU (empty: no binding).
run_group() {  # name "gpu list" command...
  local name=$1 gpus=$2
  shift 2
  local g pids=()
  for g in $gpus; do
    (
      local node=${gpu_node[g]:--1} mem="" args=() a
      case ${MEMNODE_OF:-} in
        local) mem=$node ;;
        remote) mem=$(other_node "$node") ;;
      esac
      # shellcheck disable=SC2207  # numa_args prints words
      local numa=($(numa_args "$node" "$mem"))
      for a in "$@"; do args+=("${a//\{G\}/$g}"); done
      local t0 t1 rc
      t0=$(date +%s.%N)
      CUDA_VISIBLE_DEVICES=$g "${numa[@]}" "${args[@]}" --output-format json --output "$name-g$g.json" --quiet \
        2> "$name-g$g.err"
      rc=$?
      t1=$(date +%s.%N)
      [ "$rc" = 0 ] && rm -f "$name-g$g.err"
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$g" "$t0" "$t1" "$rc" "${numa[*]:-unbound}" >> times.tsv
    ) &
    pids+=($!)
  done
  for g in "${pids[@]}"; do wait "$g"; done
}
first_gpus() { seq 0 $(( $1 - 1 )) | tr '\n' ' '; }

topo() {
  mkdir -p "$work/topo" && cd "$work/topo" || return
  if have nvidia-smi; then
    nvidia-smi topo -m > nvidia-smi-topo-m.txt 2>&1
    nvidia-smi topo -p2p r > nvidia-smi-topo-p2p-r.txt 2>&1
    nvidia-smi nvlink -s > nvidia-smi-nvlink-s.txt 2>&1
    nvidia-smi --query-gpu=index,name,pci.bus_id,pcie.link.gen.max,pcie.link.width.max,pcie.link.gen.current,pcie.link.width.current,memory.total \
      --format=csv > nvidia-smi-gpus.csv 2>&1
  else
    echo "nvidia-smi: not on PATH" > nvidia-smi-topo-m.txt
  fi
  if have lspci; then lspci -tv > lspci-tv.txt 2>&1; else echo "lspci: not on PATH" > lspci-tv.txt; fi
  if have numactl; then numactl -H > numactl-H.txt 2>&1; else echo "numactl: not on PATH" > numactl-H.txt; fi
  "$iowall" topo discover -o discovered.json > discover.log 2>&1 || echo "iowall topo discover failed (exit $?)" >> discover.log
  "$here/capture-sysfs.sh" "$work/topo/sysfs" > capture-sysfs.log 2>&1 || echo "capture-sysfs failed (exit $?)" >> capture-sysfs.log
}

copies() {
  mkdir -p "$work/copies" && cd "$work/copies" || return
  [ ${#counts[@]} -gt 0 ] || { echo "no GPU: nothing to copy" > copies.log; return; }
  for r in $(seq 1 "$rounds"); do
    for n in "${counts[@]}"; do
      for dir in h2d d2h; do
        for mem in pinned-local pinned-remote pageable-local; do
          local kind=${mem%-*} where=${mem#*-}
          if [ "$where" = remote ] && { [ ${#nodes[@]} -lt 2 ] || [ "${gpu_node[0]:--1}" -lt 0 ]; }; then
            [ "$r" = 1 ] && [ "$n" = 1 ] && echo "$dir $mem: one NUMA node, no numactl or GPU 0's node unknown: skipped" >> copies.log
            continue
          fi
          for chunk in 1M 16M 256M; do
            in_budget || return
            local name=$dir-$mem-n$n-$chunk-r$r
            echo "measuring $name" >> copies.log
            MEMNODE_OF=$where run_group "$name" "$(first_gpus "$n")" \
              "$iowall" measure --copy "$dir" --host-memory "$kind" -d 0 -s "${COPY_SIZE:-1G}" -i "$chunk" \
              --repeat "${COPY_REPEATS:-5}"
          done
        done
      done
    done
  done
}

peer() {
  mkdir -p "$work/peer" && cd "$work/peer" || return
  [ "$ngpu" -ge 2 ] || { echo "fewer than two GPUs: no peer copies" > peer.log; return; }
  local mode
  for mode in disabled enabled; do
    in_budget || return
    echo "peer copies, access $mode" >> peer.log
    timeout $(( budget / 2 )) python3 "$here/peer-copy-bandwidth.py" --mode "$mode" --reps "$rounds" \
      --bytes "${PEER_BYTES:-256M}" --output "peer-$mode.json" >> peer.log 2>&1 ||
      echo "peer copies, access $mode: exit $?" >> peer.log
  done
}

storage() {
  mkdir -p "$work/storage" && cd "$work/storage" || return
  [ ${#counts[@]} -gt 0 ] || { echo "no GPU: no reads into GPUs" > storage.log; return; }
  local gds_env=()
  case ${GDS_SETTING:-CUFILE_FORCE_COMPAT_MODE=true} in default) ;; *) gds_env=("${GDS_SETTING:-CUFILE_FORCE_COMPAT_MODE=true}") ;; esac
  echo "gpu_direct setting: ${gds_env[*]:-as configured}" >> storage.log
  local max=${counts[-1]} g n disk_total dir
  disk_total=$(numfmt --from=iec "${DISK_TOTAL:-4G}")
  # One file per GPU in each place. On the disk, N GPUs read DISK_TOTAL / N each: GPU g's
  # file is as large as the smallest N that includes it reads.
  for g in $(first_gpus "$max"); do
    n=1
    while [ "$n" -le "$g" ]; do n=$(( n * 2 )); done
    "$iowall" measure -f "$work/disk-g$g.bin" -s "$(( disk_total / n / 16777216 * 16777216 ))" -i 16M --keep --quiet >> storage.log 2>&1
    "$iowall" measure -f "$shm/shm-g$g.bin" -s "${SHM_SIZE:-1G}" -i 16M --keep --quiet >> storage.log 2>&1
  done
  for r in $(seq 1 "$rounds"); do
    for n in "${counts[@]}"; do
      for place in disk shm; do
        for x in cpu_gpu gpu_direct; do
          in_budget || return
          local name=$x-$place-n$n-16M-r$r size flags=()
          if [ "$place" = disk ]; then
            size=$(( disk_total / n / 16777216 * 16777216 )) flags=(--invalidate) dir=$work
          else
            size=$(numfmt --from=iec "${SHM_SIZE:-1G}") dir=$shm
          fi
          echo "measuring $name" >> storage.log
          MEMNODE_OF=local run_group "$name" "$(first_gpus "$n")" \
            env "${gds_env[@]}" "$iowall" measure -f "$dir/$place-g{G}.bin" -s "$size" -i 16M -x "$x" -d 0 \
            --engine psync "${flags[@]}"
        done
      done
    done
  done
  keep_cufile_log
}

for phase in "${phases[@]}"; do
  start=$(date +%s)
  phase_start=$start over=0
  case $phase in
    topo) budget=60; topo ;;
    copies) budget=${COPY_BUDGET_S:-300}; copies ;;
    peer) budget=${PEER_BUDGET_S:-70}; peer ;;
    storage) budget=${STORAGE_BUDGET_S:-150}; storage ;;
    *) echo "unknown phase $phase" >&2; continue ;;
  esac
  echo "$phase: $(( $(date +%s) - start )) s" >> "$out/phases.txt"
  pack "$phase"
done
exit 0
