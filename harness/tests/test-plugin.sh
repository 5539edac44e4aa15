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
# the data stale though the experiment file is the same; one that
# crashes in a hook (send, the server's open) fails its cell with the
# signal named, one that hangs is ended by the cell's time limit, and
# the other cells are measured; so does one that crashes or hangs in a
# hook of the process that forks both sides (prepare(), its close(),
# cleanup()), and nothing of it is left.  Then a study outside this tree as a user
# makes one: `make install PREFIX=...` (the header, ipclab.pc, the example
# plugins), `ipclab init`, a plugin of the user's own built with the
# installed pkg-config file beside the study's example, a C++ one
# (dgrampair.cpp, by the study's rule for NAME.cpp) and ipclab's own
# zeromq (where built), measured beside pipe and libdbus with a claim and a figure by
# `make all`, which gives the paper; a second
# `make all` measures nothing, a plugin rebuilt to the same bytes neither,
# one with another version string everything it measured.
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
minor|faulty-minor|newer than this ipclab's 1.2
old-threads|faulty-old-threads|it sets flags 0x100, unknown to ABI 1.0
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

# Plugins that go wrong in a hook while measuring: each fails its own
# cell, saying why (the signal of a crash, the cell's time limit of a
# hang), and the other cells are measured; run exits 1 (cells failed).
experiment broken "faulty-crash-send;faulty-crash-open;faulty-hang-recv;pipe" "timeout=1s
"
(cd "$study" && "$ipclab" run --out "$study/data" experiments/broken.ini) > "$tmp/broken.out" 2>&1; rc=$?
why() { tsv_cols "$study/data/broken/samples.tsv" transport status why 2>/dev/null | awk -F'\t' -v t="$1" '$1 == t { print $2 ": " $3 }'; }
check "run with crashing and hanging plugins exits 1, every cell in samples.tsv (status $rc)" \
        '[ $rc -eq 1 ] && [ "$(tsv_cols "$study/data/broken/samples.tsv" transport | wc -l)" -eq 4 ]' ||
        sed 's/^/# /' "$tmp/broken.out"
check "a crash in send() fails its cell naming the signal ($(why faulty-crash-send))" \
        '[ "$(why faulty-crash-send)" = "failed: the client killed by signal 11 (Segmentation fault) before reporting" ]'
check "a crash in the server's open() fails its cell naming the signal ($(why faulty-crash-open))" \
        '[ "$(why faulty-crash-open)" = "failed: the server killed by signal 11 (Segmentation fault) before it was ready" ]'
check "a server hanging in recv() is ended by the cell's time limit ($(why faulty-hang-recv))" \
        '[ "$(why faulty-hang-recv)" = "failed: exceeded the time limit of 1 s" ]'
check "... and pipe, beside them, is measured ($(why pipe))" '[ "$(why pipe)" = "ok: -" ]'

# Plugins that go wrong in a hook of the process that forks both sides
# (prepare(), its close(), cleanup()): ipclab runs those in a supervisor
# process of the repetition's own, so each fails only its cell, naming the
# hook and the signal, or the time limit of a hang; pipe beside them is
# measured whole, and nothing is left: no process (each run's own are
# found by the variable its wrapper sets), no private directory.
# In this order (seed=0): the sides of faulty-crash-close, killed as their
# supervisor dies, are long gone when ipclab ends.
experiment parent "faulty-crash-close;faulty-crash-prepare;faulty-crash-cleanup;faulty-hang-prepare;faulty-hang-cleanup;pipe" \
        "timeout=1s
seed=0
"
mkdir -p "$tmp/run"
owner=$tmp/parent-run
run_owned=$(owned "$owner" "$ipclab")
(cd "$study" && XDG_RUNTIME_DIR=$tmp/run TMPDIR=$tmp/run "$run_owned" run --out "$study/data" experiments/parent.ini) \
        > "$tmp/parent.out" 2>&1; rc=$?
why() { tsv_cols "$study/data/parent/samples.tsv" transport status why 2>/dev/null | awk -F'\t' -v t="$1" '$1 == t { print $2 ": " $3 }'; }
check "run with plugins crashing and hanging in the forking process's hooks exits 1, every cell in samples.tsv (status $rc)" \
        '[ $rc -eq 1 ] && [ "$(tsv_cols "$study/data/parent/samples.tsv" transport | wc -l)" -eq 6 ]' ||
        sed 's/^/# /' "$tmp/parent.out"
check "a crash in prepare() fails its cell naming the hook and the signal ($(why faulty-crash-prepare))" \
        '[ "$(why faulty-crash-prepare)" = "failed: prepare() killed by signal 11 (Segmentation fault)" ]'
