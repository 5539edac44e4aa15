#!/bin/bash
# test-security.sh: what a private bus lets in, and what reaches a shell.
#
#   - While a D-Bus experiment runs (libdbus through dbus-daemon and
#     dbus-broker): every bus lives in its own 0700 directory of our uid and
#     listens only on a Unix socket inside it; it accepts EXTERNAL from our
#     uid (busctl works) and nothing else: ANONYMOUS, DBUS_COOKIE_SHA1,
#     EXTERNAL claiming another uid, and a real other uid (nobody, via
#     setpriv, first as is, then with CAP_DAC_OVERRIDE so that it reaches
#     the socket) are all refused; no TCP or UDP socket is held by the
#     daemons, their guardians or ipclab, and no TCP listener appears
#     compared with before the run.
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
trap 'rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR=$tmp/run TMPDIR=$tmp/run
mkdir -p "$tmp/run" "$tmp/out"
. harness/tests/tap.sh
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
note() { echo "# $*"; }

# auth.pl SOCKET LINE: connects, sends the NUL byte and LINE (an AUTH
# command), prints the server's first reply line, or "connect: ERROR".
cat > "$tmp/auth.pl" <<'PERL'
use strict;
use IO::Socket::UNIX;
my ($path, $line) = @ARGV;
my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $path);
if (!$s) { print "connect: $!\n"; exit 0; }
$SIG{ALRM} = sub { print "timeout\n"; exit 0; };
alarm 5;
print $s "\0$line\r\n";
my $reply = <$s>;
print defined $reply ? $reply : "closed\n";
PERL
chmod 0644 "$tmp/auth.pl"
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }

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

# ---- the buses, while an experiment runs on them ----
cat > "$tmp/sec.ini" <<'INI'
[experiment]
title=security
transport=libdbus
bus=dbus-daemon;dbus-broker
pattern=roundtrip
duration=3s
repeat=1
warmup=2
INI
before=$(tcp_listeners)
"$ipclab" run --out "$tmp/out" "$tmp/sec.ini" 2>"$tmp/err" &
pid=$!
# Wait for both buses (the broker comes with the second cell).
for i in $(seq 150); do
        [ "$(ls -d "$tmp/run"/ipclab-bus-* 2>/dev/null | wc -l)" -ge 2 ] && break
        sleep 0.05
