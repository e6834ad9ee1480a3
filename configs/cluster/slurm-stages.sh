#!/usr/bin/env bash
# A study under the sequential-equivalence design on Slurm: one job array
# per stage (configs/cluster/slurm-array.sh with the stage as its third
# argument), each waiting for the whole previous array to succeed
# (--dependency=afterok), then a job that checks the log and writes the
# report. Run it on the login node:
#   bash configs/cluster/slurm-stages.sh configs/experiments/pmc-overnight.toml [LOG_DIR] [TASKS]
# Each stage is planned by its tasks from the log of the stages before it,
# so the chain is submitted at once: the stages after the study ends (every
# pair decided, or at its cap) find nothing to play and finish at once.
# A failed stage cancels the rest (--kill-on-invalid-dep); fix the cause and
# submit the chain again: finished stages are skipped, an interrupted one
# resumes. Extra sbatch options (partition, account, time) go in
# SBATCH_OPTIONS, e.g. SBATCH_OPTIONS="--partition=long --time=02:00:00".
# `pocketlab` must be on the PATH here and on the compute nodes.
set -euo pipefail
experiment=${1:?usage: slurm-stages.sh EXPERIMENT.toml [LOG_DIR] [TASKS]}
name=$(basename "$experiment" .toml)
log=${2:-/shared/pocketlab/$name/log}
tasks=${3:-16}
here=$(cd "$(dirname "$0")" && pwd)
read -r -a options <<<"${SBATCH_OPTIONS:-}"
# The number of stages is the last line of `pocketlab stages`.
stages=$(pocketlab stages "$experiment" | tail -n 1)
previous=
for stage in $(seq 1 "$stages"); do
  after=()
  if [ -n "$previous" ]; then
    after=(--dependency="afterok:$previous" --kill-on-invalid-dep=yes)
  fi
  previous=$(sbatch --parsable --array="0-$((tasks - 1))" --job-name="pocketlab-$name-$stage" \
    "${after[@]}" "${options[@]}" "$here/slurm-array.sh" "$experiment" "$log" "$stage")
  previous=${previous%%;*}
  echo "stage $stage of $stages: job array $previous"
done
report=$(sbatch --parsable --dependency="afterok:$previous" --kill-on-invalid-dep=yes \
  --job-name="pocketlab-$name-report" --cpus-per-task=1 --mem=2G "${options[@]}" \
  --wrap "pocketlab check '$log' && pocketlab report '$log'")
echo "report: job ${report%%;*}"
