# mk/install.mk: `make install PREFIX=... [DESTDIR=...]` puts ipclab and
# what a study outside this repository needs under PREFIX:
#   bin/ipclab
#   share/ipclab/mk/            mk/study.mk and the steps it includes, for a
#                               study's Makefile (mk/standalone.mk)
#   share/ipclab/plots/         common.gp, the house style of every figure, and
#                               report-ratio.gp, a figure of the reviewer's report
#   share/ipclab/paper/         ipclab.sty
# The numbers a hand-written section quotes, the methods text and the data
# of a hand-drawn figure are the binary's business (`ipclab numbers`,
# `ipclab methods`, `ipclab select`): nothing else is needed for them.
#   share/ipclab/template/      what `ipclab init DIR` copies into a new study
# `ipclab init` finds share/ipclab beside the directory of its binary
# (../share/ipclab), so PREFIX is never compiled in; DESTDIR only stages
# the files (for packaging) and is not part of any path they name.
# `make uninstall PREFIX=...` removes them again.

PREFIX ?= /usr/local
DESTDIR ?=
INSTALL ?= install
INSTALL_BIN = $(DESTDIR)$(PREFIX)/bin
INSTALL_SHARE = $(DESTDIR)$(PREFIX)/share/ipclab
INSTALL_MK := mk/study.mk mk/standalone.mk mk/data.mk mk/plots.mk mk/paper.mk mk/verify.mk mk/outputs.awk
INSTALL_MK_EXEC := mk/data-current.sh

.PHONY: install uninstall
install: $(IPCLAB)
	$(Q)test -n "$(PREFIX)" || { echo "make install: PREFIX is empty" >&2; exit 2; }
	@echo "  INSTALL $(DESTDIR)$(PREFIX)"
	$(Q)$(INSTALL) -d $(INSTALL_BIN) $(INSTALL_SHARE)/mk $(INSTALL_SHARE)/plots $(INSTALL_SHARE)/paper
	$(Q)$(INSTALL) -m 755 $(IPCLAB) $(INSTALL_BIN)/ipclab
	$(Q)$(INSTALL) -m 644 $(INSTALL_MK) $(INSTALL_SHARE)/mk/
	$(Q)$(INSTALL) -m 755 $(INSTALL_MK_EXEC) $(INSTALL_SHARE)/mk/
	$(Q)$(INSTALL) -m 644 plots/common.gp plots/report-ratio.gp $(INSTALL_SHARE)/plots/
	$(Q)$(INSTALL) -m 644 paper/ipclab.sty $(INSTALL_SHARE)/paper/
	$(Q)rm -rf $(INSTALL_SHARE)/template
	$(Q)cd template && find . -type f | while read -r f; do \
		$(INSTALL) -D -m 644 "$$f" "$(abspath $(INSTALL_SHARE))/template/$$f" || exit 1; done

uninstall:
	rm -f $(INSTALL_BIN)/ipclab
	rm -rf $(INSTALL_SHARE)
