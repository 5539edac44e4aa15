# bench-*: side-by-side benchmarks that print a ratio; never pass/fail on time.
# bench-overhead: OVERHEAD_ARGS='ROUNDS LOOPS BASE' also runs another
# ipclab binary BASE, A B A B, and prints the per-round ratios.
.PHONY: bench-overhead
bench-overhead: $(IPCLAB)
	@bench/overhead.sh $(OVERHEAD_ARGS)

.PHONY: bench-dbus
bench-dbus: $(IPCLAB)
	@bench/dbus-reference.sh

# bench-window: the fixed cost of a one-way repetition, this tree's runner
# beside the one before issue 9's window fix (WINDOW_ARGS='PAIRS BASE'), and
# the fixed_ns it measures per repetition; it prints the machine's load and
# refuses to run on a loaded machine unless WINDOW_LOADED=1 (then every
# line says LOADED).
.PHONY: bench-window
bench-window: $(IPCLAB)
	@bench/window.sh $(WINDOW_ARGS)

# bench-peers: seed 004's and seed 001's workloads written against their own
# libraries (sdbus-c++, GDBus), beside the matching ipclab cells.
CXX ?= c++
PEERS_DIR := $(BUILD)/peers
PEERS_WFLAGS := -Wall -Wextra -Werror
PEER_SDBUS := $(PEERS_DIR)/sdbus-array
PEER_GDBUS := $(PEERS_DIR)/gdbus-strings

$(PEER_SDBUS): bench/peers/sdbus-array.cpp
	@pkg-config --exists sdbus-c++ || { echo "bench-peers: sdbus-c++ is missing (apt-get install libsdbus-c++-dev)" >&2; exit 2; }
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CXX     $@")
	$(Q)$(CXX) -std=c++17 $(PEERS_WFLAGS) $(CFLAGS) $$(pkg-config --cflags sdbus-c++) -o $@.tmp.$$$$ $< \
		$$(pkg-config --libs sdbus-c++) && mv $@.tmp.$$$$ $@

$(PEER_GDBUS): bench/peers/gdbus-strings.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) -std=c17 -D_GNU_SOURCE $(PEERS_WFLAGS) $(CFLAGS) $$(pkg-config --cflags gio-2.0) -o $@.tmp.$$$$ $< \
		$$(pkg-config --libs gio-2.0) && mv $@.tmp.$$$$ $@

.PHONY: bench-peers peers
peers: $(PEER_SDBUS) $(PEER_GDBUS)

# make bench-peers [PEERS_ARGS='...']: see bench/peers.sh for the arguments.
bench-peers: $(IPCLAB) peers
	@bench/peers.sh $(PEERS_ARGS)

# The peer programs' own test (TAP): tiny counts, traffic checked with dbus-monitor.
.PHONY: bench-peers-test
bench-peers-test: $(IPCLAB) peers
	@bench/peers/test-peers.sh

# bench-estimate: for every experiment file, the estimate of its run (the
# model alone, and calibrated from every other experiment's recorded runs:
# leave-one-out) beside the span its committed data/EXP/meta.ini recorded,
# and their ratios (`ipclab estimate --recorded`, harness/measure/estimate.h); it
# fails when a calibrated ratio lies outside 0.8 to 1.25.  No measurement:
# it reads data/ only.
.PHONY: bench-estimate
bench-estimate: $(IPCLAB)
	$(Q)$(IPCLAB) estimate --recorded --data $(DATADIR) $(EXPERIMENT_FILES)
