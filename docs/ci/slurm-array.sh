#!/usr/bin/env bash
# racegate explore split over a Slurm job array: task I runs shard I/N
# (SLURM_ARRAY_TASK_ID) and writes its report to a shared folder; a second
# job, after the array, merges them:
#
#   jid=$(sbatch --parsable slurm-array.sh)
#   sbatch --dependency=afterany:$jid --wrap \
#     "racegate explore --merge shards/shard-*.json -o repro.yaml -- ./lost_update"
#
# Run from the folder of the program (build/examples/lost_update), with
# racegate on PATH.  N is the array's size: keep --array=0-(N-1) and
# SHARDS alike.
#SBATCH --job-name=racegate-explore
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=shards/shard-%a.out
set -u
SHARDS=${SLURM_ARRAY_TASK_COUNT:-4}
i=${SLURM_ARRAY_TASK_ID:?run this under sbatch (a job array)}
mkdir -p shards
racegate explore --at lost_update.c --strategy dfs --delays 2 \
	--shard "$i/$SHARDS" --report "shards/shard-$i.json" -- ./lost_update
rc=$?
# exit 1 (a failure found) is the merge's to report
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]
