# deps: the Debian 12 packages ipclab needs.  As root, missing ones are
# installed with apt-get; otherwise the exact command is printed.  Nix
# users: `nix-shell environment.nix` gives the same toolchain.

# Building the harness and the paper from committed data.
DEPS_BUILD := build-essential pkg-config libglib2.0-dev libdbus-1-dev libsystemd-dev \
	dbus dbus-broker gnuplot-nox latexmk texlive-latex-base texlive-latex-recommended \
	texlive-fonts-recommended
# Running the whole test suite and the benchmarks against reference tools.
DEPS_CHECK := $(DEPS_BUILD) dbus-tests hyperfine linux-perf util-linux clang libclang-rt-14-dev

.PHONY: deps deps-check deps-check-test
deps:
	@mk/deps.sh install $(sort $(DEPS_CHECK) $(DEPS_ENV))

# Checked before every build: fails with the command to run when a
# package is missing and we are not root.
deps-check:
	@mk/deps.sh ensure $(DEPS_BUILD)

deps-check-test:
	@mk/deps.sh ensure $(sort $(DEPS_CHECK) $(DEPS_ENV))