done
sleep 0.3
during=$(tcp_listeners)
procs=$(tree "$pid")
buses=$(ls -d "$tmp/run"/ipclab-bus-* 2>/dev/null)
check "both buses started" [ "$(wc -w <<<"$buses")" -eq 2 ]
uid=$(id -u)
for dir in $buses; do
        # which daemon: the one whose guardian made this directory
        kind=unknown
        [ -f "$dir/bus.conf" ] && kind=dbus-daemon
        [ "$kind" = unknown ] && kind=dbus-broker
        check "$kind: directory mode 0700, owned by uid $uid" [ "$(stat -c '%a %u' "$dir")" = "700 $uid" ]
        sock=$(find "$dir" -maxdepth 1 -type s -name socket)
        check "$kind: listens on a Unix socket in it" [ -S "$sock" ]
        daemon=
        for p in $procs; do
                [ "$(cat /proc/$p/comm 2>/dev/null)" = "$kind" ] || continue
                for ino in $(socket_inodes "$p"); do
                        grep -q " $ino " /proc/net/unix && grep " $ino " /proc/net/unix | grep -qF "$dir/" && daemon=$p
                done
        done
        check "$kind: its daemon found (pid ${daemon:-?})" [ -n "$daemon" ]
        if [ -n "$daemon" ]; then
                # Listening Unix sockets (flag 00010000) of the daemon, by path.
                listening=$(for ino in $(socket_inodes "$daemon"); do
                        awk -v i="$ino" '$7 == i && $4 == "00010000" { print ($8 == "" ? "(unnamed)" : $8) }' /proc/net/unix
                done | sort -u)
                outside=$(grep -vF "$dir/" <<<"$listening" | grep .)
                check "$kind: every socket it listens on is in its directory ($(echo $listening))" \
                        eval '[ -n "$listening" ] && [ -z "$outside" ]'
                cmd=$(tr '\0' ' ' < /proc/$daemon/cmdline)
                check "$kind: no tcp: in its command line or configuration" \
                        eval '! grep -q "tcp:" <<<"$cmd" && ! grep -qs "tcp:" "$dir/bus.conf"'
        fi
        check "$kind: EXTERNAL from our uid works (busctl GetId)" eval \
                'busctl --address="unix:path=$sock" call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId >/dev/null'
        r=$(perl "$tmp/auth.pl" "$sock" "AUTH EXTERNAL $(hex "$uid")")
        check "$kind: raw AUTH EXTERNAL $uid: OK" grep -q '^OK' <<<"$r"
        # Another user's uid (nobody's, unless we are nobody).
        other=65534; [ "$uid" = 65534 ] && other=65533
        for mech in "ANONYMOUS ipclab" "DBUS_COOKIE_SHA1 $uid" "EXTERNAL $other"; do
                r=$(perl "$tmp/auth.pl" "$sock" "AUTH ${mech% *} $(hex "${mech#* }")")
                check "$kind: AUTH $mech refused (${r%$'\r'})" eval '! grep -q "^OK" <<<"$r"'
        done
        if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
                r=$(setpriv --reuid=65534 --regid=65534 --clear-groups perl "$tmp/auth.pl" "$sock" "AUTH EXTERNAL $(hex 65534)")
                check "$kind: uid 65534 cannot reach the socket (${r%$'\r'})" grep -q '^connect:' <<<"$r"
                if setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+dac_override \
                           --ambient-caps=+dac_override true 2>/dev/null; then
                        nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups
                                --inh-caps=+dac_override --ambient-caps=+dac_override)
                        r=$("${nobody[@]}" perl "$tmp/auth.pl" "$sock" "AUTH EXTERNAL $(hex 65534)")
                        note "$kind: uid 65534 with CAP_DAC_OVERRIDE, AUTH EXTERNAL answered: ${r%$'\r'}"
                        r=$("${nobody[@]}" busctl --address="unix:path=$sock" call \
                                org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId 2>&1)
                        check "$kind: uid 65534 past the directory (CAP_DAC_OVERRIDE) cannot call the bus (busctl)" \
                                eval '! grep -q "^s " <<<"$r"'
                        r=$("${nobody[@]}" dbus-send --address="unix:path=$sock" --print-reply \
                                --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.Hello 2>&1)
                        check "$kind: uid 65534 past the directory gets no Hello answer (dbus-send)" \
                                eval '! grep -q "^method return" <<<"$r"'
                else
                        skip "$kind: setpriv cannot keep CAP_DAC_OVERRIDE for uid 65534 here"
                fi
        else
                skip "$kind: setpriv cannot switch to uid 65534 here"
        fi
done
# No inet socket anywhere in ipclab, its children, guardians and daemons.
inet=$(inet_inodes | sort -u)
held=
for p in $procs; do
        for ino in $(socket_inodes "$p"); do
                grep -qx "$ino" <<<"$inet" && held+="$p($(cat /proc/$p/comm 2>/dev/null)):$ino "
        done
done
check "no TCP or UDP socket held by ipclab, its guardians or daemons" [ -z "$held" ]
[ -n "$held" ] && note "held: $held"
new=$(comm -13 <(echo "$before") <(echo "$during"))
ours_new=
for l in $new; do
        for p in $procs; do
                socket_inodes "$p" | grep -qx "${l#* }" && ours_new+="$l "
        done
done
check "no TCP listener opened by the run (compared with before it)" [ -z "$ours_new" ]
[ -n "$new" ] && note "TCP listeners that appeared meanwhile (not ours: $([ -z "$ours_new" ] && echo yes || echo no)): $(echo $new)"
wait "$pid"; rc=$?
check "the D-Bus experiment itself succeeded" [ "$rc" -eq 0 ]
check "the bus directories are gone afterwards" [ -z "$(ls -A "$tmp/run")" ]

# ---- no shell in the sources ----
src=$(ls harness/*.c harness/transports/*.c harness/env/*.c 2>/dev/null)
hits=$(grep -nE '(^|[^_[:alnum:]])(system|popen)[[:space:]]*\(|g_spawn_command_line|g_shell_parse_argv|"(/bin/)?sh -c|execl[pe]?[[:space:]]*\([^)]*"(/bin/)?sh"' $src)
# One exception: remote.c splits IPCLAB_SSH_OPTS, the user's own extra
# ssh options, into words (never a value from an experiment file).
ssh_opts=$(grep -nE 'g_shell_parse_argv\(opts,' harness/remote.c 2> /dev/null | cut -d: -f1)
if [ -n "$ssh_opts" ] && sed -n "$((ssh_opts - 10)),${ssh_opts}p" harness/remote.c | grep -q 'g_getenv("IPCLAB_SSH_OPTS")'; then
        hits=$(grep -v "^harness/remote.c:$ssh_opts:" <<<"$hits")
        note "g_shell_parse_argv at harness/remote.c:$ssh_opts splits IPCLAB_SSH_OPTS only"
fi
check "no system(), popen(), g_spawn_command_line, g_shell_parse_argv or \"sh -c\" string in the C sources" [ -z "$hits" ]
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
        if [ "$file" = harness/remote.c ] && [ "$arg" = script ]; then
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
check "every sh -c runs a constant script" [ -z "$bad" ]
[ -n "$bad" ] && note "not a constant script: $bad"
# every argv that starts hyperfine ("hyperfine", ...) carries -N
hf_bad=
while IFS=: read -r file line _; do
        [ -z "$file" ] && continue
        sed -n "${line},$((line + 2))p" "$file" | grep -qE '"-N"|"--shell=none"' || hf_bad+="$file:$line "
done <<<"$(grep -nE '\{[[:space:]]*"hyperfine",' $src)"
check "hyperfine is always run without a shell (-N)" [ -z "$hf_bad" ]
if [ -f harness/env/nspawn.c ]; then
        check "nspawn: a private network" grep -q '"--private-network"' harness/env/nspawn.c
        check "nspawn: one writable bind mount (the results)" [ "$(grep -c '"--bind=' harness/env/nspawn.c)" -eq 1 ]
fi
if [ -f harness/env/vm.c ]; then
        check "vm: -nodefaults and no network device" \
                eval 'grep -q "\"-nodefaults\"" harness/env/vm.c && ! grep -qE "\"-(nic|netdev|net)\"" harness/env/vm.c'
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
check "metacharacters: check exits 0" [ "$rc" -eq 0 ]
"$ipclab" run --out "$tmp/out" "$tmp/meta.ini" 2>/dev/null; rc=$?
check "metacharacters: run exits 0" [ "$rc" -eq 0 ]
"$ipclab" summarize "$tmp/out/meta" >/dev/null 2>&1
check "metacharacters: the title is recorded verbatim in meta.ini" grep -qxF "title=$title" "$tmp/out/meta/meta.ini"
cp "$tmp/meta.ini" "$tmp/\$(touch pwned-9);touch pwned-10.ini"
(cd "$tmp" && "$ipclab" run --out "$tmp/out" "\$(touch pwned-9);touch pwned-10.ini" >/dev/null 2>&1); rc=$?
check "metacharacters in the file name: refused (exit 2)" [ "$rc" -eq 2 ]
"$ipclab" run --profile "\$(touch $pw-11)" --out "$tmp/out" "$tmp/meta.ini" >/dev/null 2>&1; rc=$?
check "metacharacters in --profile: refused (exit 2)" [ "$rc" -eq 2 ]
check "nothing was executed" [ -z "$(ls "$tmp" | grep -x 'pwned-[0-9]*')" ]

echo "1..$n"
[ "$failed" -eq 0 ]
