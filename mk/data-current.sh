#!/bin/bash
# mk/data-current.sh EXPERIMENT.ini META.ini
# Succeeds when the data META.ini describes is the measurement EXPERIMENT.ini
# asks for: META.ini records the SHA-256 of the file's bytes (this very
# version), or, when the bytes differ, the SHA-256 of what the file
# measures (`ipclab check --config-hash`, with the profile the data was
# measured with): an edited title, comment, claim or figure needs no new
# measurement; an edited count, size, repeat or seed does.  Without a
# built harness only the first test can be made, and the data is stale.
# Both files come with a study, untrusted: a FIFO, a device or a file
# over 1 MiB (what ipclab reads of either at most) is never read (a FIFO
# would hang make as it reads its makefiles); such data is not current.
set -eu
small_file() { [ -f "$1" ] && [ "$(stat -L -c %s -- "$1")" -le 1048576 ]; }
small_file "$1" && small_file "$2" || exit 1
want=$(sha256sum < "$1" | cut -d' ' -f1)
grep -qx "sha256=$want" "$2" && exit 0
ipclab=${IPCLAB:-harness/ipclab}
[ -x "$ipclab" ] || exit 1
have=$(sed -n 's/^config_sha256=//p' "$2" | head -n1)
[ -n "$have" ] || exit 1
profile=$(sed -n 's/^profile=//p' "$2" | head -n1)
args=()
[ -n "$profile" ] && [ "$profile" != default ] && args=(--profile "$profile")
cfg=$("$ipclab" check "${args[@]}" --config-hash "$1" 2>/dev/null) || exit 1
[ "$cfg" = "$have" ]
