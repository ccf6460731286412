#!/bin/sh
# Fleet analysis on a real Slurm cluster (issue 23): a single-node cluster
# on this machine (Debian's slurmctld, slurmd and munge, configured for
# localhost in a temporary directory, started here and stopped by the
# trap) runs examples/fleet/submit.sh: a job array of 'batch --shard' and
# the merge after it. Each per-trace report must equal a local batch's of
# the same inputs, the joined manifest the local one (timing fields
# aside), and the merged fleet report a local merge.
# Needs root (slurmd starts the jobs) and the packages 'make deps'
# installs; skipped, saying which, without them — except where
# BT_REQUIRE_SLURM=1 (CI sets it): there a cluster that cannot start fails.
. tests/lib.sh

PATH=$PATH:/usr/sbin:/sbin   # the daemons live there; a root shell may not have it
skip() {
	[ "${BT_REQUIRE_SLURM:-0}" = 1 ] && { echo "not ok - Slurm required (BT_REQUIRE_SLURM=1): $1"; exit 0; }
	echo "ok - # SKIP $1"
	exit 0
}
for p in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
	command -v $p >/dev/null 2>&1 || skip "no $p (apt-get install slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd needs root to start jobs"

C=$T/cluster
mkdir -p "$C/state" "$C/spool" "$C/munge"
chmod 755 "$C" "$C/munge"   # munged wants its socket's directory reachable
# ports of our own, so that another cluster on the machine is left alone
port=$((20000 + $$ % 20000))
host=$(hostname -s)

stop() {
	SLURM_CONF=$C/slurm.conf scontrol shutdown >/dev/null 2>&1
	for f in "$C/slurmctld.pid" "$C/slurmd.pid" "$C/munge/pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	sleep 0.5
	for f in "$C/slurmctld.pid" "$C/slurmd.pid" "$C/munge/pid"; do
		[ -f "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$T"
}
trap stop EXIT

dd if=/dev/urandom of="$C/munge/key" bs=1024 count=1 status=none
chmod 400 "$C/munge/key"
munged --force --key-file="$C/munge/key" --socket="$C/munge/sock" --pid-file="$C/munge/pid" \
	--log-file="$C/munge/log" --seed-file="$C/munge/seed" ||
	skip "munged does not start here: $(tail -1 "$C/munge/log" 2>/dev/null)"

cat >"$C/slurm.conf" <<EOF
ClusterName=bttest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$C/munge/sock
CredType=cred/munge
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/slurmctld.log
SlurmdLogFile=$C/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=fleet Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
SLURM_CONF=$C/slurm.conf
export SLURM_CONF
slurmctld -i -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" ||
	skip "the Slurm daemons do not start here: $(tail -2 "$C/slurmctld.log" "$C/slurmd.log" 2>/dev/null)"
state=
for _ in $(seq 150); do
	state=$(sinfo -h -o %T 2>/dev/null)
	[ "$state" = idle ] && break
	sleep 0.2
done
is "$state" idle "a single-node cluster is up"

in=$T/in
for s in 1 2 3 4 5 6; do "$MKDUMP" --records 1500 --seed $s --no-truth "$in/d$s" >/dev/null; done
head -c 20 "$in/d1/sampling.bin" >"$in/cut.bin"
out=$T/slurm

ids=$(BTRACE_ANALYZE=$BIN CPUS=1 sh examples/fleet/submit.sh 3 "$out" "$in")
like "$ids" "^[0-9]+ [0-9]+$" "submit.sh submits the array and the merge"
array=${ids% *}
merge=${ids#* }
left=x
for _ in $(seq 600); do
	left=$(squeue -h -o %i 2>/dev/null)
	[ -z "$left" ] && break
	sleep 0.2
done
is "$left" "" "every job ended"
for t in 0 1 2; do
	like "$(scontrol show job "${array}_$t" 2>/dev/null)" "JobState=COMPLETED" "array task $t completed"
done
like "$(scontrol show job "$merge" 2>/dev/null)" "JobState=COMPLETED" "the merge ran after them and completed"
is "$(ls "$out"/manifest-*-of-3.jsonl | wc -l)" 3 "three shard manifests"

"$BIN" batch -q "$in" -o "$T/local" 2>/dev/null
is "$?" 4 "a local batch of the same inputs (one trace broken)"
is "$(ls "$out/reports" | tr '\n' ' ')" "$(ls "$T/local/reports" | tr '\n' ' ')" "the same reports"
ok=1
for f in "$T"/local/reports/*.json; do cmp -s "$f" "$out/reports/${f##*/}" || ok=0; done
is "$ok" 1 "each report equal to the local batch's"
strip() {   # manifest: its lines without timing, in path order
	python3 -c '
import json, sys
for x in sorted((json.loads(l) for l in open(sys.argv[1])), key=lambda x: x["path"]):
    x.pop("seconds"); x.pop("peak_rss_kb")
    print(json.dumps(x, sort_keys=True))' "$1"
}
is "$(strip "$out/manifest.jsonl")" "$(strip "$T/local/manifest.jsonl")" \
	"the joined manifest equals the local one but for timing"
like "$(grep -h 'failed' "$out"/slurm-batch-*.out)" "some traces of shard [0-2]/3 failed" \
	"the failed trace is told in its task's output, not failing the task"
if "$BIN" help merge >/dev/null 2>&1; then
	"$BIN" merge -q "$T/local/reports" -o "$T/local/fleet.json"
	check "the merged fleet report equals a local batch + merge" cmp "$out/fleet.json" "$T/local/fleet.json"
else
	echo "ok - # SKIP no merge command in this build: the reduce only joined the manifests"
fi
