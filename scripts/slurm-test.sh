#!/usr/bin/env bash
# The workflow (workflow/Snakefile) on a real scheduler: starts a one-node Slurm cluster on this
# machine, runs a small target through `snakemake --executor slurm` (the databases up to four
# pieces, a two-shard self-play labelled by them, a one-epoch training and a two-game gating
# match), checks with `sacct` that every job ran as a Slurm job, compares every file with a local
# run (`snakemake -j 2`) byte for byte, and stops every daemon it started (on any exit).
#
# Needs root (the daemons) and Debian's packages slurm-wlm and munge, which it installs with
# apt-get when they are missing. Run from anywhere: bash scripts/slurm-test.sh
# Environment:
#   BIN=PATH    the checkers binary (default: target/release/checkers, built when missing)
#   VENV=DIR    the workflow's virtual environment (default: target/workflow-venv, made from
#               workflow/requirements.txt when missing)
#   KEEP=DIR    keep the cluster's files and both runs' outputs in DIR (default: a temporary
#               folder, removed at the end)
#
# The cluster: munged with a key of its own, slurmctld and slurmd as root, every file under the
# work folder, the node's cores and memory from `slurmd -C`. No slurmdbd: job accounting comes
# from the job completion log (JobCompType=jobcomp/filetxt), which `sacct -c` reads, and the
# executor asks `squeue` for the jobs' states (completed jobs stay listed for MinJobAge).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
started=$(date +%s)

if [ "$(id -u)" != 0 ]; then
    echo "slurm-test: run as root (it starts munged, slurmctld and slurmd)" >&2
    exit 2
