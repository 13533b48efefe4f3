#!/usr/bin/env bash
# Queues N shards as a Slurm job array and a merge job that runs when every
# shard succeeded; the merged result lands in partials/merged.txt.
#
#   deploy/slurm/submit.sh 16 tessera solve --count levels/polycube/bedlam.ron
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 N COMMAND..." >&2
  exit 2
fi
shards=$1
shift
mkdir -p partials
here=$(dirname "$0")
array=$(sbatch --parsable --array="1-$shards" \
  --export=ALL,SHARDS="$shards",CMD="$*" "$here/count.sbatch")
sbatch --dependency="afterok:$array" --job-name=tessera-merge \
  --output=partials/merged.txt \
  --wrap="tessera merge $(for i in $(seq 1 "$shards"); do printf 'partials/shard-%s-of-%s.json ' "$i" "$shards"; done)"
echo "queued $shards shards as job $array; the merge follows it"
