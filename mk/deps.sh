#!/bin/bash
# mk/deps.sh ensure|install|check PACKAGE...
# Installs the Debian packages that are missing when run as root; otherwise
# prints the exact apt-get command and fails.  check never installs: it
# prints the command and fails, root or not (for a machine that is not
# ours to change, such as an SSH target of `ipclab run --host`).
set -euo pipefail
mode=$1; shift
missing=()
for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
                missing+=("$p")
        fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
        echo "deps: missing ${missing[*]}, and this is not a Debian system: use \`nix-shell environment.nix\`" >&2
        exit 1
fi
if [ "$(id -u)" -ne 0 ] || [ "$mode" = check ]; then
        echo "deps: missing packages on $(hostname); run as root:" >&2
        echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
        echo "  (or use \`nix-shell environment.nix\`)" >&2
        exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