fi
missing=()
command -v slurmctld >/dev/null || missing+=(slurm-wlm)
command -v munged >/dev/null || missing+=(munge)
if [ ${#missing[@]} -gt 0 ]; then
    echo "slurm-test: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

bin=${BIN:-$repo/target/release/checkers}
if [ ! -x "$bin" ]; then
    cargo build --release -q
fi
venv=${VENV:-$repo/target/workflow-venv}
if [ ! -x "$venv/bin/snakemake" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r workflow/requirements.txt
fi

if [ -n "${KEEP:-}" ]; then
    work=$KEEP
    rm -rf "$work"
    mkdir -p "$work"
else
    work=$(mktemp -d /tmp/checkers-slurm-test.XXXXXX)
fi
cluster=$work/cluster
mkdir -p "$cluster"/{state,spool,log,munge}
chmod 700 "$cluster/munge"

# Every daemon started is stopped on exit, whatever happened: by its pid file, then waited for.
pids=()
stop_daemons() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$pid" 2>/dev/null || true
    done
}
linked=0
cleanup() {
    local rc=$?
    stop_daemons
    if [ "$linked" = 1 ]; then
        rm -f /etc/slurm/slurm.conf
    fi
    if [ -z "${KEEP:-}" ]; then
        rm -rf "$work"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for_file() {
    for _ in $(seq 1 100); do
        [ -s "$1" ] && return 0
        sleep 0.1
    done
    echo "slurm-test: $1 did not appear" >&2
    return 1
}

# munge: a key of its own, its own socket.
dd if=/dev/urandom of="$cluster/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$cluster/munge/munge.key"
munged --force --key-file="$cluster/munge/munge.key" --socket="$cluster/munge/socket" \
    --pid-file="$cluster/munge/munged.pid" --log-file="$cluster/munge/munged.log" \
    --seed-file="$cluster/munge/seed"
wait_for_file "$cluster/munge/munged.pid"
pids+=("$(cat "$cluster/munge/munged.pid")")

host=$(hostname -s)
node=$(slurmd -C | head -1 | sed 's/ UpTime=.*//')
cat >"$cluster/slurm.conf" <<EOF
ClusterName=checkers-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$cluster/munge/socket
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$cluster/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MinJobAge=3600
ReturnToService=2
MpiDefault=none
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=checkers Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
# The job step inside each job (snakemake-executor-plugin-slurm-jobstep) runs `srun` without the
# job's SLURM_* variables, SLURM_CONF included, so the configuration must be at its default path
# for the time of the test: a link to the generated one, removed on exit. A machine that already
# has one is a real cluster's, which this script does not touch.
if [ -e /etc/slurm/slurm.conf ] || [ -L /etc/slurm/slurm.conf ]; then
    echo "slurm-test: /etc/slurm/slurm.conf exists (a configured Slurm); not touching it" >&2
    exit 2
fi
mkdir -p /etc/slurm
ln -s "$cluster/slurm.conf" /etc/slurm/slurm.conf
linked=1
export SLURM_CONF=$cluster/slurm.conf
slurmctld -f "$SLURM_CONF"
wait_for_file "$cluster/slurmctld.pid"
pids+=("$(cat "$cluster/slurmctld.pid")")
slurmd -f "$SLURM_CONF"
wait_for_file "$cluster/slurmd.pid"
pids+=("$(cat "$cluster/slurmd.pid")")
for _ in $(seq 1 100); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && break
    sleep 0.2
done
sinfo -h -o %t | grep -q idle || { echo "slurm-test: the node is not idle" >&2; sinfo >&2; exit 1; }
echo "slurm-test: cluster up ($node)"

# The small target's settings, over workflow/config.yaml.
cat >"$work/test.yaml" <<EOF
egdb_pieces: 4
selfplay:
  games: 8
  chunk_games: 4
  player: engine:nodes=300
  egdb_pieces: 4
train:
  epochs: 1
gate:
  games: 2
  player: engine:nodes=300
  jobs: 1
EOF
# The targets first: options such as --default-resources take every word after them.
snakemake() {
    "$venv/bin/snakemake" egdb training -s "$repo/workflow/Snakefile" \
        --configfile "$work/test.yaml" --config checkers="$bin" --quiet rules "$@"
}

t0=$(date +%s)
snakemake --directory "$work/local" -j 2 >"$work/local.log" 2>&1 ||
    { cat "$work/local.log" >&2; exit 1; }
t1=$(date +%s)
echo "slurm-test: local run $((t1 - t0)) s"

before=$({ sacct -c -X --noheader --parsable2 --format=JobID 2>/dev/null || true; } | wc -l)
snakemake --directory "$work/slurm" --executor slurm -j 8 --slurm-status-command squeue \
    --slurm-init-seconds-before-status-checks 2 --slurm-no-account \
    --default-resources slurm_partition=checkers >"$work/slurm.log" 2>&1 ||
    { cat "$work/slurm.log" >&2; exit 1; }
t2=$(date +%s)
echo "slurm-test: Slurm run $((t2 - t1)) s"

# Every job of the Slurm run is in the job completion log, completed, on this node.
jobs=$(($("$bin" egdb classes --pieces 4 | wc -l) + 2 + 1 + 1))
mapfile -t lines < <(sacct -c -X --noheader --parsable2 --format=JobID,JobName,State,ExitCode,NodeList | tail -n +$((before + 1)))
printf '  %s\n' "${lines[@]}" | head -3
echo "  ... (${#lines[@]} jobs)"
completed=$(printf '%s\n' "${lines[@]}" | grep -c "|COMPLETED|0:0|$host\$" || true)
if [ "${#lines[@]}" != "$jobs" ] || [ "$completed" != "$jobs" ]; then
    echo "slurm-test: sacct lists ${#lines[@]} jobs, $completed completed; $jobs expected" >&2
    printf '%s\n' "${lines[@]}" >&2
    exit 1
fi

# The same files, byte for byte.
compared=0
while IFS= read -r -d '' file; do
    rel=${file#"$work/local/"}
    cmp "$file" "$work/slurm/$rel"
    compared=$((compared + 1))
done < <(find "$work/local/results" -type f \( -name '*.egdb' -o -name '*.ckd' -o -name '*.ckw' -o -name 'gate.txt' \) -print0)
[ "$(find "$work/slurm/results" -type f \( -name '*.egdb' -o -name '*.ckd' -o -name '*.ckw' -o -name 'gate.txt' \) | wc -l)" = "$compared" ] ||
    { echo "slurm-test: the two runs wrote different sets of files" >&2; exit 1; }
echo "slurm-test: $jobs Slurm jobs completed (sacct), $compared files the same as the local run's"
echo "slurm-test: passed in $(($(date +%s) - started)) s"
