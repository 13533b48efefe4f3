#!/usr/bin/env bash
# Runs the N shards of a command with GNU parallel over ssh, brings the
# partials back and merges them.
#
#   deploy/parallel/run.sh N HOSTS -- tessera solve --count levels/polycube/bedlam.ron
#   deploy/parallel/run.sh 8 host1,host2 -- tessera sim azul --seats ai:hard,ai:expert --games 1000
#
# HOSTS: comma-separated ssh logins (`:` is this machine, `4/host` runs four
# shards at once there), or @FILE for a file of them, one per line. Each
# host needs `tessera` on its PATH and the project in the same folder as
# here (REMOTE_DIR, default: this folder's path). The partials land in
# PARTIALS (default: partials/), one file per shard.
set -euo pipefail
if [ $# -lt 4 ] || [ "$3" != "--" ]; then
  echo "usage: $0 N HOSTS -- COMMAND..." >&2
  exit 2
fi
shards=$1
hosts=$2
shift 3
partials=${PARTIALS:-partials}
remote_dir=${REMOTE_DIR:-$PWD}
mkdir -p "$partials"
if [[ $hosts == @* ]]; then
  login=(--sshloginfile "${hosts#@}")
else
  login=(--sshlogin "$hosts")
fi
# One job per shard; each host runs one shard at a time unless its login
# says otherwise (every shard already uses all of a machine's cores).
# --return copies each partial back; --cleanup removes the remote copy.
command=$(printf '%q ' "$@")
seq 1 "$shards" | parallel "${login[@]}" --jobs 1 --halt now,fail=1 \
  --workdir "$remote_dir" --return "$partials/shard-{}-of-$shards.json" --cleanup \
  "mkdir -p $partials && $command --shard {}/$shards > $partials/shard-{}-of-$shards.json"
files=()
for i in $(seq 1 "$shards"); do
  files+=("$partials/shard-$i-of-$shards.json")
done
tessera merge "${files[@]}"
