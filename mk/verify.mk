# mk/verify.mk: a reviewer's steps, and the paper's claims table.
#
#   make reproduce [FIG=name] [PROFILE=quick] [ENV=...] [RESUME=1]
#       rerun every experiment, or only those behind figure FIG (EXP-NAME,
#       see mk/plots.mk), into build/repro/<experiment>/, after
#       an estimate of how long it will take (`ipclab estimate`, the
#       estimator of `ipclab check`: calibrated from the runs recorded in
#       data/*/ on this machine, else the model; harness/measure/estimate.h)
#   make reproduce-estimate [FIG=name] [PROFILE=quick]
#       only the estimate
#   make report [FIG=name]
#       build/repro/report.pdf from what build/repro/ holds (make reproduce
#       ends with it): see "The reviewer's report" below
#   make verify
#       evaluate every claim of experiments/*.ini on data/ and, when it
#       exists, on build/repro/; print the table; fail when a claim fails
#   paper/generated/claims.tex
#       the claims table of the paper, from `ipclab verify --latex`
#   make claim-stability [STABILITY_REPS=6,10,15,20] [STABILITY_DRAWS=200]
#       how often a rerun with that many repetitions would reach each
#       claim's verdict, estimated by resampling data/ (no measurement)
#   make claim-reruns EXP=name [RERUNS=5] [PROFILE=...]
#       rerun one experiment RERUNS times into build/reruns/<name>/N/ and
#       count, per claim, the reruns that reach data/'s verdict (measured)
#   RERUNS_DIR (default reruns)
#       the committed reruns: the claims table and its macros count, per
#       claim, those of the design the file has now that reach data/'s
#       verdict (`ipclab verify --reruns`)
#
# Uses IPCLAB, BUILD, EXPERIMENT_FILES, ALL_EXPERIMENTS and EXPERIMENTS
# (top Makefile; include this file after they are set), and, in recipes
# only, MEASURE_LOCK and RUN_FLAGS (mk/data.mk) and OUTPUT_FIGURES and
# OUT_*_figure_* (mk/plots.mk, for FIG=).  Guarded, so a second inclusion (`make -f
# Makefile -f mk/verify.mk`, as harness/tests/test-verify.sh does) is
# harmless.

ifndef IPCLAB_VERIFY_MK
IPCLAB_VERIFY_MK := 1

REPRO_DIR := $(BUILD)/repro
VERIFY_DIR := $(BUILD)/verify
CLAIMS_TSV := $(VERIFY_DIR)/claims.tsv
CLAIMS_TEX := $(PAPERDIR)/generated/claims.tex
CLAIMS_MACROS := $(PAPERDIR)/generated/claim-macros.tex

# The experiments to reproduce: every one, or those behind figure FIG
# (EXP-NAME, as in $(BUILD)/figures/: its experiment and those it also
# reads; or an experiment's name).
verify_fig_exps = $(OUT_EXP_figure_$1) $(patsubst exp:%,%,$(filter exp:%,$(OUT_INPUTS_figure_$1))) \
	$(patsubst latency:%,%,$(filter latency:%,$(OUT_INPUTS_figure_$1)))
REPRO_EXPS = $(if $(FIG),$(sort $(if $(filter $(FIG),$(OUTPUT_FIGURES)),$(call verify_fig_exps,$(FIG)),\
	$(filter $(FIG),$(ALL_EXPERIMENTS)))),$(ALL_EXPERIMENTS))
