# mk/fresh.mk: the README's commands on a fresh Debian 12 machine, counted
# like `make check` (harness/tests/test-fresh.sh):
#
#   make check-fresh              `make all` in a fresh clone of HEAD, as a
#                                 user (fails cleanly with the apt-get line)
#                                 and as root (builds the paper)
#   make check-fresh-full [BUSY=N]  the same, then `make check` there, then
#                                 N times `make check-busy` (default 0)
#
# Needs root, debootstrap, systemd-nspawn and Debian's mirror; otherwise
# its tests are skipped with the reason.  About 10 min the first time, less
# with the cache (${IPCLAB_CACHE:-~/.cache/ipclab}/) warm; the full suite
# adds what `make check` takes, and more: it installs everything it needs
# first.  It tests the committed HEAD, not the work tree.

BUSY ?= 0
# BUSY with every digit taken out: empty when it is a number.
BUSY_NOT_DIGITS = $(strip $(foreach d,0 1 2 3 4 5 6 7 8 9,$(eval BUSY_LEFT := $(subst $(d),,$(BUSY_LEFT))))$(BUSY_LEFT))
BUSY_LEFT = $(BUSY)
.PHONY: check-fresh check-fresh-full
check-fresh:
	$(Q)harness/tests/run-tests harness/tests/test-fresh.sh

# One test that runs the whole suite (several times): its own time limit.
check-fresh-full:
	$(if $(BUSY_NOT_DIGITS),$(error BUSY=$(BUSY): a number of make check-busy runs))
	$(Q)IPCLAB_FRESH_SUITE=1 IPCLAB_FRESH_BUSY=$(BUSY) \
		harness/tests/run-tests --time-limit $$(( ($(BUSY) + 2) * 3600 )) harness/tests/test-fresh.sh
