#!/bin/bash
# cpu-time.sh PASSES: CPU time per generated piece, Tessera and bitris, setup subtracted
# (perf stat task-clock counts only while this process runs: fair on a shared machine).
# Run from tools/bitris-compare after `cargo build --release`.
B=${CARGO_TARGET_DIR:-target}/release/bitris-compare; N=${1:-200}
c() { perf stat -x, -e task-clock "$B" cycles "$1" "$2" 2>&1 >/dev/null | grep task-clock | cut -d, -f1; }
base=$(c none 0)
for side in ours bitris; do
  v=$(c $side $N); python3 -c "print(\"$side\", round(($v - $base) * 1e6 / ($N * 1000), 1), \"ns/piece (CPU)\")"
done