VERIFY_REPRO_ARG = $$(test -d $(REPRO_DIR) && echo --repro $(REPRO_DIR))
# The committed reruns (reruns/DATE/EXP/, reruns/DATE-EXP/N/EXP/: as deep
# as verify_rerun_dirs looks) and what of them the claims table reads.
RERUNS_DIR ?= reruns
VERIFY_RERUNS_NOW := $(sort $(wildcard $(foreach d,* */* */*/*,$(RERUNS_DIR)/$d/meta.ini $(RERUNS_DIR)/$d/samples.tsv)))
VERIFY_RERUNS_ARG = $(if $(wildcard $(RERUNS_DIR)),--reruns $(RERUNS_DIR))

.PHONY: reproduce reproduce-estimate verify

reproduce-estimate: $(IPCLAB)
	$(Q)if [ -n "$(FIG)" ] && [ -z "$(strip $(REPRO_EXPS))" ]; then \
		echo "make reproduce: no figure '$(FIG)' (figures: $(OUTPUT_FIGURES))" >&2; \
		exit 2; \
	fi
	$(Q)echo "make reproduce$(if $(FIG), FIG=$(FIG))$(if $(PROFILE), PROFILE=$(PROFILE)): $(words $(REPRO_EXPS)) experiments into $(REPRO_DIR)/"
	$(Q)$(IPCLAB) estimate --data $(DATADIR) $(if $(PROFILE),--profile $(PROFILE)) \
		$(if $(word 2,$(HOSTS)),--places $(words $(HOSTS))) $(REPRO_EXPS:%=$(EXPDIR)/%.ini)
	$(Q)if grep -qE '^env=.*(nspawn|vm)' $(REPRO_EXPS:%=$(EXPDIR)/%.ini) 2>/dev/null && \
	   ! { [ -f "$$($(ENV_BUILD) dir nspawn)/complete" ] && [ -f "$$($(ENV_BUILD) dir vm)/complete" ]; }; then \
		echo "  not counted: building the container and VM images, not yet cached (about 4 min, once)"; \
	fi; \
	true

reproduce: reproduce-estimate $(IPCLAB)
	$(Q)mkdir -p $(BUILD) $(REPRO_DIR)
	$(Q)failed=; for e in $(REPRO_EXPS); do \
		echo "reproducing $$e into $(REPRO_DIR)/$$e"; \
		flock $(MEASURE_LOCK) $(IPCLAB) run $(RUN_FLAGS) --out $(REPRO_DIR) $(EXPDIR)/$$e.ini; rc=$$?; \
		if [ $$rc -eq 130 ]; then echo "make reproduce: interrupted; RESUME=1 continues" >&2; exit 130; fi; \
		if [ $$rc -ne 0 ]; then failed="$$failed $$e"; fi; \
	done; \
	echo "reproduced into $(REPRO_DIR)/; \`make verify\` checks the claims on it"; \
	$(MAKE) --no-print-directory report && echo "the reviewer's report: $(REPORT_PDF)" || failed="$$failed (the report)"; \
	if [ -n "$$failed" ]; then \
		echo "make reproduce: these experiments failed or could not run here:$$failed" >&2; exit 1; \
	fi

# The reviewer's report, $(REPRO_DIR)/report.pdf (`make report`, the last
# step of `make reproduce`): for every reproduced experiment (REPRO_EXPS
# with data in $(REPRO_DIR)), each figure drawn with the committed data in
# grey and the reproduction in colour (`ipclab plot --compare`; a figure
# drawn by a hand script is shown twice, side by side); the reproduction
# over the committed data per cell with 95 % intervals (`ipclab compare`,
# plots/report-ratio.gp); the claims on both (the paper's claims table);
# and the two machines side by side (`ipclab compare --machines`, from the
# two meta.ini of the first experiment).
REPORT_PDF := $(REPRO_DIR)/report.pdf
# What it is made of, apart from the reproduced experiments' directories.
REPORT_DIR := $(REPRO_DIR)/report
REPORT_EXPS = $(foreach e,$(REPRO_EXPS),$(if $(wildcard $(REPRO_DIR)/$e/samples.tsv),$e))
REPORT_FIGS = $(foreach f,$(if $(filter $(FIG),$(OUTPUT_FIGURES)),$(FIG),$(OUTPUT_FIGURES)),\
	$(if $(filter $(OUT_EXP_figure_$f),$(REPORT_EXPS)),$f))
# A reproduced input's summary is the reproduction's, else the committed one.
report_summary = $(if $(filter $1,$(REPORT_EXPS)),$(REPORT_DIR)/summary/$1.tsv,$(BUILD)/summary/$1.tsv)

$(REPORT_DIR)/summary/%.tsv: $(REPRO_DIR)/%/samples.tsv $(IPCLAB_CODE) | $(IPCLAB)
	$(Q)mkdir -p $(@D)
	@echo "  SUMMARY $@"
	$(Q)$(IPCLAB) summarize $(REPRO_DIR)/$* > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# Each figure as mk/plots.mk draws it, with the reproduction (FIGURE_RULES);
# a hand-drawn one beside the committed one.
$(foreach f,$(REPORT_FIGS),$(eval $(call FIGURE_RULES,$f,$(REPORT_DIR)/figures,$(REPORT_DIR)/summary/$(OUT_EXP_figure_$f).tsv)))
$(foreach f,$(REPORT_FIGS),$(if $(wildcard plots/$f.gp),$(eval $(REPORT_DIR)/figures/$f.pdf: $(BUILD)/figures/$f.pdf)))

$(REPORT_DIR)/compare.tsv: $(REPORT_EXPS:%=$(REPRO_DIR)/%/samples.tsv) $(IPCLAB_CODE) | $(IPCLAB)
	$(Q)mkdir -p $(@D)
	@echo "  COMPARE $@"
	$(Q)$(IPCLAB) compare $(REPORT_EXPS:%=-e %) $(DATADIR) $(REPRO_DIR) > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@
$(REPORT_DIR)/machines.tex: $(REPORT_EXPS:%=$(REPRO_DIR)/%/samples.tsv) $(IPCLAB_CODE) | $(IPCLAB)
	$(Q)mkdir -p $(@D)
	$(Q)$(IPCLAB) compare --machines $(REPORT_EXPS:%=-e %) $(DATADIR) $(REPRO_DIR) > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@
$(REPORT_DIR)/figures/ratio.pdf: $(REPORT_DIR)/compare.tsv $(IPCLAB_SHARE)/plots/report-ratio.gp $(PLOTDIR)/common.gp
	$(Q)mkdir -p $(@D) $(BUILD)/logs
	@echo "  PLOT    $@"
	$(Q)$(GNUPLOT) -e "plotdir='$(PLOTDIR)'; summary='$<'; out='$@.tmp'" $(IPCLAB_SHARE)/plots/report-ratio.gp \
		> $(BUILD)/logs/repro-ratio.log 2>&1 || { cat $(BUILD)/logs/repro-ratio.log >&2; rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# One figure of the report: $1 its ID.
report_figure = \begin{figure}[htbp]\centering$(if $(wildcard plots/$1.gp),\
	\includegraphics[width=0.49\linewidth]{$(abspath $(BUILD)/figures/$1.pdf)}\hfill\
	\includegraphics[width=0.49\linewidth]{$(abspath $(REPORT_DIR)/figures/$1.pdf)}\
	\caption{Figure \texttt{\detokenize{$1}}: committed data (left)$(COMMA) the reproduction (right).},\
	\includegraphics[width=\linewidth]{$(abspath $(REPORT_DIR)/figures/$1.pdf)}\
	\caption{Figure \texttt{\detokenize{$1}}: committed data in grey$(COMMA) the reproduction in colour.})\end{figure}
define REPORT_TEX
% generated by mk/verify.mk: the reviewer's report
\documentclass[10pt,a4paper]{article}
\usepackage[margin=2cm]{geometry}
\usepackage{graphicx,booktabs,array,longtable,url}
\newcommand{\us}{\ensuremath{\mu}s}
\title{Reproduction report}
\date{}
\begin{document}
\maketitle
\noindent Reproduced into \texttt{$(REPRO_DIR)/}: $(subst $(SPACE),$(COMMA) ,$(REPORT_EXPS:%=\texttt{\detokenize{%}})).
$(if $(PROFILE),Profile \texttt{$(PROFILE)}: the same cells with less work.)
\section{The two machines}
\input{$(abspath $(REPORT_DIR)/machines.tex)}
\section{Claims}
\input{$(abspath $(CLAIMS_TEX))}
\section{Reproduced over committed, per cell}
\includegraphics[width=\linewidth]{$(abspath $(REPORT_DIR)/figures/ratio.pdf)}
\section{Figures}
$(foreach f,$(REPORT_FIGS),$(call report_figure,$f)$(PAPER_NL))
\end{document}
endef
SPACE := $(subst ,, )
COMMA := ,

.PHONY: report
report: $(REPORT_PDF)
$(REPORT_DIR)/report.tex: export REPORT_TEX_TEXT = $(REPORT_TEX)
$(REPORT_DIR)/report.tex: $(REPORT_DIR)/machines.tex $(REPORT_DIR)/figures/ratio.pdf $(CLAIMS_TEX) \
		$(REPORT_FIGS:%=$(REPORT_DIR)/figures/%.pdf) FORCE
	$(Q)test -n "$(REPORT_EXPS)" || { echo "make report: nothing reproduced in $(REPRO_DIR)/ (make reproduce)" >&2; exit 2; }
	$(Q)printf '%s\n' "$$REPORT_TEX_TEXT" > $@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }
# What report.tex \inputs and includes, too: report.tex is rewritten only
# when its own text changes.
$(REPORT_PDF): $(REPORT_DIR)/report.tex $(REPORT_DIR)/machines.tex $(REPORT_DIR)/figures/ratio.pdf $(CLAIMS_TEX) \
		$(REPORT_FIGS:%=$(REPORT_DIR)/figures/%.pdf)
	$(Q)mkdir -p $(REPORT_DIR)/latex $(BUILD)/logs
	@echo "  LATEX   $@"
	$(Q)$(LATEXMK) -g -pdf -interaction=nonstopmode -halt-on-error -file-line-error \
		-outdir=$(abspath $(REPORT_DIR))/latex $< > $(BUILD)/logs/report.log 2>&1 \
		|| { grep -A3 -E '^(!|.*:[0-9]+:)' $(BUILD)/logs/report.log >&2; \
		     echo "report: LaTeX failed, see $(BUILD)/logs/report.log" >&2; exit 1; }
	$(Q)cp $(REPORT_DIR)/latex/report.pdf $@.tmp && mv $@.tmp $@

# The claims on the published data and, when it exists, on the
# reproduction.  Exit status 1 when a claim fails on either.
verify: $(IPCLAB)
	$(Q)args=; if [ -d $(REPRO_DIR) ]; then args="--repro $(REPRO_DIR)"; fi; \
	echo "$(IPCLAB) verify $$args"; $(IPCLAB) verify $$args

# The TSV, the paper's claims table and the macros the text cites claims
# with (\ClaimVerdictName, \ClaimIntervalName, ...), from one run of
# `ipclab verify` (--tsv, --latex: a longtable that breaks across pages,
# so that no claim is lost; --macros).  A failing claim is a result, not a
# build error: only bad input (status 2, which includes a claim refused
# before measuring) stops the build.  An experiment that cannot run on
# this machine (a tool missing) is no build error either: ipclab verify
# leaves its claims out and says so, and that line is shown here.
#
# Which reproductions build/repro/ holds (and which reruns reruns/) is a
# prerequisite too, as a stamp file rewritten (when make reads this
# file) only when that set changes: removing build/repro/ drops the
# Reproduction column, and removing a rerun its count, which no file's
# time would say.
VERIFY_REPRO_SET := $(VERIFY_DIR)/repro-set
VERIFY_REPRO_NOW := $(sort $(wildcard $(REPRO_DIR)/*/samples.tsv))
# (Read and written by make itself, never through a shell: the names
# are the file system's, and a rerun's may hold a quote.)
VERIFY_INPUT_SET := $(strip $(VERIFY_REPRO_NOW) $(VERIFY_RERUNS_NOW))
ifneq ($(VERIFY_INPUT_SET)|$(VERIFY_REPRO_SET),$(strip $(if $(wildcard $(VERIFY_REPRO_SET)),$(file <$(VERIFY_REPRO_SET))))|$(wildcard $(VERIFY_REPRO_SET)))
$(shell mkdir -p $(VERIFY_DIR))
$(file >$(VERIFY_REPRO_SET),$(VERIFY_INPUT_SET))
endif
$(CLAIMS_TSV) $(CLAIMS_TEX) $(CLAIMS_MACROS) &: $(IPCLAB_CODE) $(EXPERIMENT_FILES) \
		$(EXPERIMENTS:%=$(DATADIR)/%/samples.tsv) $(VERIFY_REPRO_NOW) $(VERIFY_RERUNS_NOW) $(VERIFY_REPRO_SET) \
		$(IPCLAB_SHARE)/mk/verify.mk | $(IPCLAB)
	$(Q)mkdir -p $(VERIFY_DIR) $(dir $(CLAIMS_MACROS)) $(dir $(CLAIMS_TEX))
	@echo "  VERIFY  $(CLAIMS_TSV) $(CLAIMS_TEX)"
	$(Q)$(IPCLAB) verify --tsv $(CLAIMS_TSV) --latex $(CLAIMS_TEX) --macros $(CLAIMS_MACROS) $(VERIFY_REPRO_ARG) $(VERIFY_RERUNS_ARG) \
		> $(VERIFY_DIR)/verify.log 2>&1; \
	if [ $$? -ge 2 ]; then cat $(VERIFY_DIR)/verify.log >&2; rm -f $(CLAIMS_TSV) $(CLAIMS_TEX) $(CLAIMS_MACROS); exit 1; fi; \
	grep 'cannot run here' $(VERIFY_DIR)/verify.log | sed 's/^/  VERIFY  /' >&2 || true

# How often a rerun would reach each claim's verdict on this data, by
# resampling its repetitions (`ipclab verify --stability`, verify.h):
#   make claim-stability [STABILITY_REPS=6,10,15,20] [STABILITY_DRAWS=200]
STABILITY_REPS ?= 6,10,15,20
STABILITY_DRAWS ?= 200
.PHONY: claim-stability
claim-stability: $(IPCLAB)
	$(Q)mkdir -p $(VERIFY_DIR)
	$(IPCLAB) verify --data $(DATADIR) --stability $(STABILITY_REPS) --draws $(STABILITY_DRAWS) \
		--tsv $(VERIFY_DIR)/stability.tsv
	@echo "  (also in $(VERIFY_DIR)/stability.tsv)"

# make claim-reruns EXP=name [RERUNS=5]: measured agreement (mk/claim-reruns.sh).
RERUNS ?= 5
.PHONY: claim-reruns
claim-reruns: $(IPCLAB)
	$(Q)if [ -z "$(EXP)" ] || [ ! -f "$(EXPDIR)/$(EXP).ini" ]; then \
		echo "make claim-reruns: EXP= names no file in $(EXPDIR)/ (experiments: $(ALL_EXPERIMENTS))" >&2; exit 2; \
	fi
	$(Q)flock $(MEASURE_LOCK) mk/claim-reruns.sh $(IPCLAB) $(EXPDIR) $(DATADIR) $(BUILD)/reruns/$(EXP) $(EXP) $(RERUNS) \
		$(if $(PROFILE),--profile $(PROFILE))

# The paper carries the table and cites the claims; the TSV is made with
# them (a deleted TSV is made again by the next make all).
$(PAPERDIR)/paper.pdf: $(CLAIMS_TEX) $(CLAIMS_MACROS) $(CLAIMS_TSV)

endif
