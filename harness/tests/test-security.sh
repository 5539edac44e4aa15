#!/bin/bash
# test-security.sh: what a private bus lets in, and what reaches a shell.
#
#   - Each private bus ipclab starts (dbus-daemon and dbus-broker, through
#     `ipclab bus KIND`: the code a run uses, and a bus that lives until the
#     test closes its stdin, so that it is there for as long as the test
#     looks at it) lives in its own 0700 directory of our uid and listens
#     only on a Unix socket inside it, held by its daemon; it accepts
#     EXTERNAL from our uid (busctl works) and nothing else: ANONYMOUS,
#     DBUS_COOKIE_SHA1, EXTERNAL claiming another uid, and a real other uid
#     (nobody, via setpriv, first as is, then with CAP_DAC_OVERRIDE so that
#     it reaches the socket) are all refused.  Every refusal is checked
#     beside the same attempt with our own credentials, on the same socket,
#     just before, which must succeed: a bus that is gone refuses nothing.
#     No TCP or UDP socket is held by ipclab, the guardian or the daemon,
#     and no TCP listener of theirs appears; when stdin closes, the daemon
#     and the directory go.  A D-Bus experiment on both buses then runs and
#     leaves nothing behind.
#   - No value from an experiment file reaches a shell: the C sources call
#     no system(), popen(), g_spawn_command_line_*(), g_shell_parse_argv()
#     or "sh -c" with a built string (the one `sh -c` there runs a constant
#     script that gets its values as "$@"); hyperfine is told -N (no shell).
#     Containers get a private network and one writable mount; the VM no NIC.
#   - An experiment whose title, description and source hold shell
#     metacharacters ($(...), `...`, ;, |, >) is checked, run and
#     summarized without executing any of it, and its title is recorded
#     verbatim; a file name or profile name holding them is refused.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
ipclab=$root/harness/ipclab
tmp=$(mktemp -d)
chmod 0755 "$tmp"
bus_pid=
cleanup() {
        exec 7>&- 2>/dev/null
        [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null && wait "$bus_pid" 2>/dev/null
        rm -rf "$tmp"
}
trap cleanup EXIT
export XDG_RUNTIME_DIR=$tmp/run TMPDIR=$tmp/run
mkdir -p "$tmp/run" "$tmp/out"
. harness/tests/tap.sh
note() { echo "# $*"; }

# auth.pl SOCKET LINE: connects, sends the NUL byte and LINE (an AUTH
# command), prints the server's first reply line, "closed" when it closes
# the connection without one, or "connect: ERROR".
cat > "$tmp/auth.pl" <<'PERL'
use strict;
use IO::Socket::UNIX;
my ($path, $line) = @ARGV;
my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $path);
if (!$s) { print "connect: $!\n"; exit 0; }
print $s "\0$line\r\n";
my $reply = <$s>;
print defined $reply && $reply ne "" ? $reply : "closed\n";
PERL
chmod 0644 "$tmp/auth.pl"
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# auth SOCKET MECHANISM ARG [RUNNER...]: the reply to AUTH MECHANISM hex(ARG).
auth() { "${@:4}" perl "$tmp/auth.pl" "$1" "AUTH $2 $(hex "$3")" | tr -d '\r'; }