check "a crash in the forking process's close() fails its cell naming the hook and the signal ($(why faulty-crash-close))" \
        '[ "$(why faulty-crash-close)" = "failed: close() in the forking process killed by signal 11 (Segmentation fault)" ]'
check "a crash in cleanup() fails its cell naming the hook and the signal ($(why faulty-crash-cleanup))" \
        '[ "$(why faulty-crash-cleanup)" = "failed: cleanup() killed by signal 11 (Segmentation fault)" ]'
check "a hang in prepare() is ended by the cell's time limit ($(why faulty-hang-prepare))" \
        '[ "$(why faulty-hang-prepare)" = "failed: prepare() exceeded the time limit of 1 s" ]'
check "a hang in cleanup() is ended by the cell's time limit ($(why faulty-hang-cleanup))" \
        '[ "$(why faulty-hang-cleanup)" = "failed: cleanup() exceeded the time limit of 1 s" ]'
pipe_row=$(tsv_cols "$study/data/parent/samples.tsv" transport status messages bytes_B lat_n elapsed_ns 2>/dev/null |
        awk -F'\t' '$1 == "pipe" { print $2, $3, $4, $5, ($6 > 0) }')
check "... and pipe, beside them, is measured whole: 50 messages, their bytes and latencies ($pipe_row)" \
        '[ "$pipe_row" = "ok 50 3200 50 1" ]'
check "... and nothing is left: no process of the run" '[ -z "$(owned_pids "$owner")" ]' ||
        ps -o pid,ppid,stat,args -p "$(owned_pids "$owner" | paste -sd,)" | sed 's/^/# /'
check "... no private directory" '[ -z "$(ls -A "$tmp/run")" ]' || ls -la "$tmp/run" | sed 's/^/# /'

# ipclab list in the study.
(cd "$study" && "$ipclab" list) > "$tmp/list.out" 2> "$tmp/list.err"; rc=$?
check "list there exits 2: some plugin of the path is refused (status $rc)" '[ $rc -eq 2 ]'
check "list shows seqpair ok, with its file, version and ABI" \
        'grep -qE "^seqpair +kernel +ok " "$tmp/list.out" &&
         grep -qF "from: $study/transports/seqpair.so (version 1.0, ABI 1.2)" "$tmp/list.out"' ||
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

# ---- A study outside this tree, as a user makes one ----
prefix=$tmp/prefix
make --no-print-directory install PREFIX="$prefix" > "$tmp/install.log" 2>&1; rc=$?
check "make install PREFIX=... succeeds (status $rc)" '[ $rc -eq 0 ]' || tail -20 "$tmp/install.log" | sed 's/^/# /'
abi=$(sed -n 's/^#define IPCLAB_TRANSPORT_ABI_MAJOR //p' include/ipclab/transport.h).$(sed -n \
        's/^#define IPCLAB_TRANSPORT_ABI_MINOR //p' include/ipclab/transport.h)
pc() { PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config "$@" ipclab; }
check "it installs include/ipclab/transport.h as it is here" \
        'cmp -s include/ipclab/transport.h "$prefix/include/ipclab/transport.h"'
check "ipclab.pc: the installed header's directory, plugindir, version $abi (the ABI's)" \
        '[ "$(pc --cflags | xargs)" = "-I$(cd "$prefix" && pwd -P)/include" ] &&
         [ "$(pc --variable=plugindir)" = "$(cd "$prefix" && pwd -P)/lib/ipclab/transports" ] &&
         [ "$(pc --modversion)" = "$abi" ]' || { pc --cflags; pc --variable=plugindir; pc --modversion; } 2>&1 | sed 's/^/# /'
check "the source tree's mk/ipclab-uninstalled.pc has the same version" \
        '[ "$(PKG_CONFIG_PATH=$PWD/mk pkg-config --modversion ipclab)" = "$abi" ]'
check "it installs the examples' sources and the plugins built here" \
        '[ -f "$prefix/share/ipclab/examples/transports/seqpair.c" ] &&
         [ -f "$prefix/share/ipclab/examples/transports/dgrampair.cpp" ] && [ -f "$prefix/lib/ipclab/transports/seqpair.so" ] &&
         [ -f "$prefix/share/ipclab/template/transports/pipe-packet.c" ]'
pstudy=$tmp/pstudy
"$prefix/bin/ipclab" init "$pstudy" > /dev/null 2>&1
check "ipclab init gives the study transports/pipe-packet.c and the rule that builds it" \
        '[ -f "$pstudy/transports/pipe-packet.c" ] && grep -q "^transports/%.so: transports/%.c" "$pstudy/Makefile" &&
         grep -qF "pkg-config --cflags ipclab" "$pstudy/Makefile"'
