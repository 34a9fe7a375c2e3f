#!/usr/bin/env bash
# EpilogSlurmctld hook: frees the GPUs compose_prolog.sh composed for a job. Runs after
# every job, however it ended (completed, failed, cancelled, or its prolog failed), and
# always exits 0 so that Slurm never drains a node for it; a free that fails is logged
# with the command to finish it. Settings and log as for compose_prolog.sh.
#
# slurm.conf: EpilogSlurmctld=/path/to/squall/scripts/slurm/compose_epilog.sh
set -u
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
compose=${SQUALL_COMPOSE:-$here/../compose/squall-compose}
log=${SQUALL_COMPOSE_LOG:-/var/log/squall-compose.log}
job=${SLURM_JOB_ID:-}
[ -n "$job" ] || exit 0
say() { echo "$(date '+%Y-%m-%dT%H:%M:%S') epilog job $job: $*" >> "$log" 2>/dev/null; }

# A job that asked for GPUs is freed in full (also systems found by name); any other
# only if squall-compose holds state for it (no fabric calls otherwise).
scope=--only-recorded
[[ ${SLURM_JOB_COMMENT:-} =~ compose:gpus= ]] && scope=
if "$compose" free --job "$job" $scope >> "$log" 2>&1; then
  [ -z "$scope" ] && say "freed"
else
  say "free failed (status $?): finish it with squall-compose free --job $job"
fi
exit 0
