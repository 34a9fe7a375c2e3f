#!/usr/bin/env bash
# slurm_cluster.sh start|stop DIR [PROLOG EPILOG]
# A single-node Slurm on localhost for tests: munged, slurmctld and slurmd started by
# hand (no systemd) with everything under DIR (config, spool, state, logs, pid files),
# proctrack/linuxproc and task/none. Needs root. `stop` ends exactly the processes
# whose PIDs `start` recorded in DIR/pids. PROLOG and EPILOG become PrologSlurmctld and
# EpilogSlurmctld.
set -euo pipefail
action=$1 dir=$(mkdir -p "$2" && cd "$2" && pwd)
pids="$dir/pids"

stop() {
  [ -f "$pids" ] || return 0
  while read -r name pid; do
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done < <(tac "$pids")
  rm -f "$pids"
}

wait_for_pid_file() {  # FILE NAME
  for _ in $(seq 100); do
    [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null && { echo "$2 $(cat "$1")" >> "$pids"; return 0; }
    sleep 0.1
  done
  echo "slurm_cluster.sh: $2 did not start; its log:" >&2
  cat "$dir/$2.log" >&2 2>/dev/null || true
  return 1
}

case $action in
start)
  prolog=${3:-} epilog=${4:-}
  [ "$(id -u)" = 0 ] || { echo "slurm_cluster.sh: needs root (munged and slurmd)" >&2; exit 77; }
  for exe in munged slurmctld slurmd sinfo; do
    command -v "$exe" >/dev/null || [ -x "/usr/sbin/$exe" ] || { echo "slurm_cluster.sh: $exe missing (apt-get install slurmctld slurmd slurm-client munge)" >&2; exit 77; }
  done
  stop
  mkdir -p "$dir/munge" "$dir/spool" "$dir/state" "$dir/run"
  chmod 700 "$dir/munge"
  [ -f "$dir/munge/munge.key" ] || { dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none; chmod 400 "$dir/munge/munge.key"; }
  /usr/sbin/munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed"
  wait_for_pid_file "$dir/munge/munged.pid" munged
  host=$(hostname -s)
  cpus=$(nproc)
  # Two ports below Linux's ephemeral range (32768-60999), where no outgoing connection
  # can hold them, and not listened on (one test's ports once collided with a port in use).
  listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
  for _ in $(seq 50); do
    port0=$((20000 + RANDOM % 12000))
    listening "$port0" || listening $((port0 + 1)) || break
  done
  cat > "$dir/slurm.conf" <<CONF
ClusterName=squalltest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port0
SlurmdPort=$((port0 + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
KillWait=5
MinJobAge=600
SlurmctldParameters=enable_configless
${prolog:+PrologSlurmctld=$prolog}
${epilog:+EpilogSlurmctld=$epilog}
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"
  /usr/sbin/slurmctld -i -f "$dir/slurm.conf"
  wait_for_pid_file "$dir/run/slurmctld.pid" slurmctld
  /usr/sbin/slurmd -f "$dir/slurm.conf"
  wait_for_pid_file "$dir/run/slurmd.pid" slurmd
  for _ in $(seq 100); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    case $state in idle*|mixed*|alloc*) echo "slurm_cluster.sh: node $host $state (SLURM_CONF=$dir/slurm.conf)"; exit 0 ;; esac
    sleep 0.2
  done
  echo "slurm_cluster.sh: the node did not come up (state '$state'); logs:" >&2
  tail -20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  stop
  exit 1
  ;;
stop) stop ;;
*) echo "usage: slurm_cluster.sh start|stop DIR [PROLOG EPILOG]" >&2; exit 2 ;;
esac
