# mk/fresh.mk: `make check-fresh`, the README's first command on a fresh
# Debian 12 machine: harness/tests/test-fresh.sh, counted like `make check`.
# Needs root, debootstrap, systemd-nspawn and Debian's mirror; otherwise
# its tests are skipped with the reason.  About 10 min the first time, less
# with the cache (${IPCLAB_CACHE:-~/.cache/ipclab}/) warm.

.PHONY: check-fresh
check-fresh:
	$(Q)harness/tests/run-tests harness/tests/test-fresh.sh
