#!/usr/bin/env bash
# Records what `iowall topo discover` reads of a Linux machine into a folder, so that
# `iowall topo discover --sysfs-root OUT` later reads the machine as it was here:
#   OUT/sys/...         the sysfs attributes named below, at their own paths, and the links
#                       discovery follows (/sys/bus/pci/devices/*, /sys/block/*, /sys/class/
#                       {nvme,net,infiniband}/*, a virtual function's physfn) as relative links
#   OUT/proc/cpuinfo    the first processor's block of /proc/cpuinfo; OUT/proc/meminfo
#   OUT/nvidia-smi/     `nvidia-smi topo -m` and `nvidia-smi -q` (serial numbers, UUIDs, board
#                       and per-device identifiers, timestamps left out), only when
#                       nvidia-smi is on PATH
# Only small text attributes are copied, each by name: no binary attribute (config, resource,
# rom, vpd), nothing under /sys/kernel, no serial numbers or MAC addresses. Nothing on the
# machine is written; OUT must not exist yet or be empty. Needs bash and coreutils only, and
# no privileges beyond reading these files (an attribute that cannot be read is left out).
#
# Usage: scripts/capture-sysfs.sh OUT
# SYSFS=DIR and PROCFS=DIR read another tree instead of /sys and /proc (a recorded one).
set -euo pipefail

out=${1:?usage: scripts/capture-sysfs.sh OUT}
sys=$(readlink -f "${SYSFS:-/sys}")
proc=${PROCFS:-/proc}
[ -d "$sys/devices" ] || { echo "capture-sysfs: $sys is not a sysfs tree (no devices/)" >&2; exit 2; }
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  echo "capture-sysfs: $out exists and is not empty" >&2
  exit 2
fi
mkdir -p "$out/sys" "$out/proc"
out=$(readlink -f "$out")

# copy DIR REL NAME...: each readable regular file DIR/NAME to OUT/sys/REL/NAME (at most 64 KiB).
copy() {
  local dir=$1 rel=$2 name
  shift 2
  for name in "$@"; do
    [ -f "$dir/$name" ] && [ ! -L "$dir/$name" ] || continue
    mkdir -p "$(dirname "$out/sys/$rel/$name")"
    head -c 65536 "$dir/$name" >"$out/sys/$rel/$name" 2>/dev/null || rm -f "$out/sys/$rel/$name"
  done
}

# link LINK TARGET: OUT/sys/LINK -> OUT/sys/TARGET as a relative link (both relative to sys).
link() {
  local at="$out/sys/$1" target="$out/sys/$2"
  mkdir -p "$(dirname "$at")" "$target"
  ln -sfn "$(realpath -m --relative-to="$(dirname "$at")" "$target")" "$at"
}

