#!/bin/sh
# Submit a fleet analysis to Slurm: a job array of N 'batch --shard' tasks
# over the inputs, and the merge once every task has succeeded. Prints the
# two job ids. OUTDIR and the inputs must be on a file system all nodes
# share; give absolute paths. Options for sbatch go in SBATCH_* variables
# (SBATCH_PARTITION, SBATCH_TIMELIMIT, ...) and the task's cores in
# CPUS (default 2).
#   examples/fleet/submit.sh N OUTDIR INPUT...
set -eu
[ $# -ge 3 ] || { echo "usage: $0 N OUTDIR INPUT..." >&2; exit 2; }
n=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
array=$(sbatch --parsable --array=0-$((n - 1)) --cpus-per-task="${CPUS:-2}" \
	--output="$out/slurm-batch-%A_%a.out" "$here/batch.sbatch" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --output="$out/slurm-merge-%j.out" \
	"$here/merge.sbatch" "$out" "$n")
echo "$array ${merge%%;*}"
