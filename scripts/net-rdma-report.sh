#!/bin/sh
# Regenerates the numbers in reports/rdma.md and reports/net.md.
# Usage: scripts/net-rdma-report.sh [path/to/iowall]   (default build/release/iowall)
set -eu
B=${1:-build/release/iowall}
run() { echo "\$ iowall $*"; "$B" "$@"; echo; }

echo "## Registration (seed 001)"
run rdma reg --size "1 GiB" --io-size "1 GiB" --persistent --memory host --per-page "1 us"
run rdma reg --size "1 GiB" --io-size "1 GiB" --persistent --memory host
run rdma reg --size "1 GiB" --io-size "1 GiB" --persistent --memory gpu
run rdma reg --size "1 GiB" --io-size "1 GiB" --persistent --memory gpu --per-page "1 us"
run rdma reg --size "1 MB" --io-size "1 MB" --per-io --link "100 Gb/s" --per-page "1 us"
run rdma reg --size "1 MiB" --io-size "1 MiB" --per-io --link "100 Gb/s" --per-page "1 us"
run rdma reg --size "1 MiB" --io-size "1 MiB" --per-io --link "100 Gb/s"
run rdma reg --size "1 MB" --io-size "1 MB" --ios 4 --persistent --memory gpu --per-page "0 ns"
run rdma reg --size "1 MB" --io-size "1 MB" --ios 4 --persistent --memory gpu
run rdma crossover --host-per-page "1 us" --gpu-per-page "0 ns"
run rdma crossover
run rdma crossover --gpu-per-page "1 us" --host-per-page "1 us"
for w in 1 3 4 16 42 43 64; do run rdma mtt --workers $w --memory host; done
for w in 42 43 64; do run rdma mtt --workers $w --memory gpu; done
for w in 16 24 32 64; do run rdma mtt --workers $w --memory host --order random --rounds 200; done
run rdma mtt --workers 64 --memory gpu --order random --rounds 200
run rdma mtt --workers 64 --memory gpu --entries 192
run rdma mtt --workers 64 --memory gpu --miss "2 us"

echo "## Fabric (seed 003)"
run net headroom --cable "2 m"
run net headroom --cable "100 m"
run net skid --cable "2 m" --param frame="9216 B" --param xoff="200 KB" --param xon="100 KB" --param buffer="1 MB" --duration "20 ms"
run net skid --cable "100 m" --param frame="9216 B" --param xoff="200 KB" --param xon="100 KB" --param buffer="1 MB" --duration "20 ms"
run net spread --duration "100 ms" --from "20 ms" --param pfc=false --param dcqcn=false --param ecn=false
run net spread --duration "100 ms" --from "20 ms" --param dcqcn=false --param ecn=false
run net spread --duration "100 ms" --from "20 ms"
run net spread --duration "300 ms" --from "100 ms"
run net spread --duration "100 ms" --from "20 ms" --param credit=true --param dcqcn=false --param ecn=false
run net spread --duration "100 ms" --from "20 ms" --param credit=true
run net spread --duration "100 ms" --from "20 ms" --param credit=true --param kmin="20 KB" --param kmax="100 KB"
for n in 2 4 8 16; do run net incast --senders $n --duration "300 ms" --from "100 ms" --window "50 ms" --tolerance 0.2; done
run net incast --senders 8 --duration "300 ms" --from "100 ms" --param mark_at=enqueue
run net incast --senders 8 --duration "300 ms" --from "100 ms" --param rate_increase_timer="55 us"
run net incast --senders 8 --duration "300 ms" --from "100 ms" --param byte_counter="2 MiB"
run net incast --senders 8 --duration "300 ms" --from "100 ms" --param dcqcn=false --param ecn=false
# Why the queue sits below Kmin: the additive increase, and the thresholds.
for ai in 10 20 40 80; do run net incast --senders 8 --duration "300 ms" --from "100 ms" --param ai="$ai Mb/s"; done
run net incast --senders 8 --duration "300 ms" --from "100 ms" --param kmin="40 KB" --param kmax="160 KB"

echo "## ECMP (RoCEv2) vs packet spraying (Ultra Ethernet)"
for pat in permutation incast; do for mode in ecmp spray; do for seed in 1 2 3; do
  run net multipath --pattern $pat --mode $mode --duration "100 ms" --from "20 ms" --seed $seed
done; done; done
run net multipath --senders 16 --spines 4 --uplink "400 Gb/s" --mode ecmp --duration "100 ms" --from "20 ms"
echo "## Ultra Ethernet NSCC against DCQCN"
run net incast --senders 8 --duration "300 ms" --from "100 ms" --param nscc=true
for pat in permutation incast; do for mode in ecmp spray; do for seed in 1 2 3; do
  run net multipath --pattern $pat --mode $mode --duration "100 ms" --from "20 ms" --seed $seed --param nscc=true
done; done; done
run net multipath --senders 16 --spines 4 --uplink "400 Gb/s" --mode spray --duration "100 ms" --from "20 ms"

echo "## Incast of 50 storage nodes (seed 003)"
run net incast --senders 50 --duration "100 ms" --from "50 ms" --param dcqcn=false --param ecn=false
run net incast --senders 50 --duration "100 ms" --from "50 ms" --param dcqcn=false --param ecn=false --param xoff="256 KB" --param xon="128 KB"
run net incast --senders 50 --duration "100 ms" --from "50 ms"
run net incast --senders 50 --duration "100 ms" --from "50 ms" --param xoff="256 KB" --param xon="128 KB"
