#!/bin/bash
# test-slurm.sh: `ipclab run --slurm PARTITION` end to end on a one-node
# Slurm of our own.
#
# munged with a throw-away key and its own socket, slurmctld and slurmd
# from a generated slurm.conf (ProctrackType=proctrack/linuxproc,
# TaskPlugin=task/none, ports of their own, StateSaveLocation and
# SlurmdSpoolDir in the temp dir, NodeName this host's short name with its
# CPUs and memory), all started here and stopped at exit.  Then a 2-task
# array (two experiment files), its job script kept and quoted, the results
# merged with the node as machine; a task that fails is named, and --resume
# submits only that one.  Skips with the reason where the packages are
# missing; a daemon that starts and dies is a failure, with its log (a
# port someone else holds: other ports are tried first).  Every wait is for
# an event: the socket, the node idle, or the daemon gone.
set -u
cd "$(dirname "$0")/../.."
ipclab=$PWD/harness/ipclab
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ipclab-test-slurm.XXXXXX")
pids=()
cleanup() {
        for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
        for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
        [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
. harness/tests/tap.sh

why=
for t in munged slurmctld slurmd sbatch squeue scancel; do
        command -v "$t" >/dev/null || PATH=$PATH:/usr/sbin command -v "$t" >/dev/null ||
                { why="no $t (apt-get install -y munge slurmctld slurmd slurm-client)"; break; }
done
[ -z "$why" ] && [ "$(id -u)" -ne 0 ] && why="needs root (slurmd runs jobs as their user)"
if [ -n "$why" ]; then
        skip "ipclab run --slurm" "$why"
        done_testing
fi
PATH=$PATH:/usr/sbin
node=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024 - 256 ))

# munge: a key of our own, its own socket.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
munged --foreground --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
        --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munge.seed" 2>>"$tmp/munged.log" &
munged=$!
pids+=($munged)

mkdir -p "$tmp/state" "$tmp/spool"
export SLURM_CONF=$tmp/slurm.conf
write_conf() {
        cat > "$SLURM_CONF" <<EOF
ClusterName=ipclabtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ipclabtest Nodes=$node Default=YES MaxTime=10 State=UP
EOF
}
wait_until '[ -S "$tmp/munge.sock" ] || ! kill -0 $munged 2>/dev/null'
if ! check "munged starts (its socket)" '[ -S "$tmp/munge.sock" ]' "$(tail -3 "$tmp/munged.log")"; then
        done_testing
fi
# slurmctld and slurmd on two ports of their own; ports someone else holds
# (the daemon dies saying so) are given up for others.
for try in 1 2 3 4 5; do
        base=$((20000 + RANDOM % 40000))
        write_conf
        : > "$tmp/slurmctld.log"; : > "$tmp/slurmd.log"
        slurmctld -D -i -f "$SLURM_CONF" 2>>"$tmp/slurmctld.log" &
        ctld=$!
        slurmd -D -f "$SLURM_CONF" -N "$node" 2>>"$tmp/slurmd.log" &
        slurmd=$!
        pids+=($ctld $slurmd)
        wait_until 'sinfo -h -N -o "%t" 2>/dev/null | grep -qx "idle" || ! kill -0 $ctld 2>/dev/null || ! kill -0 $slurmd 2>/dev/null'
        kill -0 $ctld 2>/dev/null && kill -0 $slurmd 2>/dev/null && break
        kill $ctld $slurmd 2>/dev/null
        wait $ctld $slurmd 2>/dev/null
        grep -qi "address already in use" "$tmp/slurmctld.log" "$tmp/slurmd.log" || break
done
if ! check "slurmctld and slurmd up; node $node idle" \
        'sinfo -h -N -o "%t" 2>/dev/null | grep -qx "idle"' "$(tail -n 2 "$tmp/slurmd.log" "$tmp/slurmctld.log")"; then
        done_testing
fi

for e in one two; do
        cat > "$tmp/$e.ini" <<INI
[experiment]
title=slurm task $e
transport=pipe;unix-stream
size=64
pattern=roundtrip
count=200
repeat=2
INI
done
start=$SECONDS
"$ipclab" run --slurm ipclabtest --job-dir "$tmp/job" --out "$tmp/out" "$tmp/one.ini" "$tmp/two.ini" 2>"$tmp/run.err"; rc=$?
check "a 2-task job array runs end to end (exit 0)" '[ $rc -eq 0 ]' "$(tail -5 "$tmp/run.err")" \
        "$(tail -3 "$tmp/slurmctld.log")" "$(cat "$tmp"/job/task-*.log 2>/dev/null | tail -5)"
