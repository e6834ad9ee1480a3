#!/usr/bin/env bash
# A pocketlab experiment as a Slurm job array: one shard per array task,
# all writing to one shared log directory. Submit with
#   sbatch --array=0-15 configs/cluster/slurm-array.sh configs/experiments/engine-doubling.toml
# (any contiguous range works: --array=1-16 too; the shard count is the
# number of tasks), then, when every task has finished:
#   pocketlab check /shared/pocketlab/engine-doubling/log
#   pocketlab report /shared/pocketlab/engine-doubling/log
# A study under the sequential-equivalence design (pmc-overnight.toml,
# pmc-study-tuned-2.toml, default.toml) runs in stages, each planned from the
# log of the ones before: the third argument is the stage this array
# plays, and configs/cluster/slurm-stages.sh submits one array per stage,
# each waiting for the previous one (--dependency=afterok).
# `pocketlab` must be on the PATH of the compute nodes (sbatch exports the
# submitting shell's PATH by default). Tested on a one-node cluster by
# configs/cluster/test-slurm.sh.
#SBATCH --job-name=pocketlab
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --time=08:00:00
#SBATCH --output=pocketlab-%A-%a.out
set -euo pipefail
experiment=${1:?usage: sbatch --array=0-N slurm-array.sh EXPERIMENT.toml [LOG_DIR] [STAGE]}
name=$(basename "$experiment" .toml)
log=${2:-/shared/pocketlab/$name/log}
stage=()
if [ -n "${3:-}" ]; then
  stage=(--stage "$3")
fi
: "${SLURM_ARRAY_TASK_ID:?run as a job array (sbatch --array=0-N)}"
# The shard is the task's place in the array, whatever the first index.
if [ "${SLURM_ARRAY_TASK_STEP:-1}" != 1 ]; then
  echo "slurm-array.sh: use a contiguous array (no :step)" >&2
  exit 2
fi
index=$((SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN))
count=$((SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1))
# The engines' hash tables may use three quarters of the task's memory.
budget=()
if [ -n "${SLURM_MEM_PER_NODE:-}" ]; then
  budget=(--max-memory-mb $((SLURM_MEM_PER_NODE * 3 / 4)))
fi
echo "task ${SLURM_ARRAY_TASK_ID} on $(hostname): shard ${index}/${count}${3:+, stage $3}, log ${log}"
# A re-queued task resumes its own shard from the shared log; a second copy
# of a running task is refused by the shard's lock (its error names the
# holder's host and pid). A stage whose predecessor is incomplete is
# refused (naming it); a stage past the end of the study does nothing.
exec pocketlab run "$experiment" \
  --shard "${index}/${count}" \
  "${stage[@]}" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" \
  "${budget[@]}" \
  --out "$log" --quiet
