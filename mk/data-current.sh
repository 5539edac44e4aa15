#!/bin/bash
# mk/data-current.sh EXPERIMENT.ini META.ini
# Succeeds when META.ini records the SHA-256 of EXPERIMENT.ini: the data was
# measured from exactly this version of the file.
set -eu
[ -f "$2" ] || exit 1
want=$(sha256sum < "$1" | cut -d' ' -f1)
grep -qx "sha256=$want" "$2"
