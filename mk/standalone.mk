# mk/standalone.mk: the whole Makefile of a study made by `ipclab init`,
# whose own Makefile sets IPCLAB (the installed binary) and IPCLAB_SHARE
# (PREFIX/share/ipclab, where this file is) and includes it.
#
#   make all      paper/paper.pdf: every experiment file's figures, tables
#                 and section (measured first when its data is missing or stale)
#   make check [CHECK=holds|decided]
#                 every experiment file is valid, and on data/ every claim
#                 holds (CHECK=holds, the default) or every claim is decided,
#                 holds or fails (CHECK=decided): an inconclusive claim, or one
#                 without data, fails either
#   make run EXP=name [PROFILE=quick]    measure one experiment again
#   make reproduce, make verify          the reviewer's steps (mk/verify.mk)
#   make transports   the study's own transport plugins (transports/*.so)
#   make env, env-nspawn, env-vm   the container and VM images that
#                 `ENV=nspawn|vm` (or env= in a file) runs in (mk/env.mk;
#                 as root, cached outside the study)
#   make clean    remove build/, the plugins and what the paper is made of
# `make V=1` shows every command.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
SHELL := /bin/bash
PROFILE ?=
ENV ?= host
CHECK ?= holds
$(if $(filter-out holds decided,$(CHECK)),$(error CHECK=$(CHECK): holds or decided))

# `pkg-config --cflags ipclab` (the study's plugins, mk/transports.mk)
# finds the header of this study's ipclab first: an installed one's
# PREFIX/lib/pkgconfig/ipclab.pc, or a source tree's
# mk/ipclab-uninstalled.pc.
export PKG_CONFIG_PATH := $(IPCLAB_SHARE)/mk:$(abspath $(IPCLAB_SHARE)/../../lib/pkgconfig)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

include $(IPCLAB_SHARE)/mk/study.mk
# The image recipe and its scripts, installed beside the steps.
ENV_DIR := $(IPCLAB_SHARE)/env
include $(IPCLAB_SHARE)/mk/env.mk

.PHONY: all check clean
all: paper

check: $(IPCLAB_CODE) $(STUDY_TRANSPORTS)
	$(Q)test -n "$(EXPERIMENT_FILES)" || { echo "make check: no $(EXPDIR)/*.ini yet" >&2; exit 2; }
	$(Q)mkdir -p $(BUILD)/logs
	$(Q)$(IPCLAB) check $(EXPERIMENT_FILES) > $(BUILD)/logs/check.log \
		&& echo "  CHECK   $(words $(EXPERIMENT_FILES)) experiment files are valid"
	@echo "  CHECK   every claim $(if $(filter holds,$(CHECK)),holds,is decided (holds or fails)) on $(DATADIR)/ (CHECK=$(CHECK))"
	$(Q)$(IPCLAB) verify --data $(DATADIR) --require $(CHECK) $(EXPERIMENT_FILES)

clean:
	rm -rf $(BUILD) $(PAPERDIR)/generated $(PAPERDIR)/paper.pdf $(STUDY_TRANSPORTS)
