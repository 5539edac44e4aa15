# mk/install.mk: `make install PREFIX=... [DESTDIR=...]` puts ipclab and
# what a study outside this repository needs under PREFIX:
#   bin/ipclab
#   share/ipclab/mk/            mk/study.mk and the steps it includes, for a
#                               study's Makefile (mk/standalone.mk)
#   share/ipclab/plots/         common.gp, the house style of every figure, and
#                               report-ratio.gp, a figure of the reviewer's report
#   share/ipclab/paper/         ipclab.sty
#   share/ipclab/env/           the image recipe and its scripts (image.recipe,
#                               build-image.sh, guest-init.sh; ssh-container.sh):
#                               `ipclab run --env nspawn|vm` finds them there,
#                               and a study's `make env` builds the images
#                               with them (mk/env.mk, ENV_DIR)
#   share/ipclab/src/           the harness's sources (Makefile, mk/, include/,
#                               harness/ but its tests): an SSH or Slurm
#                               target that cannot run bin/ipclab as it is
#                               builds it there from these (harness/place/remote.c)
# The numbers a hand-written section quotes, the methods text and the data
# of a hand-drawn figure are the binary's business (`ipclab numbers`,
# `ipclab methods`, `ipclab select`): nothing else is needed for them.
#   share/ipclab/template/      what `ipclab init DIR` copies into a new study
#                               (transports/pipe-packet.c: a plugin of its own)
#   include/ipclab/transport.h  the transport plugin ABI (mk/plugins.mk)
#   lib/pkgconfig/ipclab.pc     pkg-config --cflags ipclab; its variable
#                               plugindir is lib/ipclab/transports
#   lib/ipclab/transports/      the example plugins built here, found by
#                               `transport=NAME` in every study
#   share/ipclab/examples/transports/   their sources
# `ipclab init` finds share/ipclab beside the directory of its binary
# (../share/ipclab), and ipclab its plugins in ../lib/ipclab/transports,
# so PREFIX is compiled into nothing (ipclab.pc names it, as pkg-config
# needs); DESTDIR only stages the files (for packaging) and is not part
# of any path they name.  `make uninstall PREFIX=...` removes them again.

PREFIX ?= /usr/local
DESTDIR ?=
INSTALL ?= install
INSTALL_BIN = $(DESTDIR)$(PREFIX)/bin
INSTALL_SHARE = $(DESTDIR)$(PREFIX)/share/ipclab
INSTALL_INCLUDE = $(DESTDIR)$(PREFIX)/include/ipclab
INSTALL_LIB = $(DESTDIR)$(PREFIX)/lib
INSTALL_MK := mk/study.mk mk/standalone.mk mk/data.mk mk/transports.mk mk/plots.mk mk/paper.mk mk/verify.mk \
	mk/env.mk
INSTALL_ENV := harness/place/env/image.recipe harness/place/env/build-image.sh harness/place/env/guest-init.sh \
	harness/place/env/ssh-container.sh
# The sources a target builds the harness from: what `make harness` reads.
INSTALL_SRC := Makefile $(wildcard mk/*) $(wildcard include/ipclab/*.h) \
	$(wildcard $(foreach d,$(HARNESS_DIRS),harness/$d/*.c harness/$d/*.h harness/$d/*.cpp) \
	harness/place/env/*.sh harness/place/env/*.recipe)
# ipclab.pc's version: the ABI's, from the header.
ABI_VERSION = $(shell sed -n 's/^\#define IPCLAB_TRANSPORT_ABI_MAJOR //p' include/ipclab/transport.h).$(shell \
	sed -n 's/^\#define IPCLAB_TRANSPORT_ABI_MINOR //p' include/ipclab/transport.h)
INSTALL_MK_EXEC := mk/data-current.sh

.PHONY: install uninstall
install: $(IPCLAB) $(INSTALLED_PLUGINS)
	$(Q)test -n "$(PREFIX)" || { echo "make install: PREFIX is empty" >&2; exit 2; }
	@echo "  INSTALL $(DESTDIR)$(PREFIX)"
	$(Q)$(INSTALL) -d $(INSTALL_BIN) $(INSTALL_SHARE)/mk $(INSTALL_SHARE)/plots $(INSTALL_SHARE)/paper \
		$(INSTALL_INCLUDE) $(INSTALL_LIB)/pkgconfig $(INSTALL_LIB)/ipclab/transports \
		$(INSTALL_SHARE)/examples/transports
	$(Q)$(INSTALL) -m 644 include/ipclab/transport.h $(INSTALL_INCLUDE)/
	$(Q)sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@VERSION@|$(ABI_VERSION)|' mk/ipclab.pc.in \
		> $(INSTALL_LIB)/pkgconfig/ipclab.pc.tmp && mv $(INSTALL_LIB)/pkgconfig/ipclab.pc.tmp $(INSTALL_LIB)/pkgconfig/ipclab.pc
	$(Q)$(if $(INSTALLED_PLUGINS),$(INSTALL) -m 755 $(INSTALLED_PLUGINS) $(INSTALL_LIB)/ipclab/transports/)
	$(Q)$(INSTALL) -m 644 $(EXAMPLE_SOURCES) $(INSTALL_SHARE)/examples/transports/
	$(Q)$(INSTALL) -m 755 $(IPCLAB) $(INSTALL_BIN)/ipclab
	$(Q)$(INSTALL) -m 644 $(INSTALL_MK) $(INSTALL_SHARE)/mk/
	$(Q)$(INSTALL) -m 755 $(INSTALL_MK_EXEC) $(INSTALL_SHARE)/mk/
	$(Q)$(INSTALL) -m 644 plots/common.gp plots/report-ratio.gp $(INSTALL_SHARE)/plots/
	$(Q)$(INSTALL) -m 644 paper/ipclab.sty $(INSTALL_SHARE)/paper/
	$(Q)$(INSTALL) -d $(INSTALL_SHARE)/env
	$(Q)$(INSTALL) -m 755 $(INSTALL_ENV) $(INSTALL_SHARE)/env/
	$(Q)rm -rf $(INSTALL_SHARE)/src
	$(Q)for f in $(INSTALL_SRC); do \
		mode=644; [ -x "$$f" ] && mode=755; \
		$(INSTALL) -D -m $$mode "$$f" "$(INSTALL_SHARE)/src/$$f" || exit 1; done
	$(Q)rm -rf $(INSTALL_SHARE)/template
	$(Q)cd template && find . -type f | while read -r f; do \
		$(INSTALL) -D -m 644 "$$f" "$(abspath $(INSTALL_SHARE))/template/$$f" || exit 1; done

uninstall:
	rm -f $(INSTALL_BIN)/ipclab $(INSTALL_LIB)/pkgconfig/ipclab.pc
	rm -rf $(INSTALL_SHARE) $(INSTALL_INCLUDE) $(INSTALL_LIB)/ipclab