# Socket inodes of PID ("123 456").
socket_inodes() {
        local f
        for f in /proc/"$1"/fd/*; do
                readlink "$f" 2>/dev/null
        done | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p'
}
# "local_address inode" of every TCP listener (state 0A) here.
tcp_listeners() { cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$4 == "0A" { print $2, $10 }' | sort; }
# Inodes of every TCP and UDP socket.
inet_inodes() { cat /proc/net/tcp /proc/net/tcp6 /proc/net/udp /proc/net/udp6 2>/dev/null | awk 'NR > 0 && $10 ~ /^[0-9]+$/ { print $10 }'; }
# PID and all its descendants.
tree() {
        local p=$1 c
        echo "$p"
        for c in $(pgrep -P "$p"); do tree "$c"; done
}
# The path of the listening Unix socket with inode INO, if any.
listening_path() { awk -v i="$1" '$7 == i && $4 == "00010000" { print ($8 == "" ? "(unnamed)" : $8) }' /proc/net/unix; }

uid=$(id -u)
other=65534; [ "$uid" = 65534 ] && other=65533
mkfifo "$tmp/stdin"
# ---- the buses ----
for kind in dbus-daemon dbus-broker; do
        why=$("$ipclab" list 2>/dev/null | awk -v k="bus=$kind" '$2 == k && $1 != "ok" { $1 = $2 = ""; print; exit }')
        if [ -n "$why" ]; then
                skip "$kind: a private bus" "$why"
                continue
        fi
        before=$(tcp_listeners)
        # The bus lives until we close fd 7, the write end of its stdin.
        exec 7<>"$tmp/stdin"
        "$ipclab" bus "$kind" <"$tmp/stdin" >"$tmp/bus.out" 2>"$tmp/bus.err" 7>&- &
        bus_pid=$!
        wait_until '[ "$(wc -l < "$tmp/bus.out")" -ge 2 ] || ! kill -0 $bus_pid 2>/dev/null'
        address=$(sed -n 1p "$tmp/bus.out")
        daemon=$(sed -n 2p "$tmp/bus.out")
        sock=${address#unix:path=}
        dir=$(dirname "$sock")
        if ! check "$kind: ipclab bus starts it, and prints its address and daemon" \
                '[ "$address" != "$sock" ] && [ -n "$daemon" ] && kill -0 "$daemon"' "$(cat "$tmp/bus.err")"; then
                exec 7>&-
                wait "$bus_pid"
                bus_pid=
                continue
        fi
        check "$kind: the daemon (pid $daemon) is $kind" '[ "$(cat /proc/$daemon/comm)" = "$kind" ]'
        check "$kind: its directory is ours alone: mode 0700, owned by uid $uid ($dir)" \
                '[ "$(dirname "$dir")" = "$tmp/run" ] && [ "$(stat -c "%a %u" "$dir")" = "700 $uid" ]'
        listening=$(for ino in $(socket_inodes "$daemon"); do listening_path "$ino"; done | sort -u)
        check "$kind: the daemon listens on the Unix socket in it" '[ -S "$sock" ] && grep -qxF "$sock" <<<"$listening"' \
                "listening: $(echo $listening)"
        check "$kind: and on nothing else" '[ "$listening" = "$sock" ]' "listening: $(echo $listening)"
        cmd=$(tr '\0' ' ' < /proc/$daemon/cmdline)
        check "$kind: no tcp: in its command line or configuration" \
                '! grep -q "tcp:" <<<"$cmd" && ! grep -qs "tcp:" "$dir/bus.conf"'
        check "$kind: EXTERNAL from our uid works (busctl GetId)" \
                'busctl --address="$address" call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId >/dev/null'
        # Each refusal beside the same attempt with our credentials.
        for mech in "ANONYMOUS ipclab" "DBUS_COOKIE_SHA1 $uid" "EXTERNAL $other"; do
                good=$(auth "$sock" EXTERNAL "$uid")
                r=$(auth "$sock" "${mech% *}" "${mech#* }")
                check "$kind: AUTH $mech refused ($r), where AUTH EXTERNAL $uid just got ${good%% *}" \
                        '[ "${good%% *}" = OK ] && [ "${r%% *}" = REJECTED ] && [ -S "$sock" ]'
        done
        if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
                nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
                good=$(auth "$sock" EXTERNAL "$uid")
                r=$(auth "$sock" EXTERNAL 65534 "${nobody[@]}")
                check "$kind: uid 65534 cannot reach the socket ($r), where we just got ${good%% *}" \
                        '[ "${good%% *}" = OK ] && [ "$r" = "connect: Permission denied" ] && [ -S "$sock" ]'
                if setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+dac_override \
                           --ambient-caps=+dac_override true 2>/dev/null; then
                        nobody+=(--inh-caps=+dac_override --ambient-caps=+dac_override)
                        note "$kind: uid 65534 with CAP_DAC_OVERRIDE, AUTH EXTERNAL answered: $(auth "$sock" EXTERNAL 65534 "${nobody[@]}")"
                        call=(busctl --address="$address" call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId)
                        good=$("${call[@]}" 2>&1)
                        r=$("${nobody[@]}" "${call[@]}" 2>&1)
                        check "$kind: uid 65534 past the directory (CAP_DAC_OVERRIDE) cannot call the bus (busctl: $r)" \
                                'grep -q "^s " <<<"$good" && ! grep -q "^s \|No such file" <<<"$r" && [ -S "$sock" ]' "ours: $good"
                        call=(dbus-send --address="$address" --print-reply --dest=org.freedesktop.DBus
                              /org/freedesktop/DBus org.freedesktop.DBus.Hello)
                        good=$("${call[@]}" 2>&1)
                        r=$("${nobody[@]}" "${call[@]}" 2>&1)
                        check "$kind: uid 65534 past the directory gets no Hello answer (dbus-send)" \
                                'grep -q "^method return" <<<"$good" && ! grep -q "^method return\|No such file" <<<"$r" && [ -S "$sock" ]' \
                                "ours: $(head -1 <<<"$good")" "uid 65534: $(head -1 <<<"$r")"
                else
                        skip "$kind: uid 65534 past the directory" "setpriv cannot keep CAP_DAC_OVERRIDE for uid 65534 here"
                fi
        else
                skip "$kind: another uid" "setpriv cannot switch to uid 65534 here"
        fi
        # No inet socket in ipclab, its guardian or its daemon.
        procs=$(tree "$bus_pid")
        check "$kind: ipclab, its guardian and its daemon are all there ($(echo $procs))" \
                'grep -qx "$daemon" <<<"$procs" && [ "$(wc -l <<<"$procs")" -ge 3 ]'
        inet=$(inet_inodes | sort -u)
        held=
        for p in $procs; do
                for ino in $(socket_inodes "$p"); do
                        grep -qx "$ino" <<<"$inet" && held+="$p($(cat /proc/$p/comm 2>/dev/null)):$ino "
                done
        done
        check "$kind: no TCP or UDP socket held by ipclab, its guardian or its daemon" '[ -z "$held" ]' "held: $held"
        new=$(comm -13 <(echo "$before") <(tcp_listeners))
        ours_new=
        for l in $new; do
                for p in $procs; do
                        socket_inodes "$p" | grep -qx "${l#* }" && ours_new+="$l "
                done
        done
        check "$kind: no TCP listener of theirs appeared" '[ -z "$ours_new" ]' "$ours_new"
        [ -n "$new" ] && note "TCP listeners that appeared meanwhile, none of ours: $(echo $new)"
        exec 7>&-
        wait "$bus_pid"; rc=$?
        bus_pid=
        check "$kind: stdin closed, ipclab bus exits 0; the daemon and the directory are gone" \
                '[ $rc -eq 0 ] && ! kill -0 "$daemon" 2>/dev/null && [ ! -e "$dir" ]'
done

# ---- a D-Bus experiment on both buses leaves nothing behind ----
cat > "$tmp/sec.ini" <<'INI'
[experiment]
title=security
transport=libdbus
bus=dbus-daemon;dbus-broker
pattern=roundtrip
count=200
repeat=1
warmup=2
INI
"$ipclab" run --out "$tmp/out" "$tmp/sec.ini" 2>"$tmp/err"; rc=$?
check "the D-Bus experiment on both buses succeeds" '[ "$rc" -eq 0 ]' "$(tail -3 "$tmp/err")"
check "and leaves no bus directory behind" '[ -z "$(ls -A "$tmp/run")" ]'

# ---- no shell in the sources ----
src=$(ls harness/*.c harness/measure/transports/*.c harness/place/env/*.c 2>/dev/null)
hits=$(grep -nE '(^|[^_[:alnum:]])(system|popen)[[:space:]]*\(|g_spawn_command_line|g_shell_parse_argv|"(/bin/)?sh -c|execl[pe]?[[:space:]]*\([^)]*"(/bin/)?sh"' $src)
# One exception: remote.c splits IPCLAB_SSH_OPTS, the user's own extra
# ssh options, into words (never a value from an experiment file).
ssh_opts=$(grep -nE 'g_shell_parse_argv\(opts,' harness/place/remote.c 2> /dev/null | cut -d: -f1)
if [ -n "$ssh_opts" ] && sed -n "$((ssh_opts - 10)),${ssh_opts}p" harness/place/remote.c | grep -q 'g_getenv("IPCLAB_SSH_OPTS")'; then
        hits=$(grep -v "^harness/place/remote.c:$ssh_opts:" <<<"$hits")
        note "g_shell_parse_argv at harness/place/remote.c:$ssh_opts splits IPCLAB_SSH_OPTS only"
fi
check "no system(), popen(), g_spawn_command_line, g_shell_parse_argv or \"sh -c\" string in the C sources" '[ -z "$hits" ]'
[ -n "$hits" ] && note "$hits"
# An argv "-c" must come after a shell and be followed by a constant
# script (a static const char array), so that values only travel as "$@".
dash_c=$(grep -nE '"-c"' $src)
bad=
while IFS=: read -r file line _; do
        [ -z "$file" ] && continue
        prev=$(sed -n "$((line - 1))p" "$file")
        next=$(sed -n "$((line + 1))p" "$file")
        arg=$(sed -nE 's/.*\([^,]*,[[:space:]]*(\([a-z ]+\)[[:space:]]*)?([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\);.*/\2/p' <<<"$next")
        # remote.c's ssh_argv runs the script its callers pass: constant
        # if every call of ssh_argv or ssh_simple passes a constant.
        if [ "$file" = harness/place/remote.c ] && [ "$arg" = script ]; then
                callers=$(grep -oE '(ssh_argv|ssh_simple)\(t, [A-Za-z_][A-Za-z0-9_]*' "$file" | sed 's/.*, //' | grep -vx script | sort -u)
                arg=
                for c in $callers; do
                        grep -qE "^static const char $c\[\] =" "$file" || { arg=; break; }
                        arg=$c
                done
        fi
        if ! grep -qE '"(/bin/)?sh"' <<<"$prev" || [ -z "$arg" ] ||
           ! grep -qE "^static const char $arg\[\] =" "$file"; then
                bad+="$file:$line "
        else
                note "sh -c at $file:$line runs the constant $arg"
        fi
done <<<"$dash_c"
check_run "every sh -c runs a constant script" [ -z "$bad" ]
[ -n "$bad" ] && note "not a constant script: $bad"
# every argv that starts hyperfine ("hyperfine", ...) carries -N
hf_bad=
while IFS=: read -r file line _; do
        [ -z "$file" ] && continue
        sed -n "${line},$((line + 2))p" "$file" | grep -qE '"-N"|"--shell=none"' || hf_bad+="$file:$line "
done <<<"$(grep -nE '\{[[:space:]]*"hyperfine",' $src)"
check_run "hyperfine is always run without a shell (-N)" [ -z "$hf_bad" ]
if [ -f harness/place/env/nspawn.c ]; then
        check_run "nspawn: a private network" grep -q '"--private-network"' harness/place/env/nspawn.c
        check_run "nspawn: one writable bind mount (the results)" [ "$(grep -c '"--bind=' harness/place/env/nspawn.c)" -eq 1 ]
fi
if [ -f harness/place/env/vm.c ]; then
        check_run "vm: -nodefaults and no network device" \
                eval 'grep -q "\"-nodefaults\"" harness/place/env/vm.c && ! grep -qE "\"-(nic|netdev|net)\"" harness/place/env/vm.c'
fi

# ---- shell metacharacters in an experiment ----
pw=$tmp/pwned
title="\$(touch $pw-1) \`touch $pw-2\`; touch $pw-3 | touch $pw-4 > $pw-5 && touch $pw-6 '\""
cat > "$tmp/meta.ini" <<INI
[experiment]
title=$title
description=\$(touch $pw-7)
source=\`touch $pw-8\`.txt
transport=pipe
count=10
repeat=1
warmup=1
INI
out=$("$ipclab" check "$tmp/meta.ini" 2>&1); rc=$?
check_run "metacharacters: check exits 0" [ "$rc" -eq 0 ]
"$ipclab" run --out "$tmp/out" "$tmp/meta.ini" 2>/dev/null; rc=$?
check_run "metacharacters: run exits 0" [ "$rc" -eq 0 ]
"$ipclab" summarize "$tmp/out/meta" >/dev/null 2>&1
check_run "metacharacters: the title is recorded verbatim in meta.ini" grep -qxF "title=$title" "$tmp/out/meta/meta.ini"
cp "$tmp/meta.ini" "$tmp/\$(touch pwned-9);touch pwned-10.ini"
(cd "$tmp" && "$ipclab" run --out "$tmp/out" "\$(touch pwned-9);touch pwned-10.ini" >/dev/null 2>&1); rc=$?
check_run "metacharacters in the file name: refused (exit 2)" [ "$rc" -eq 2 ]
"$ipclab" run --profile "\$(touch $pw-11)" --out "$tmp/out" "$tmp/meta.ini" >/dev/null 2>&1; rc=$?
check_run "metacharacters in --profile: refused (exit 2)" [ "$rc" -eq 2 ]
check_run "nothing was executed" [ -z "$(ls "$tmp" | grep -x 'pwned-[0-9]*')" ]

done_testing
