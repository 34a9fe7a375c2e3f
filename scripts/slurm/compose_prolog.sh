#!/usr/bin/env bash
# PrologSlurmctld hook: composes GPUs onto a job's nodes before it starts, when the job
# asks in its comment:
#   sbatch --comment=compose:gpus=2 job.sh            2 GPUs on each node of the job
#   sbatch --comment="compose:gpus=2,zone=zone1" ...  from that ResourceZone
# Each node's composition is squall-compose job "<job id>@<node>". If any node cannot be
# composed, whatever was composed for the job is freed and the hook fails, so Slurm does
# not start the job: a job that asks for more GPUs than the fabric has is cancelled; on
# any other failure (GPUs busy now, fabric errors) Slurm requeues and holds a batch job
# (slurm.conf(5), PrologSlurmctld), for `scontrol release` later.
# EpilogSlurmctld (compose_epilog.sh) frees again in any case.
#
# slurm.conf: PrologSlurmctld=/path/to/squall/scripts/slurm/compose_prolog.sh
# Settings come from /etc/squall/compose.conf (or SQUALL_COMPOSE_CONFIG; see
# `squall-compose --help`); messages go to SQUALL_COMPOSE_LOG
# (default /var/log/squall-compose.log). slurmctld runs hooks with a bare environment,
# so set those two in a wrapper script if not using the defaults.
set -u
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
compose=${SQUALL_COMPOSE:-$here/../compose/squall-compose}
log=${SQUALL_COMPOSE_LOG:-/var/log/squall-compose.log}
job=${SLURM_JOB_ID:?PrologSlurmctld runs with SLURM_JOB_ID set}
comment=${SLURM_JOB_COMMENT:-}

say() { echo "$(date '+%Y-%m-%dT%H:%M:%S') prolog job $job: $*" >> "$log"; }

[[ $comment =~ compose:gpus=([0-9]+)(,zone=([A-Za-z0-9_.:/-]+))? ]] || exit 0
gpus=${BASH_REMATCH[1]} zone=${BASH_REMATCH[3]:-}
nodelist=${SLURM_JOB_NODELIST:-}
if [[ $nodelist == *[* ]]; then  # a range such as node[01-04]
  nodes=$(scontrol show hostnames "$nodelist" 2>>"$log") || nodes=
else
  nodes=${nodelist//,/ }
fi
[ -n "$nodes" ] || { say "no nodes in SLURM_JOB_NODELIST='${SLURM_JOB_NODELIST:-}'"; exit 1; }
say "composing $gpus GPU(s) on $(echo $nodes)${zone:+ from zone $zone}"
for node in $nodes; do
  "$compose" compose --gpus "$gpus" --host "$node" ${zone:+--zone "$zone"} --job "$job@$node" >> "$log" 2>&1
  status=$?
  if [ $status != 0 ]; then
    say "composition on $node failed (status $status); freeing what the job holds"
    "$compose" free --job "$job" >> "$log" 2>&1 || say "free failed too: run squall-compose free --job $job"
    if [ $status = 6 ]; then
      say "cancelling the job: it asks for more GPUs than the fabric has"
      # Slurm kills this hook as the cancel lands. Should the hook get to exit first, it
      # succeeds: Slurm requeues a batch job whose PrologSlurmctld fails, and that
      # requeue after the cancel would undo it (seen on a busy controller: the job then
      # stayed pending). A cancelled job does not start.
      scancel "$job" >> "$log" 2>&1 && exit 0
    fi
    exit 1
  fi
done
say "composed"
exit 0
