#!/usr/bin/env bash
# ctest Sweep.slurm_array_shards_merge_to_the_unsharded_run: a single-node Slurm cluster from Debian's
# packages (slurmctld, slurmd, sbatch and munge, installed here when missing), started and stopped by this
# test in a folder of its own (its own munge key and socket, ports, state); an array job of 3 tasks where task
# I runs `tile-doctor check examples --shard I+1/3 --db shard-I.sqlite`; `history merge` of the shards; the
# merged findings (input, identity, kind, place, count) must equal one unsharded run's. Skipped (77) only when
# the packages cannot be installed (not root and no sudo, or no package source).
#   slurm_sweep_test.sh TILE_DOCTOR_BINARY
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin=$(realpath "$1")
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
   ! command -v munged >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
         --no-install-recommends slurmctld slurmd slurm-client munge; } >/dev/null 2>&1; then
    echo "SKIP: Slurm (slurmctld, slurmd, slurm-client, munge) is not installed and could not be installed here"
    exit 77
  fi
fi
if [ "$(id -u)" -ne 0 ]; then echo "SKIP: slurmd runs jobs as their user only when started as root"; exit 77; fi
work=$(mktemp -d /tmp/td-slurm-XXXXXX)
chmod 755 "$work"
cleanup() {
  [ -n "${ctld:-}" ] && kill "$ctld" 2>/dev/null
  [ -n "${node:-}" ] && kill "$node" 2>/dev/null
  [ -f "$work/munged.pid" ] && kill "$(cat "$work/munged.pid")" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for log in slurmctld slurmd munged; do [ -f "$work/$log.log" ] && { echo "--- $log.log"; tail -n 15 "$work/$log.log"; }; done
  exit 1
}
# munge: a key and a socket of this test's own, so that a munge the machine runs is left alone
mkdir -p "$work/munge" && chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1 count=1024 status=none && chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/seed" || fail "munged did not start"
host=$(hostname -s)
port=$(( 20000 + RANDOM % 20000 ))
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<CONF
ClusterName=tdtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=sweep Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >/dev/null 2>&1 & ctld=$!
slurmd -D -f "$SLURM_CONF" >/dev/null 2>&1 & node=$!
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -qE "idle|mix" && break
  sleep 1
done
sinfo -h -o %t 2>/dev/null | grep -qE "idle|mix" || fail "the node did not come up (sinfo: $(sinfo 2>&1 | tail -n 2))"
echo "cluster up: $(sinfo -h -o '%P %D %t %c')"
# The sweep: every bundle under examples/, three shards, each task its own history.
cd "$root"
sbatch --wait --array=0-2 --output="$work/task-%a.out" --chdir="$root" --wrap \
  "$bin check examples --shard \$((SLURM_ARRAY_TASK_ID + 1))/3 --db $work/shard-\$SLURM_ARRAY_TASK_ID.sqlite --format json --out $work/shard-\$SLURM_ARRAY_TASK_ID.json" \
  > "$work/sbatch.txt" 2>&1
echo "array job: $(head -n 1 "$work/sbatch.txt")"  # exit 1 of a task (findings) is expected: the histories say
for i in 0 1 2; do [ -s "$work/shard-$i.sqlite" ] || fail "task $i wrote no history ($(cat "$work/task-$i.out" 2>/dev/null | tail -n 3))"; done
"$bin" history merge --db "$work/merged.sqlite" "$work"/shard-{0,1,2}.sqlite || fail "history merge"
"$bin" check examples --db "$work/whole.sqlite" --format json --out "$work/whole.json"
[ $? -le 1 ] || fail "the unsharded run stopped"
python3 - "$work/merged.sqlite" "$work/whole.sqlite" <<'PY' || fail "the merged findings differ from the unsharded run's"
import collections, sqlite3, sys
def findings(path):
    db = sqlite3.connect(path)
    return collections.Counter(db.execute("SELECT input, finding_id, kind, place, count FROM findings").fetchall()), \
        db.execute("SELECT COUNT(*) FROM runs").fetchone()[0], db.execute("SELECT COUNT(*) FROM checks").fetchone()[0]
merged, merged_runs, merged_checks = findings(sys.argv[1])
whole, whole_runs, whole_checks = findings(sys.argv[2])
print(f"merged: {merged_runs} runs, {merged_checks} checks, {sum(merged.values())} findings; "
      f"unsharded: {whole_runs} run, {whole_checks} checks, {sum(whole.values())} findings")
if merged != whole or merged_checks != whole_checks or merged_runs != 3 or not whole:
    print("only merged:", merged - whole, "only unsharded:", whole - merged)
    sys.exit(1)
PY
echo PASS
