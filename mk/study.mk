# mk/study.mk: the pipeline of a study, from experiment files to its paper:
# data (mk/data.mk) and the study's own transport plugins it is measured
# with (mk/transports.mk), summaries and figures (mk/plots.mk), tables, sections
# and the paper (mk/paper.mk), claims and the reviewer's steps
# (mk/verify.mk).  This repository's Makefile includes it, and so does
# the Makefile of a study made by `ipclab init` (through mk/standalone.mk,
# from the installed copy in PREFIX/share/ipclab/mk/).
#
# Set before including it (the defaults are this repository's):
#   IPCLAB        the ipclab binary                         (harness/ipclab)
#   IPCLAB_SHARE  where mk/, plots/common.gp and paper/ipclab.sty
#                 are                                       (.)
#   IPCLAB_CODE   what ipclab's outputs depend on: its objects here, so
#                 that a commit (a relinked binary) redoes nothing; the
#                 binary itself in a study                   ($(IPCLAB))
#   BUILD         the build directory                       (build)
# and, relative to the study's top directory, where make runs (ipclab
# itself looks for experiments/ and data/ there):
#   EXPDIR        the experiment files                      (experiments)
#   DATADIR       the committed data                        (data)
#   PAPERDIR      paper.tex, sections/, generated/          (paper)

IPCLAB ?= harness/ipclab
IPCLAB_SHARE ?= .
IPCLAB_CODE ?= $(IPCLAB)
BUILD ?= build
EXPDIR ?= experiments
DATADIR ?= data
PAPERDIR ?= paper
# Where gnuplot finds common.gp, the house style.
PLOTDIR ?= $(IPCLAB_SHARE)/plots
Q ?= $(if $(V),,@)

# Every experiment file; EXPERIMENTS are those the paper is built from.
EXPERIMENT_FILES := $(sort $(wildcard $(EXPDIR)/*.ini))
ALL_EXPERIMENTS := $(basename $(notdir $(EXPERIMENT_FILES)))
EXPERIMENTS ?= $(ALL_EXPERIMENTS)

# Checked before every build; this repository's mk/deps.mk gives it a
# recipe (install or name the missing packages), a study has none.
.PHONY: deps-check FORCE
deps-check:
FORCE:

include $(IPCLAB_SHARE)/mk/data.mk
include $(IPCLAB_SHARE)/mk/transports.mk
include $(IPCLAB_SHARE)/mk/plots.mk
include $(IPCLAB_SHARE)/mk/paper.mk
include $(IPCLAB_SHARE)/mk/verify.mk
