set terminal svg size 1100,560 dynamic background rgb 'white'
set output 'reports/calibration/gpu-machine/third-h200-vm/validation-threads1/validation.svg'
set title 'third-h200-vm reads and writes: fit on one thread, predict two: measured (median, min-max of repeats) vs simulated throughput (writes: until durable)'
set ylabel 'GB/s'
set logscale y
set grid ytics
set key top left
set xtics rotate by 60 right font ',8'
set bmargin 14
plot 'reports/calibration/gpu-machine/third-h200-vm/validation-threads1/validation-chart.dat' using 1:2:3:4:xtic(7) with yerrorbars pt 7 lc rgb '#1f77b4' title 'measured', \
     '' using 1:($6==0?$5:1/0) with points pt 5 ps 1.2 lc rgb '#d62728' title 'simulated, held out', \
     '' using 1:($6==1?$5:1/0) with points pt 4 ps 1.2 lc rgb '#2ca02c' title 'simulated, fitted'
