#!/bin/bash
# test-plugin.sh: transport plugins through the command line.  A study of
# the test's own (a temporary directory: experiments/, transports/ with
# the plugins mk/plugins.mk builds, build/tests/plugins/): `ipclab check`
# and `ipclab run` refuse each unfit plugin with exit status 2, naming its
# file and what is wrong (dlerror's text when it does not load), and `run`
# writes nothing; sound ones are measured beside pipe; `ipclab list` there
# shows every plugin of the path with its state, a refused one with its
# reason, and exits 2; meta.ini says what each plugin was (file, SHA-256,
# version, libraries), and one rebuilt with another version string makes
# the data stale though the experiment file is the same.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tmp=$(mktemp -d)
trap '[ -n "${KEEP-}" ] || rm -rf "$tmp"' EXIT
ipclab=$PWD/harness/ipclab
built=$PWD/build/tests/plugins
if [ ! -x "$ipclab" ] || [ ! -f "$built/faulty-ok.so" ]; then
        not_ok "the harness and the test plugins are built (make harness tests)"
        echo "1..$n"
        exit 1
fi
study=$tmp/study
mkdir -p "$study/experiments" "$study/transports"
for f in "$built"/*.so; do ln -s "$f" "$study/transports/"; done

experiment() {   # experiment NAME TRANSPORTS [MORE KEYS]
        printf '[experiment]\ntitle=%s\ntransport=%s\ncount=50\nrepeat=1\nwarmup=2\n%s' "$1" "$2" "${3-}" \
                > "$study/experiments/$1.ini"
}

# One refusal of each kind, by check and by run.
while IFS='|' read -r kind item says; do
        experiment bad "$item;pipe"
        file=$study/transports/faulty-$kind.so
        (cd "$study" && "$ipclab" check experiments/bad.ini) > "$tmp/check.out" 2> "$tmp/check.err"; rc=$?
        check "check refuses faulty-$kind (status $rc): names $file and says '$says'" \
                '[ $rc -eq 2 ] && grep -qF "$file" "$tmp/check.err" && grep -qF "$says" "$tmp/check.err"' ||
                sed 's/^/# /' "$tmp/check.err"
        (cd "$study" && "$ipclab" run --out "$study/data" experiments/bad.ini) > "$tmp/run.out" 2> "$tmp/run.err"; rc=$?
        check "run refuses faulty-$kind (status $rc) before measuring: no data" \
                '[ $rc -eq 2 ] && grep -qF "$file" "$tmp/run.err" && [ ! -e "$study/data/bad" ]' ||
                sed 's/^/# /' "$tmp/run.err"
done <<'LIST'
abi|faulty-abi|it is built for ABI 2.0 of ipclab/transport.h
minor|faulty-minor|newer than this ipclab's 1.0
no-send|faulty-no-send|it has no send() hook
dup|plugin:transports/faulty-dup.so|its name 'pipe' is taken by one of ipclab's own transports
undefined|faulty-undefined|it cannot be loaded: /
undefined|faulty-undefined|undefined symbol: ipclab_test_nothing_defines_this
no-symbol|faulty-no-symbol|it exports no ipclab_transport_v1
crash-unavailable|faulty-crash-unavailable|killed by signal 11 (Segmentation fault) in its unavailable() hook
LIST

# A sound plugin runs beside pipe, by name and by path.
experiment good "faulty-ok;plugin:transports/seqpair.so;pipe"
(cd "$study" && "$ipclab" run --out "$study/data" experiments/good.ini) > "$tmp/good.out" 2>&1; rc=$?
check "run measures faulty-ok and seqpair beside pipe (status $rc)" \
        '[ $rc -eq 0 ] && [ "$(tsv_cols "$study/data/good/samples.tsv" transport status | sort | tr "\t\n" ": ")" = \
         "faulty-ok:ok pipe:ok seqpair:ok " ]' || sed 's/^/# /' "$tmp/good.out"

# ipclab list in the study.
(cd "$study" && "$ipclab" list) > "$tmp/list.out" 2> "$tmp/list.err"; rc=$?
check "list there exits 2: some plugin of the path is refused (status $rc)" '[ $rc -eq 2 ]'
check "list shows seqpair ok, with its file, version and ABI" \
        'grep -qE "^seqpair +kernel +ok " "$tmp/list.out" &&
         grep -qF "from: $study/transports/seqpair.so (version 1.0, ABI 1.0)" "$tmp/list.out"' ||
        sed 's/^/# /' "$tmp/list.out"
check "list shows faulty-abi refused, saying why, also on stderr" \
        'grep -qE "^faulty-abi +- +refused" "$tmp/list.out" && grep -qF "built for ABI 2.0" "$tmp/list.out" &&
         grep -qF "ipclab: plugin $study/transports/faulty-abi.so: it is built for ABI 2.0" "$tmp/list.err"'
check "list shows the plugin path" 'grep -qF "plugin path: $study/transports" "$tmp/list.out"'
mkdir -p "$tmp/clean"
(cd "$tmp/clean" && "$ipclab" list) > /dev/null 2>&1; rc=$?
check "list without plugins exits 0 (status $rc)" '[ $rc -eq 0 ]'

# What meta.ini says of a plugin, and a rebuilt plugin makes the data stale.
meta=$study/data/good/meta.ini
check "meta.ini records seqpair's file, SHA-256, version and the libraries it links" \
        'grep -qxF "[plugin seqpair]" "$meta" && grep -qxF "path=$study/transports/seqpair.so" "$meta" &&
         grep -qx "sha256=$(sha256sum < "$study/transports/seqpair.so" | cut -d" " -f1)" "$meta" &&
         grep -qx "version=1.0" "$meta" && grep -q "^needed=libc.so.6 => /" "$meta"' ||
        sed -n '/^\[plugin/,/^$/s/^/# /p' "$meta"
current() { (cd "$study" && IPCLAB=$ipclab "$OLDPWD/mk/data-current.sh" experiments/good.ini data/good/meta.ini); }
check "mk/data-current.sh finds the data current" current
before=$("$ipclab" check --config-hash "$study/experiments/good.ini")
rm "$study/transports/seqpair.so"
sed 's/\.version = "1\.0"/.version = "1.1"/' examples/transports/seqpair.c > "$tmp/seqpair.c"
cc -shared -fPIC -Iinclude -o "$study/transports/seqpair.so" "$tmp/seqpair.c"
after=$("$ipclab" check --config-hash "$study/experiments/good.ini")
check "seqpair rebuilt with version 1.1: another configuration hash" '[ -n "$after" ] && [ "$before" != "$after" ]'
check "... and mk/data-current.sh finds the data stale, its experiment file unchanged" '! current'

echo "1..$n"
[ "$failed" -eq 0 ]