echo "# the array took $((SECONDS - start)) s"
check "it was one array of tasks 0 and 1" 'grep -q "submitted Slurm job [0-9]* to partition ipclabtest: tasks 0,1 of 2" "$tmp/run.err"' \
        "$(grep submitted "$tmp/run.err")"
for e in one two; do
        s=$tmp/out/$e/samples.tsv
        check "$e: 4 rows, all ok" '[ "$(tail -n +2 "$s" | cut -f"$(tsv_index status "$s")" | grep -c "^ok$")" -eq 4 ]'
        check "$e: the machine is the node ($node)" '[ "$(tsv_cols "$s" machine | sort -u)" = "$node" ]'
        check "$e: meta.ini has [machine $node], [run] machines=$node" \
                'grep -qx "\[machine $node\]" "$tmp/out/$e/meta.ini" && grep -qx "machines=$node" "$tmp/out/$e/meta.ini"'
done
check "the job script is kept, naming its sbatch line (--exclusive, --array=0,1)" \
        '[ -x "$tmp/job/job.sh" ] && grep -q "^#   .sbatch. .--parsable. .--exclusive. .--job-name=ipclab. .--array=0,1." "$tmp/job/job.sh"' \
        "$(head -5 "$tmp/job/job.sh")"
want0="0) set -- '$tmp/one.ini' '$tmp/job/task-0' '' ;;"
wantx="exec '$PWD/harness/ipclab' 'run' \${3:+--env \"\$3\"} --out \"\$2\" \"\$1\""
check "every path in the job script is quoted" \
        'grep -qxF "$want0" "$tmp/job/job.sh" && grep -qxF "$wantx" "$tmp/job/job.sh"' || sed 's/^/# /' "$tmp/job/job.sh"
"$ipclab" run --resume --env host --slurm ipclabtest --job-dir "$tmp/job" --out "$tmp/out" "$tmp/one.ini" "$tmp/two.ini" \
        2>"$tmp/again.err"; rc=$?
check "--env host reaches each task; --resume with every task done submits nothing" \
        '[ $rc -eq 0 ] && grep -qxF "1) set -- '"'$tmp/two.ini' '$tmp/job/task-1' 'host'"' ;;" "$tmp/job/job.sh" &&
         ! grep -q submitted "$tmp/again.err"' || sed 's/^/# /' "$tmp/again.err"
check "each task left its log" '[ -s "$tmp/job/task-0.log" ] && [ -s "$tmp/job/task-1.log" ]'

# A task that fails: named, the others kept; --resume submits only it.
# Task 1's results directory is a file, so its `ipclab run --out` fails
# on the node (--resume: the job directory is kept, with that file).
cp "$tmp/two.ini" "$tmp/bad.ini"
mkdir -p "$tmp/job2" && echo "not a directory" > "$tmp/job2/task-1"
"$ipclab" run --resume --slurm ipclabtest --job-dir "$tmp/job2" --out "$tmp/out2" "$tmp/one.ini" "$tmp/bad.ini" \
        2>"$tmp/run2.err"; rc=$?
check "a failed task fails the run (exit 1)" '[ $rc -eq 1 ]' "$(tail -5 "$tmp/run2.err")"
check "... and is named, with its node and log" \
        'grep -q "Slurm task 1 (bad, .*bad.ini) failed on node $node: .*task-1.log" "$tmp/run2.err"' "$(grep task "$tmp/run2.err")"
check "... the experiment of the task that worked is merged" '[ -s "$tmp/out2/one/samples.tsv" ] && [ ! -e "$tmp/out2/bad" ]'
rm "$tmp/job2/task-1"
"$ipclab" run --resume --slurm ipclabtest --job-dir "$tmp/job2" --out "$tmp/out2" "$tmp/one.ini" "$tmp/bad.ini" 2>"$tmp/run3.err"; rc=$?
check "--resume submits only the missing task (1 of 2) and finishes" \
        '[ $rc -eq 0 ] && grep -q "tasks 1 of 2" "$tmp/run3.err" && [ -s "$tmp/out2/bad/samples.tsv" ]' "$(tail -5 "$tmp/run3.err")"

done_testing
