#!/usr/bin/env bash
# A study under the sequential-equivalence design on Kubernetes: one
# Indexed Job per stage (configs/cluster/k8s-indexed-job.yaml with the stage
# filled in), each started when the previous one has completed, since each
# stage is planned from the log of the stages before it. Stages after the
# study ends find nothing to play and complete at once. A stage that fails
# stops the chain; run the script again: complete stages finish at once, an
# interrupted one resumes.
#   bash configs/cluster/k8s-stages.sh [JOB_TEMPLATE] [STAGES]
# STAGES defaults to the experiment's number of stages (`pocketlab stages`
# on configs/experiments/pmc-overnight.toml, the file the template runs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
template=${1:-$here/k8s-indexed-job.yaml}
stages=${2:-$(pocketlab stages "$here/../experiments/pmc-overnight.toml" | tail -n 1)}
for stage in $(seq 1 "$stages"); do
  manifest=$(sed "s/__STAGE__/$stage/g" "$template")
  name=$(printf '%s\n' "$manifest" | sed -n 's/^  name: //p' | head -n 1)
  printf '%s\n' "$manifest" | kubectl apply -f -
  echo "stage $stage of $stages: job $name"
  # Complete, or failed (then stop: the next stage must not start).
  until kubectl wait --for=condition=complete --timeout=60s "job/$name" >/dev/null 2>&1; do
    if kubectl wait --for=condition=failed --timeout=1s "job/$name" >/dev/null 2>&1; then
      echo "stage $stage failed: kubectl describe job/$name" >&2
      exit 1
    fi
  done
done
echo "the study's stages are done: pocketlab check and pocketlab report on the volume"
