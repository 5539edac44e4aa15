#!/bin/bash
# build-image.sh: builds (or reuses) the image an environment runs in.
#
#   build-image.sh hash           print the recipe hash
#   build-image.sh dir KIND       print where the image of KIND is (or would be)
#   build-image.sh build KIND     build it unless it is already complete;
#                                 print its directory
#
# KIND is nspawn (a root directory for systemd-nspawn) or vm (kernel, initrd
# and an ext4 root disk for qemu).  Everything the image holds comes from
# image.recipe beside this script.  The image goes to
#   ${IPCLAB_CACHE:-$HOME/.cache/ipclab}/images/<hash>/<KIND>/
# It is built in a temporary directory next to it and renamed into place
# once the file `complete` has been written into it, last: an interrupted
# build leaves only a temporary directory that no one takes for an image
# (and the next build removes).  Needs root, debootstrap and mke2fs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# IPCLAB_IMAGE_RECIPE: another recipe (harness/env/fresh.recipe, for
# harness/tests/test-fresh.sh); its hash names its images apart.
recipe=${IPCLAB_IMAGE_RECIPE:-$here/image.recipe}
cache=${IPCLAB_CACHE:-$HOME/.cache/ipclab}

die() {
        echo "build-image.sh: $*" >&2
        exit 1
}

recipe_hash() {
        cat "$recipe" "$here/build-image.sh" "$here/guest-init.sh" |
                sha256sum | cut -d' ' -f1
}

image_dir() {
        echo "$cache/images/$(recipe_hash)/$1"
}

# Unmounts whatever debootstrap left mounted below $1, then removes $1.
remove_tree() {
        local dir=$1 m
        [ -e "$dir" ] || return 0
        # deepest mount points first
        while read -r m; do
                umount -l "$m" 2>/dev/null || true
        done < <(awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts | sort -r)
        rm -rf --one-file-system "$dir"
}

debootstrap_into() {
        local root=$1 packages=$2
        mkdir -p "$cache/debs"
        debootstrap --variant="$VARIANT" --include="${packages// /,}" \
                --cache-dir="$cache/debs" "$SUITE" "$root" "$MIRROR"
        # leave no package lists or downloaded archives in the image
        rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin \
                "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log
        echo ipclab > "$root/etc/hostname"
        # mount points for the harness binary, the experiment and the results
        mkdir -p "$root/ipclab/bin" "$root/ipclab/in" "$root/ipclab/out"
        dpkg-query --admindir="$root/var/lib/dpkg" -W \
                -f '${Package}\t${Version}\n' > "$root/../manifest.txt"
}

build_nspawn() {
        local tmp=$1
        debootstrap_into "$tmp/rootfs" "$PACKAGES"
}

build_vm() {
        local tmp=$1 root=$1/rootfs kernel initrd
        debootstrap_into "$root" "$PACKAGES $VM_PACKAGES"
        install -m 0755 "$here/guest-init.sh" "$root/sbin/ipclab-init"
        kernel=$(ls "$root"/boot/vmlinuz-* | sort -V | tail -n 1)
        initrd=$root/boot/initrd.img-${kernel#"$root"/boot/vmlinuz-}
        [ -f "$kernel" ] && [ -f "$initrd" ] || die "no kernel or initrd in $root/boot"
        install -m 0644 "$kernel" "$tmp/vmlinuz"
        install -m 0644 "$initrd" "$tmp/initrd.img"
        echo "${kernel#"$root"/boot/vmlinuz-}" > "$tmp/kernel-version"
        # the root disk: an ext4 file system made from the tree, no loop
        # device or mount needed; the guest mounts it read-only
        mke2fs -q -t ext4 -L ipclab-root -m 0 -d "$root" "$tmp/root.img" "${VM_DISK_MB}M"
        remove_tree "$root"
}

build() {
        local kind=$1 dest tmp parent
        dest=$(image_dir "$kind")
        if [ -f "$dest/complete" ]; then
                echo "$dest"
                return 0
        fi
        [ "$(id -u)" = 0 ] || die "building an image needs root (debootstrap)"
        command -v debootstrap > /dev/null ||
                die "debootstrap not found: apt-get install debootstrap"
        command -v mke2fs > /dev/null || die "mke2fs not found: apt-get install e2fsprogs"
        parent=$(dirname "$dest")
        mkdir -p "$parent"
        # one build at a time (they share the package cache); the loser of
        # a race for the same image reuses the winner's
        exec 9> "$cache/images/.build.lock"
        flock 9
        if [ -f "$dest/complete" ]; then
                echo "$dest"
                return 0
        fi
        # leftovers of interrupted builds, and a directory without `complete`
        for old in "$parent/.$kind".*; do
                remove_tree "$old"
        done
        remove_tree "$dest"
        tmp=$(mktemp -d "$parent/.$kind.XXXXXX")
        chmod 0755 "$tmp"
        trap 'remove_tree "$tmp"' EXIT
        trap 'exit 130' INT TERM
        "build_$kind" "$tmp" >&2
        cp "$recipe" "$tmp/image.recipe"
        printf 'hash=%s\nkind=%s\nbuilt=%s\n' "$(recipe_hash)" "$kind" \
                "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$tmp/complete.tmp"
        sync -f "$tmp/complete.tmp"
        mv "$tmp/complete.tmp" "$tmp/complete"
        mv -T "$tmp" "$dest"
        trap - EXIT
        echo "$dest"
}

# shellcheck source=image.recipe
. "$recipe"

case "${1-}:${2-}" in
hash:)
        recipe_hash
        ;;
dir:nspawn | dir:vm)
        image_dir "$2"
        ;;
build:nspawn | build:vm)
        build "$2"
        ;;
*)
        echo "usage: build-image.sh hash | dir KIND | build KIND  (KIND: nspawn, vm)" >&2
        exit 2
        ;;
esac
