# ipclab: experiment files -> raw samples -> figures -> paper.
#
#   make all                 build paper/paper.pdf (runs experiments whose data is missing)
#   make check               the whole test suite; ends with "N passed, N failed, N skipped"
#   make check-fresh         make all in a fresh clone on a minimal Debian 12 (root, cached)
#   make run EXP=name [PROFILE=quick] [ENV=host|nspawn|vm] [RESUME=1]
#            [HOSTS="ssh://USER@HOST[:PORT] ..."] [SLURM=PARTITION [NODES=N]]
#                            rerun one experiment into data/ (here, on SSH targets or
#                            on a Slurm partition) and rebuild what depends on it
#   make reproduce [FIG=EXP-NAME|EXP] [PROFILE=quick]
#                            rerun every experiment (or those behind one figure) into build/repro/,
#                            then the reviewer's report, build/repro/report.pdf (make report)
#   make reproduce-estimate  only the estimate of how long make reproduce takes, and how it was made
#   make verify              check every [claim] on data/ (and build/repro/ when it exists);
#                            fails when a claim fails
#   make deps                install what is missing (as root), else print the command
#   make bench-overhead      ipclab's pipe round trip beside `perf bench sched pipe`
#   make bench-window        the fixed cost of a one-way repetition, old runner beside new
#   make bench-peers         seeds 004 and 001 in their own libraries beside ipclab's cells
#   make bench-estimate      every experiment's estimated duration beside the one data/ recorded
#   make install PREFIX=dir [DESTDIR=stage]
#                            install ipclab and what a study needs (mk/install.mk);
#                            `ipclab init DIR` then starts a study
#   make clean               remove build/ and the harness binaries
#
# Each step lives in mk/*.mk (mk/study.mk: those a study made by
# `ipclab init` shares); outputs are written to a temporary file and
# renamed, so an interrupted make never leaves a half file behind.
# `make V=1` shows every command.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
SHELL := /bin/bash

BUILD := build
IPCLAB := harness/ipclab
PROFILE ?=
ENV ?= host
# The prefix of every recipe line: silent unless V=1.
Q := $(if $(V),,@)

# Where the shared steps and files are (mk/study.mk describes these).
IPCLAB_SHARE := .

# experiments/machines.ini compares two machines: this host and a
# systemd-nspawn container on it reached over SSH (harness/place/env/
# ssh-container.sh with: as root, with the nspawn image of make
# env-nspawn).  HOSTS= on the command line measures it where it says.
DATA_WITH_machines = $(if $(HOSTS),,harness/place/env/ssh-container.sh with ipclab-ct)

include mk/deps.mk
include mk/harness.mk
include mk/study.mk
include mk/env.mk
include mk/check.mk
include mk/fuzz.mk
include mk/plugins.mk
include mk/bench.mk
include mk/fresh.mk
include mk/install.mk

.PHONY: all clean
all: deps-check paper

clean:
	rm -rf $(BUILD) $(IPCLAB) paper/generated paper/paper.pdf
