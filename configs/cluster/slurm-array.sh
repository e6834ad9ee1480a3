#!/usr/bin/env bash
# A pocketlab experiment as a Slurm job array: one shard per array task,
# all writing to one shared log directory. Submit with
#   sbatch --array=0-15 configs/cluster/slurm-array.sh configs/experiments/pmc-overnight.toml
# then, when every task has finished:
#   pocketlab report /shared/pocketlab/pmc-overnight/log
#SBATCH --job-name=pocketlab
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --time=08:00:00
#SBATCH --output=pocketlab-%A-%a.out
set -euo pipefail
experiment=${1:?usage: sbatch --array=0-N slurm-array.sh EXPERIMENT.toml [LOG_DIR]}
name=$(basename "$experiment" .toml)
log=${2:-/shared/pocketlab/$name/log}
count=${SLURM_ARRAY_TASK_COUNT:?run as a job array}
# A re-queued task resumes its own shard from the shared log.
exec pocketlab run "$experiment" \
  --shard "${SLURM_ARRAY_TASK_ID}/${count}" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --out "$log" --quiet
