#!/bin/bash
# guest-init.sh: PID 1 of the ipclab VM (installed as /sbin/ipclab-init).
#
# The image has no init system.  The kernel starts this script on a
# read-only root; it mounts what the harness needs, mounts two 9p shares
# from the host (ipclab-in, read-only: the harness binary `ipclab`, the
# experiment file, `args` with the command line NUL-separated, `env` with
# IPCLAB_*=value lines; ipclab-out, writable: the results), runs the
# command, writes its exit status to ipclab-out/status and powers off.
# It never returns: PID 1 exiting would panic the kernel.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8

say() {
        local up
        read -r up _ < /proc/uptime 2> /dev/null
        echo "ipclab-guest: [${up:-?} s] $*" > /dev/console
}

off() {
        sync
        umount /ipclab/out 2> /dev/null
        busybox poweroff -f
        echo o > /proc/sysrq-trigger
        while :; do sleep 1; done
}

# mount FSTYPE SOURCE TARGET [OPTIONS] unless TARGET is mounted already
# (Debian's initramfs moves /dev, /proc, /sys and /run onto the root)
mnt() {
        mkdir -p "$3" 2> /dev/null
        mountpoint -q "$3" && return 0
        mount -t "$1" -o "${4:-defaults}" "$2" "$3"
}

mnt proc proc /proc nosuid,nodev,noexec
say "init started"
mnt sysfs sysfs /sys nosuid,nodev,noexec
mnt devtmpfs devtmpfs /dev mode=0755,nosuid
mnt devpts devpts /dev/pts gid=5,mode=0620,ptmxmode=0666
mnt tmpfs tmpfs /dev/shm mode=1777,nosuid,nodev
mnt mqueue mqueue /dev/mqueue nosuid,nodev,noexec
mnt tmpfs tmpfs /run mode=0755,nosuid,nodev
mnt tmpfs tmpfs /tmp mode=1777,nosuid,nodev
mnt tmpfs tmpfs /var/tmp mode=1777,nosuid,nodev
mnt cgroup2 cgroup2 /sys/fs/cgroup nosuid,nodev,noexec
exec < /dev/null > /dev/console 2>&1

say "mounted; kernel $(uname -r)"
modprobe -q 9pnet_virtio
modprobe -q 9p
if ! mnt 9p ipclab-in /ipclab/in trans=virtio,version=9p2000.L,ro,cache=loose ||
        ! mnt 9p ipclab-out /ipclab/out trans=virtio,version=9p2000.L,msize=262144; then
        say "cannot mount the 9p shares"
        off
fi
busybox ip link set lo up

while IFS= read -r line; do
        case "$line" in
        IPCLAB_*=*)
                name=${line%%=*}
                [[ $name =~ ^[A-Z0-9_]+$ ]] && export "$name=${line#*=}"
                ;;
        esac
done < /ipclab/in/env

mapfile -d '' -t args < /ipclab/in/args
cd /ipclab/out || off
say "running: ${args[*]}"
# through a pipe: the inner run sees no terminal, and prints no progress bar
"${args[@]}" 2>&1 | cat
status=${PIPESTATUS[0]}
say "exit status $status"
echo "$status" > /ipclab/out/status.tmp && mv /ipclab/out/status.tmp /ipclab/out/status
off