# A plugin of the user's own, from the installed example (the README's),
# named after it; and ipclab's own zeromq (a library's transport, built in
# where libzmq is), whose library's version meta.ini records.
cp "$prefix/share/ipclab/examples/transports/seqpair.c" "$pstudy/transports/"
# The C++ example, built by the study's rule for transports/NAME.cpp.
cp "$prefix/share/ipclab/examples/transports/dgrampair.cpp" "$pstudy/transports/"
zmq=
"$prefix/bin/ipclab" list 2>/dev/null | grep -q '^zeromq  *library  *ok ' && zmq=";zeromq"
cat > "$pstudy/experiments/plugins.ini" <<INI
[experiment]
title=Our own transports beside a pipe and libdbus
transport=pipe-packet;seqpair;dgrampair${zmq};pipe;libdbus
bus=p2p
size=64
pattern=roundtrip
count=200
repeat=5
warmup=10

[claim packets-beat-dbus]
text=A packet pipe's round trip beats a libdbus call
faster=transport=pipe-packet
slower=transport=libdbus
metric=roundtrip_latency
by=2
INI
(cd "$pstudy" && nice make all > "$tmp/all.log" 2>&1); rc=$?
check "make all in the study builds its plugins, measures and makes the paper (status $rc)" \
        '[ $rc -eq 0 ] && [ -f "$pstudy/transports/pipe-packet.so" ] && [ -f "$pstudy/transports/seqpair.so" ] &&
         [ -f "$pstudy/transports/dgrampair.so" ] && [ -s "$pstudy/paper/paper.pdf" ]' || tail -30 "$tmp/all.log" | sed 's/^/# /'
rows=$(tsv_cols "$pstudy/data/plugins/samples.tsv" transport status 2>/dev/null | sort | uniq -c |
        awk '{print $2 ":" $3 "x" $1}' | LC_ALL=C sort | tr '\n' ' ')
want=$(printf '%s:okx5\n' libdbus pipe-packet pipe seqpair dgrampair ${zmq:+zeromq} | LC_ALL=C sort | tr '\n' ' ')
check "every cell measured, the plugins' beside pipe and libdbus ($rows)" '[ "$rows" = "$want" ]'
text=$(pdftotext "$pstudy/paper/paper.pdf" - 2>/dev/null | tr -s ' \n' '  ')
check "the paper has the claim and the figure of the plugins' experiment" \
        'grep -qF "A packet pipe" <<<"$text" && [ -s "$pstudy/build/figures/plugins-main.pdf" ] &&
         grep -qE "Figure [0-9]+: [^:]*experiment plugins" <<<"$text"'
pmeta=$pstudy/data/plugins/meta.ini
check "meta.ini records both plugins of the study and where each came from" \
        'grep -qxF "path=$pstudy/transports/pipe-packet.so" "$pmeta" && grep -qxF "path=$pstudy/transports/seqpair.so" "$pmeta" &&
         grep -qx "sha256=$(sha256sum < "$pstudy/transports/pipe-packet.so" | cut -d" " -f1)" "$pmeta"'
if [ -n "$zmq" ]; then
        check "... and the libzmq the built-in zeromq says it uses" 'grep -q "^zeromq=libzmq [0-9]" "$pmeta"' ||
                sed -n '/^\[software/,/^$/s/^/# /p' "$pmeta"
else
        skip "the built-in zeromq's libzmq in meta.ini" "built without libzmq (libzmq3-dev)"
fi
(cd "$pstudy" && make all > "$tmp/again.log" 2>&1); rc=$?
check "a second make all measures nothing" '[ $rc -eq 0 ] && ! grep -q "^measuring" "$tmp/again.log"' ||
        sed 's/^/# /' "$tmp/again.log"
touch "$pstudy/transports/pipe-packet.c"
(cd "$pstudy" && make all > "$tmp/touched.log" 2>&1); rc=$?
check "a plugin rebuilt to the same bytes measures nothing" '[ $rc -eq 0 ] && ! grep -q "^measuring" "$tmp/touched.log"' ||
        sed 's/^/# /' "$tmp/touched.log"
sed -i 's/\.version = "1\.0"/.version = "1.1"/' "$pstudy/transports/pipe-packet.c"
(cd "$pstudy" && nice make all > "$tmp/changed.log" 2>&1); rc=$?
check "pipe-packet with another version string: make all measures its experiments again" \
        '[ $rc -eq 0 ] && grep -q "^measuring plugins" "$tmp/changed.log" && grep -q "^measuring example" "$tmp/changed.log" &&
         sed -n "/^\[plugin pipe-packet\]/,/^$/p" "$pmeta" | grep -qx "version=1.1"' || tail -10 "$tmp/changed.log" | sed 's/^/# /'

done_testing
