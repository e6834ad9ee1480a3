#!/usr/bin/env bash
# Runs the shipped Slurm array (configs/cluster/slurm-array.sh, tasks 1-3:
# the shard is the place in the array, not the task id) on a
# one-node Slurm cluster started here, three tasks at once against one
# shared log directory, and checks that the union of the shards equals a
# single-process run of the same experiment, game for game (their PGN
# exports are compared byte for byte). Then the same for a study under the
# sequential-equivalence design, submitted by configs/cluster/slurm-stages.sh
# as one array of three tasks per stage chained with --dependency=afterok,
# and a final check-and-report job.
#
# By hand, as root on a Debian/Ubuntu machine (it installs slurm-wlm and
# munge if missing, and starts munged, slurmctld and slurmd, stopping the
# two Slurm daemons again at the end); not part of CI:
#   bash configs/cluster/test-slurm.sh [PATH/TO/pocketlab]
# Default binary: target/release/pocketlab (built if missing).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$repo/target/release/pocketlab}
if [ ! -x "$bin" ]; then
  (cd "$repo" && cargo build --release)
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tasks=3
work=$(mktemp -d /tmp/pocketlab-slurm.XXXXXX)
echo "work directory: $work"
# The job scripts call `pocketlab` from PATH, whatever the binary is named.
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/pocketlab"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge
fi

# munge authenticates Slurm's daemons and clients to each other.
if ! munge -n >/dev/null 2>&1; then
  [ -s /etc/munge/munge.key ] || mungekey --create
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge/munge.key
  runuser -u munge -- /usr/sbin/munged
  sleep 1
  munge -n >/dev/null
fi

host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
# One node offering one CPU per task, so the three tasks run at once.
cat >"$work/slurm.conf" <<EOF
ClusterName=pocketlab-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/backfill
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=$host CPUs=$tasks RealMemory=$((tasks * 1024)) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
ctld=$!
slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
node=$!
# Stop exactly the daemons started here.
trap 'kill $node $ctld 2>/dev/null || true; wait $node $ctld 2>/dev/null || true' EXIT
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 1
done
[ "$state" = idle ] || { echo "the node did not come up ($state); see $work/*.log" >&2; exit 1; }

# The shipped quick experiment, with more pairs so every shard has work.
experiment=$work/quick.toml
sed 's/^pairs = .*/pairs = 12/' "$repo/configs/experiments/quick.toml" >"$experiment"
shared=$work/shared/log
cmd=(sbatch --parsable --array=1-$tasks --cpus-per-task=1 --mem=1G
  --output="$work/task-%A-%a.out" --export=ALL,PATH="$work/bin:$PATH"
  "$repo/configs/cluster/slurm-array.sh" "$experiment" "$shared")
echo "submitting: ${cmd[*]}"
job=$(cd "$work" && "${cmd[@]}")

# Wait for the array, counting how many tasks ran at the same time.
most=0
for _ in $(seq 1800); do
  running=$(squeue -h -j "$job" -t RUNNING | wc -l)
  [ "$running" -gt "$most" ] && most=$running
  [ -z "$(squeue -h -j "$job")" ] && break
  sleep 0.2
done
failed=$(scontrol show job "$job" 2>/dev/null | grep -c 'ExitCode=[1-9]' || true)
cat "$work"/task-*.out
echo "tasks running at once: at most $most of $tasks"

"$bin" run "$experiment" --threads 1 --quiet --out "$work/single/log" >/dev/null
"$bin" check "$shared"
"$bin" pgn "$shared" --out "$work/shared.pgn"
"$bin" pgn "$work/single/log" --out "$work/single.pgn"
games=$(grep -c '^\[Event ' "$work/single.pgn")
shard_games=$(grep -c '^\[Event ' "$work/shared.pgn")
if [ "$failed" != 0 ] || [ "$most" -lt "$tasks" ]; then
  echo "FAIL: $failed task(s) failed, at most $most running at once" >&2
  exit 1
fi
if cmp -s "$work/single.pgn" "$work/shared.pgn"; then
  echo "OK: $tasks shards, $shard_games games, identical to the single run's $games games"
else
  echo "FAIL: the union of the shards ($shard_games games) differs from the single run ($games)" >&2
  exit 1
fi

# A sequential study in stages: the quick experiment with a pawn-odds
# calibration, a look every 4 pairs up to 12 (3 stages), three shards per stage.
staged=$work/staged.toml
sed -e '/^pairs = /d' -e 's/^\[stop\]$/[stop]\ndesign = "sequential-equivalence"\nmax_pairs = 12\nlook_every = 4/' \
  "$repo/configs/experiments/quick.toml" >"$staged"
printf '\n[[generators]]\nkind = "pawn-odds"\n' >>"$staged"
echo "submitting the stages: slurm-stages.sh $staged $work/staged/log $tasks"
chain=$(cd "$work" && PATH="$work/bin:$PATH" \
  SBATCH_OPTIONS="--cpus-per-task=1 --mem=1G --output=$work/stage-%x-%a.out" \
  bash "$repo/configs/cluster/slurm-stages.sh" "$staged" "$work/staged/log" "$tasks")
echo "$chain"
report_job=$(printf '%s\n' "$chain" | sed -n 's/^report: job //p')
for _ in $(seq 3600); do
  [ -z "$(squeue -h -j "$report_job" 2>/dev/null)" ] && break
  sleep 0.2
done
stage_failed=0
for job in $(printf '%s\n' "$chain" | sed -n 's/.*job\( array\)\{0,1\} \([0-9]*\)$/\2/p'); do
  n=$(scontrol show job "$job" 2>/dev/null | grep -c 'ExitCode=[1-9]' || true)
  stage_failed=$((stage_failed + n))
done
cat "$work"/stage-*.out
"$bin" run "$staged" --threads 1 --quiet --out "$work/staged-single/log" >/dev/null
"$bin" pgn "$work/staged/log" --out "$work/staged.pgn"
"$bin" pgn "$work/staged-single/log" --out "$work/staged-single.pgn"
staged_games=$(grep -c '^\[Event ' "$work/staged.pgn")
if [ "$stage_failed" != 0 ] || [ ! -s "$work/staged/report.md" ]; then
  echo "FAIL: $stage_failed staged job(s) failed, or the report job wrote no report" >&2
  exit 1
fi
if cmp -s "$work/staged.pgn" "$work/staged-single.pgn"; then
  echo "OK: stages of $tasks shards each, $staged_games games, identical to the single-process study; report written"
else
  echo "FAIL: the staged study differs from the single-process one" >&2
  exit 1
fi
