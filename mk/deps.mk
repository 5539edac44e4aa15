# deps: the Debian 12 packages ipclab needs.  As root, missing ones are
# installed with apt-get; otherwise the exact command is printed.  Nix
# users: `nix-shell environment.nix` gives the same toolchain.

# Building the harness and the paper from committed data, and rerunning
# the paper's own experiments (`make reproduce`): the paper's claims table
# loads every experiment file, and its cells are measured with hyperfine
# (shell-calls), QtDBus 5 (qtbase5-dev) and sdbus-c++ (libsdbus-c++-dev),
# so these are here too, pdftotext (poppler-utils), with which `make all`
# reads the finished paper back (`ipclab paper-check`), and the messaging libraries of ipclab's library
# transports (zeromq: libzmq3-dev, nng: libnng-dev, grpc:
# libgrpc++-dev); mk/harness.mk builds those and the C++
# transports after deps-check has installed them (build/config.mk).  With
# CXX_TRANSPORTS=no the C++ ones are not built, `ipclab list` says so
# (as it says of a library transport whose library is missing), and the
# paper is still built from the committed data, which holds their cells.
# DEPS_HARNESS is what building and running the harness alone needs: what
# an SSH target of `ipclab run --host` must have (harness/place/remote.c reads
# this line there, so it stays one line).
DEPS_HARNESS := build-essential pkg-config libglib2.0-dev libdbus-1-dev libsystemd-dev zlib1g-dev liburing-dev dbus dbus-broker
DEPS_BUILD := $(DEPS_HARNESS) qtbase5-dev libsdbus-c++-dev libzmq3-dev libnng-dev libgrpc++-dev hyperfine gnuplot-nox latexmk texlive-latex-base \
	texlive-latex-recommended texlive-fonts-recommended poppler-utils
# Running the whole test suite and the benchmarks against reference tools:
# dbus-test-tool, perf, clang for the fuzzer and the sanitizers,
# stress-ng for `make check-busy`, sockperf and rt-tests (pmqtest) for
# bench-peers' kernel paths; test-ssh.sh and test-slurm.sh start a real sshd and a one-node
# Slurm.
DEPS_CHECK := $(DEPS_BUILD) dbus-tests linux-perf util-linux clang libclang-rt-14-dev stress-ng \
	sockperf rt-tests \
	openssh-server openssh-client slurmctld slurmd slurm-client munge

.PHONY: deps deps-check deps-check-test
deps:
	$(Q)mk/deps.sh install $(sort $(DEPS_CHECK) $(DEPS_ENV))

# Checked before every build: fails with the command to run when a
# package is missing and we are not root.  DEPS_MODE=check never installs
# (it prints the command even as root), DEPS_FOR=harness checks only
# DEPS_HARNESS: how an SSH target builds (`make DEPS_MODE=check
# DEPS_FOR=harness harness`), where installing is its owner's decision.
# mk/harness.mk runs the same check while make reads its files (before the
# build configuration is decided); then this target has nothing to do.
DEPS_MODE ?= ensure
DEPS_CHECK_CMD = mk/deps.sh $(DEPS_MODE) $(if $(filter harness,$(DEPS_FOR)),$(DEPS_HARNESS),$(DEPS_BUILD))
deps-check:
	$(if $(DEPS_CHECKED),,$(Q)$(DEPS_CHECK_CMD))

deps-check-test:
	$(Q)mk/deps.sh ensure $(sort $(DEPS_CHECK) $(DEPS_ENV))
