#!/bin/bash
# test-peers.sh: the seed-workload peer programs of bench/peers/ (seed 004
# in sdbus-c++, seed 001 in GDBus) and bench/peers.sh, as part of make
# check: builds them, then runs bench/peers/test-peers.sh (TAP; timings are
# never judged, only the traffic each program makes and what it reports).
set -u
cd "$(dirname "$0")/../.."
if ! pkg-config --exists sdbus-c++; then
        echo "ok 1 - bench-peers programs # SKIP sdbus-c++ is not installed (apt-get install libsdbus-c++-dev)"
        echo "1..1"
        exit 0
fi
if ! make -s peers >build/peers-make.log 2>&1; then
        echo "not ok 1 - the peer programs build (make peers)"
        sed 's/^/# /' build/peers-make.log | tail -20
        echo "1..1"
        exit 1
fi
exec bash bench/peers/test-peers.sh
