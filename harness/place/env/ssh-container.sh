#!/bin/bash
# harness/place/env/ssh-container.sh start DIR PORT NAME | stop DIR | config PORT KEYDIR
#                               | with NAME COMMAND...
#
# A second place to run `ipclab run --host` against, on this machine: a
# systemd-nspawn container of the cached nspawn image (make env-nspawn)
# whose host name is NAME, running this host's sshd on 127.0.0.1:PORT
# (the container shares the host's network; nothing listens beyond
# loopback), with throw-away host and user keys in DIR.  The image has no
# sshd of its own: the host's binary is copied into DIR, with the few
# libraries it needs that the image lacks (found by ldd), and runs with
# them on its LD_LIBRARY_PATH; the sessions it starts use the image's own
# shell, tar and libraries, and the harness binary ipclab sends.
#
# It is the same CPU and kernel as the host, in another userland and
# namespaces: what comparing the two shows is the container's cost, not a
# second computer.  `start` prints two lines for the caller:
#   target=ssh://root@127.0.0.1:PORT
#   IPCLAB_SSH_OPTS=...   (the key and the pinned host key, shell-quoted)
# and leaves the container running; `stop` ends it.  Needs root.
# `with NAME COMMAND...` starts one on a free port in a temp dir, runs
# COMMAND with `--host local --host ssh://root@127.0.0.1:PORT` appended
# and IPCLAB_SSH_OPTS set, stops it, and exits with COMMAND's status: how
# mk/data.mk measures experiments/machines.ini.
# `config` prints the sshd_config both this and harness/tests/test-ssh.sh
# use: loopback PORT only, keys only (KEYDIR/host_key, KEYDIR/
# authorized_keys), root by key, no PAM, no pid file.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

sshd_config() {   # PORT KEYDIR
        cat <<EOF
Port $1
ListenAddress 127.0.0.1
HostKey $2/host_key
AuthorizedKeysFile $2/authorized_keys
StrictModes no
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PidFile none
EOF
}

case ${1:-} in
start)
        dir=$2 port=$3 name=$4
        [[ $name =~ ^[A-Za-z0-9-]{1,60}$ ]] || { echo "ssh-container: NAME is letters, digits, '-'" >&2; exit 2; }
        [[ $port =~ ^[0-9]{1,5}$ ]] || { echo "ssh-container: PORT is a number" >&2; exit 2; }
        image=$("$here/build-image.sh" dir nspawn)
        [ -f "$image/complete" ] || { echo "ssh-container: no nspawn image: run \`make env-nspawn\` (as root)" >&2; exit 1; }
        root=$image/rootfs
        sshd=$(command -v sshd || echo /usr/sbin/sshd)
        [ -x "$sshd" ] || { echo "ssh-container: no sshd here: apt-get install -y openssh-server" >&2; exit 1; }
        mkdir -p "$dir/lib"
        cp "$sshd" "$dir/sshd"
        ldd "$sshd" | awk '$3 ~ /^\// { print $3 }' | while read -r lib; do
                b=$(basename "$lib")
                [ -e "$root/usr/lib/x86_64-linux-gnu/$b" ] || [ -e "$root/lib/x86_64-linux-gnu/$b" ] || cp -L "$lib" "$dir/lib/$b"
        done
        rm -f "$dir/host_key" "$dir/user_key"
        ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key" -C "$name"
        ssh-keygen -q -t ed25519 -N '' -f "$dir/user_key" -C ipclab
        cp "$dir/user_key.pub" "$dir/authorized_keys"
        { cat "$root/etc/passwd"; echo "sshd:x:$(id -u sshd 2>/dev/null || echo 103):65534::/run/sshd:/usr/sbin/nologin"; } > "$dir/passwd"
        sshd_config "$port" /opt/ipclab-ssh > "$dir/sshd_config"
        echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$dir/host_key.pub")" > "$dir/known_hosts"
        systemd-nspawn --quiet --register=no --keep-unit --as-pid2 --volatile=overlay --console=pipe \
                --link-journal=no --resolv-conf=off --timezone=off --machine="$name" --directory="$root" \
                --bind-ro="$dir:/opt/ipclab-ssh" --bind-ro="$dir/passwd:/etc/passwd" \
                --setenv=LD_LIBRARY_PATH=/opt/ipclab-ssh/lib -- \
                /bin/sh -c 'mkdir -p /run/sshd && exec /opt/ipclab-ssh/sshd -D -e -f /opt/ipclab-ssh/sshd_config' \
                >"$dir/container.log" 2>&1 </dev/null &
        echo $! > "$dir/nspawn.pid"
        opts="-F /dev/null -i $dir/user_key -o IdentitiesOnly=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=$dir/known_hosts -o ConnectTimeout=5"
        for _ in $(seq 100); do
                grep -q "Server listening" "$dir/container.log" 2>/dev/null && break
                kill -0 "$(cat "$dir/nspawn.pid")" 2>/dev/null || break
                sleep 0.1
        done
        grep -q "Server listening" "$dir/container.log" ||
                { echo "ssh-container: sshd did not start in the container:" >&2; tail -5 "$dir/container.log" >&2; exit 1; }
        echo "target=ssh://root@127.0.0.1:$port"
        printf 'IPCLAB_SSH_OPTS=%q\n' "$opts"
        ;;
config)
        sshd_config "$2" "$3"
        ;;
with)
        name=$2
        shift 2
        tmp=$(mktemp -d "${TMPDIR:-/tmp}/ipclab-ssh-container.XXXXXX")
        trap '"$0" stop "$tmp"; rm -rf "$tmp"' EXIT
        for _ in 1 2 3 4 5; do
                port=$((20000 + RANDOM % 40000))
                if out=$("$0" start "$tmp" "$port" "$name"); then break; fi
                "$0" stop "$tmp"
                out=
        done
        [ -n "$out" ] || { echo "ssh-container: the container's sshd did not start" >&2; exit 1; }
        eval "$(grep '^IPCLAB_SSH_OPTS=' <<<"$out")"
        export IPCLAB_SSH_OPTS
        status=0
        "$@" --host local --host "$(sed -n 's/^target=//p' <<<"$out")" || status=$?
        exit "$status"
        ;;
stop)
        dir=$2
        [ -f "$dir/nspawn.pid" ] && kill "$(cat "$dir/nspawn.pid")" 2>/dev/null || true
        rm -f "$dir/nspawn.pid"
        ;;
*)
        echo "usage: $0 start DIR PORT NAME | stop DIR | config PORT KEYDIR | with NAME COMMAND..." >&2
        exit 2
        ;;
esac
