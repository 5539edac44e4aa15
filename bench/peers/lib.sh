# lib.sh: what bench/peers.sh and bench/peers/test-peers.sh share.  Source
# it after setting $ipclab (the ipclab binary) and $tmp (a scratch
# directory); cleanup_peers stops whatever bus and server are still up.
bus_pid= server_pid=

# bus_up / bus_down: a private dbus-daemon from `ipclab bus dbus-daemon`;
# sets addr (its address), daemon_pid and bus_pid (ipclab's process).
bus_up() {
        coproc BUS { exec "$ipclab" bus dbus-daemon; }
        bus_pid=$BUS_PID
        read -r addr <&"${BUS[0]}"
        read -r daemon_pid <&"${BUS[0]}"
}
bus_down() {
        eval "exec ${BUS[1]}>&-"
        wait "$bus_pid" 2>/dev/null || true
        bus_pid=
}

# server_up PROGRAM ARGS...: starts a peer server and returns once it has
# printed "ready" (status 0), or has ended without (status 1).
server_up() {
        server_up_until '^ready$' "$@"
}
# server_up_until REGEX PROGRAM ARGS...: the same for a server whose
# ready line matches REGEX (sockperf's).
server_up_until() {
        local ready=$1
        shift
        : > "$tmp/server.out"
        "$@" > "$tmp/server.out" 2>&1 &
        server_pid=$!
        until grep -qE "$ready" "$tmp/server.out"; do
                kill -0 "$server_pid" 2>/dev/null || return 1
                sleep 0.02
        done
}
server_down() {
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=
}

cleanup_peers() {
        [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
        [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null
        wait 2>/dev/null
}

# field KEY LINE: the value of KEY=... in a line of key=value pairs.
field() { tr ' ' '\n' <<< "$2" | awk -F= -v k="$1" '$1 == k { print $2 }'; }