# The path below sys of what ENTRY resolves to, or nothing when it leaves the tree.
resolve() {
  local real
  real=$(readlink -f "$1") || return 0
  case "$real" in "$sys"/*) echo "${real#"$sys"/}" ;; esac
}

pci_attrs=(class vendor device subsystem_vendor subsystem_device revision numa_node local_cpulist
           current_link_speed current_link_width max_link_speed max_link_width)

# PCI functions and every bridge above them.
declare -A pci_done=()
for entry in "$sys"/bus/pci/devices/*; do
  [ -e "$entry" ] || continue
  rel=$(resolve "$entry")
  [ -n "$rel" ] || continue
  path=""
  IFS=/ read -r -a parts <<<"$rel"
  for part in "${parts[@]}"; do
    path=${path:+$path/}$part
    case "$part" in
      [0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-7])
        if [ -z "${pci_done[$path]:-}" ]; then
          copy "$sys/$path" "$path" "${pci_attrs[@]}"
          pci_done[$path]=1
        fi ;;
    esac
  done
  link "bus/pci/devices/$(basename "$entry")" "$rel"
  if [ -e "$entry/physfn" ]; then
    pf=$(resolve "$entry/physfn")
    [ -n "$pf" ] && link "$rel/physfn" "$pf"
  fi
done

# Class devices: NVMe controllers, network interfaces, RDMA devices. Virtual ones (lo, bonds,
# bridges) live under devices/virtual and are left out.
class_entry() {  # class_entry CLASS ENTRY ATTR...
  local class=$1 entry=$2 rel
  shift 2
  rel=$(resolve "$entry")
  case "$rel" in "" | devices/virtual/*) return 0 ;; esac
  copy "$sys/$rel" "$rel" "$@"
  link "class/$class/$(basename "$entry")" "$rel"
  echo "$rel"
}
for e in "$sys"/class/nvme/*; do
  [ -e "$e" ] && class_entry nvme "$e" model firmware_rev transport numa_node queue_count sqsize cntrltype >/dev/null
done
for e in "$sys"/class/net/*; do
  [ -e "$e" ] && class_entry net "$e" speed mtu type operstate dev_port >/dev/null
done
for e in "$sys"/class/infiniband/*; do
  [ -e "$e" ] || continue
  rel=$(class_entry infiniband "$e" node_type hca_type board_id fw_ver)
  [ -n "$rel" ] || continue
  for port in "$e"/ports/*; do
    [ -d "$port" ] && copy "$port" "$rel/ports/$(basename "$port")" rate state phys_state link_layer
  done
done

# Block devices on hardware (loop, zram, md and dm devices are virtual and left out), with
# their queue limits and one folder per hardware queue (blk-mq).
for e in "$sys"/block/*; do
  [ -e "$e" ] || continue
  rel=$(resolve "$e")
  case "$rel" in "" | devices/virtual/*) continue ;; esac
  copy "$sys/$rel" "$rel" size ro removable
  copy "$sys/$rel/queue" "$rel/queue" logical_block_size physical_block_size max_sectors_kb max_hw_sectors_kb \
    nr_requests rotational
  for q in "$sys/$rel"/mq/*; do
    [ -d "$q" ] && copy "$q" "$rel/mq/$(basename "$q")" nr_tags cpu_list
  done
  link "block/$(basename "$e")" "$rel"
done

# CPUs (sockets, cores) and NUMA nodes (their CPUs and memory).
copy "$sys/devices/system/cpu" devices/system/cpu online possible present
for c in "$sys"/devices/system/cpu/cpu[0-9]*; do
  [ -d "$c" ] || continue
  n=$(basename "$c")
  copy "$c" "devices/system/cpu/$n" topology/physical_package_id topology/core_id topology/die_id \
    cpufreq/base_frequency cpufreq/cpuinfo_max_freq
done
copy "$sys/devices/system/node" devices/system/node online possible has_cpu has_memory
for n in "$sys"/devices/system/node/node[0-9]*; do
  [ -d "$n" ] && copy "$n" "devices/system/node/$(basename "$n")" cpulist meminfo distance
done

# /proc: the first processor's block of cpuinfo (model name and flags), and meminfo.
if [ -r "$proc/cpuinfo" ]; then
  while IFS= read -r line; do
    [ -z "$line" ] && break
    printf '%s\n' "$line"
  done <"$proc/cpuinfo" >"$out/proc/cpuinfo"
fi
[ -r "$proc/meminfo" ] && head -c 65536 "$proc/meminfo" >"$out/proc/meminfo"

# GPUs as the driver sees them, when it is installed.
if command -v nvidia-smi >/dev/null 2>&1; then
  mkdir -p "$out/nvidia-smi"
  nvidia-smi topo -m >"$out/nvidia-smi/topo-m.txt" 2>/dev/null || rm -f "$out/nvidia-smi/topo-m.txt"
  if nvidia-smi -q >"$out/nvidia-smi/q.raw" 2>/dev/null; then
    while IFS= read -r line; do
      case "$line" in *Serial* | *UUID* | *"Board Id"* | *"Board ID"* | *PDI* | *GUID* | *Timestamp*) continue ;; esac
      printf '%s\n' "$line"
    done <"$out/nvidia-smi/q.raw" >"$out/nvidia-smi/q.txt"
  fi
  rm -f "$out/nvidia-smi/q.raw"
fi

echo "capture-sysfs: recorded $(ls "$out"/sys/bus/pci/devices 2>/dev/null | wc -l) PCI functions into $out" >&2
