# mk/plots.mk: per-experiment summaries, and the figures and tables the
# experiment files declare.  Include through mk/study.mk (it sets IPCLAB,
# IPCLAB_SHARE, IPCLAB_CODE, BUILD, EXPDIR, DATADIR, PAPERDIR, PLOTDIR,
# EXPERIMENT_FILES and EXPERIMENTS).
#
# Nothing is listed here: `ipclab check --make-outputs` names every figure
# and table of every experiment file ([figure NAME] and [table NAME]
# groups, or the defaults `main`), with what each reads besides its own
# summary, as the make variables of $(BUILD)/outputs.mk (OUTPUT_FIGURES,
# OUT_EXP_figure_EXP-NAME, ...: harness/cli/outputs-mk.c), which is
# included, so make knows them when it plans; it is made again when an
# experiment file or ipclab's code changes (then make rereads it).  What a
# file declares does not depend on what can run here: a file whose cells
# need a tool this machine lacks (hyperfine) keeps its figures and tables,
# drawn from the committed data.  A mistake in a file stops the build with
# ipclab's messages.
#
# A figure EXP-NAME is drawn by `ipclab plot` (a gnuplot script with its
# data inlined, $(BUILD)/figures/EXP-NAME.gp, and what its caption may
# quote, EXP-NAME.facts.tex) and gnuplot with the house
# style of $(PLOTDIR)/common.gp, unless plots/EXP-NAME.gp exists: a script
# written by hand for what the renderer cannot draw, run with the gnuplot
# variables plotdir, published, summary (its experiment's), also (the
# summaries of its exp: inputs that have data, space-separated), ipclab
# (the binary, whose `ipclab select` reads the rows it draws) and out; a
# message of ipclab's or common.gp's (ERROR) in its log fails the rule.
# A table EXP-NAME is paper/generated/table-EXP-NAME.tex by `ipclab table`.
# Outputs of experiments not in EXPERIMENTS are left out; so are inputs
# whose experiment has no data (or no latencies.tsv.gz).
#
# Targets: plots, summaries, tables, $(BUILD)/summary/<exp>.tsv,
# $(BUILD)/figures/<exp>-<name>.pdf, plots-clean.  Every output is written
# to $@.tmp and renamed (ipclab plot and table do so themselves); logs go
# to $(BUILD)/logs/.

GNUPLOT ?= gnuplot

OUTPUTS_MK := $(BUILD)/outputs.mk
# Goals that need no outputs do not make them (`make clean` compiles
# nothing, `make -n -B build/obj/x.o` builds nothing).
OUTPUTS_NOT_NEEDED := clean %-clean deps deps-check deps-check-test env env-% check check-% \
	install uninstall harness tests plugins transports verify run compare fuzz% bench-% $(IPCLAB) $(BUILD)/obj/% \
	$(BUILD)/tests/% $(BUILD)/plugins/% $(BUILD)/asan/% \
	$(BUILD)/gen/% $(BUILD)/summary/%
ifneq ($(IPCLAB_OUTPUTS),none)
ifneq ($(filter-out $(OUTPUTS_NOT_NEEDED),$(or $(MAKECMDGOALS),all)),)
include $(OUTPUTS_MK)
endif
endif

# Depends on the code, not on the binary (a commit relinks it and changes
# no output); the binary is made first only when it is missing, or here
# when the code is newer than it (a sub-make that does not read this file).
$(OUTPUTS_MK): $(EXPERIMENT_FILES) $(IPCLAB_CODE) \
		$(if $(wildcard $(IPCLAB)),,| $(IPCLAB))
	$(Q)mkdir -p $(@D)
	$(Q)$(if $(filter-out $(IPCLAB),$(IPCLAB_CODE)),$(MAKE) --no-print-directory IPCLAB_OUTPUTS=none $(IPCLAB) &&) \
	$(IPCLAB) check --make-outputs $(EXPERIMENT_FILES) > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# The figures and tables of experiments with data.
FIGURE_IDS := $(foreach f,$(OUTPUT_FIGURES),$(if $(filter $(OUT_EXP_figure_$f),$(EXPERIMENTS)),$f))
TABLE_IDS := $(foreach t,$(OUTPUT_TABLES),$(if $(filter $(OUT_EXP_table_$t),$(EXPERIMENTS)),$t))
PLOT_PDFS := $(FIGURE_IDS:%=$(BUILD)/figures/%.pdf)
# What the captions of the figures `ipclab plot` draws may quote (not
# those of hand-written scripts).
PLOT_FACTS := $(foreach f,$(FIGURE_IDS),$(if $(wildcard plots/$f.gp),,$(BUILD)/figures/$f.facts.tex))
TABLE_TEXS := $(TABLE_IDS:%=$(PAPERDIR)/generated/table-%.tex)
SUMMARIES := $(EXPERIMENTS:%=$(BUILD)/summary/%.tsv)

# An output's INPUTS (exp:E latency:E published:FILE) as the files it reads
# and as the options of ipclab plot and table; those without data dropped.
in_exps = $(filter $(EXPERIMENTS),$(patsubst exp:%,%,$(filter exp:%,$1)))
in_lats = $(foreach e,$(patsubst latency:%,%,$(filter latency:%,$1)),$(if $(filter $e,$(EXPERIMENTS)),$(if $(wildcard $(DATADIR)/$e/latencies.tsv.gz),$e)))
in_pubs = $(patsubst published:%,%,$(filter published:%,$1))
in_files = $(foreach e,$(call in_exps,$1),$(BUILD)/summary/$e.tsv) \
	$(foreach e,$(call in_lats,$1),$(BUILD)/latency/$e.tsv) $(call in_pubs,$1)
in_args = $(foreach e,$(call in_exps,$1),--also $e=$(BUILD)/summary/$e.tsv) \
	$(if $2,$(foreach e,$(call in_lats,$1),--latency $e=$(BUILD)/latency/$e.tsv)) \
	$(if $(call in_pubs,$1),--published $(DATADIR)/published)

.PHONY: plots summaries tables plots-clean
plots: $(PLOT_PDFS)
summaries: $(SUMMARIES)
tables: $(TABLE_TEXS)

# Summaries depend on the harness's code too (IPCLAB_CODE): summarizing is
# cheap, and a new summarize must not leave stale statistics behind.
$(BUILD)/summary/%.tsv: $(DATADIR)/%/samples.tsv $(IPCLAB_CODE) | $(IPCLAB)
	$(Q)mkdir -p $(@D)
	@echo "  SUMMARY $@"
	$(Q)$(IPCLAB) summarize $(DATADIR)/$* > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# The latency percentiles of one experiment, pooled per cell.
$(BUILD)/latency/%.tsv: $(DATADIR)/%/latencies.tsv.gz $(IPCLAB_CODE) | $(IPCLAB)
	$(Q)mkdir -p $(@D)
	@echo "  LATENCY $@"
	$(Q)$(IPCLAB) latency $(DATADIR)/$* > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# One figure: what it reads, and how it is drawn (ipclab plot, or the
# hand-written plots/ID.gp).  $1 is the figure's ID, EXP-NAME; $2 the
# directory of its PDF; $3, for the reviewer's report (mk/verify.mk), a
# reproduction's summary of EXP: drawn in colour over the committed data
# in grey, or by a hand script alone (its exp: inputs then the reproduced
# ones, where there are: report_summary).
fig_summary = $(BUILD)/summary/$(OUT_EXP_figure_$1).tsv
fig_also = $(foreach e,$(call in_exps,$(OUT_INPUTS_figure_$1)),$(if $2,$(call report_summary,$e),$(BUILD)/summary/$e.tsv))
define FIGURE_RULES
ifeq ($(wildcard plots/$1.gp),)
$2/$1.gp $2/$1.facts.tex &: $(EXPDIR)/$(OUT_EXP_figure_$1).ini $(call fig_summary,$1) $3 \
		$(call in_files,$(OUT_INPUTS_figure_$1)) $(IPCLAB_CODE) | $(IPCLAB)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$(IPCLAB) plot $(EXPDIR)/$(OUT_EXP_figure_$1).ini $(OUT_NAME_figure_$1) --summary $(call fig_summary,$1) \
		$(if $3,--compare $3) $(call in_args,$(OUT_INPUTS_figure_$1),latency) --facts $2/$1.facts.tex --out $2/$1.gp
$2/$1.pdf: $2/$1.gp
	$$(Q)mkdir -p $(BUILD)/logs
	@echo "  PLOT    $$@"
	$$(Q)$(GNUPLOT) -e "plotdir='$(PLOTDIR)'; out='$$@.tmp'" $$< > $(BUILD)/logs/plot-$(if $3,repro-)$1.log 2>&1 \
		|| { cat $(BUILD)/logs/plot-$(if $3,repro-)$1.log >&2; rm -f $$@.tmp; exit 1; }
	$$(Q)mv $$@.tmp $$@
else
$2/$1.pdf: plots/$1.gp $(or $3,$(call fig_summary,$1)) $(call fig_also,$1,$3) $(call in_pubs,$(OUT_INPUTS_figure_$1)) \
		$(IPCLAB_CODE) | $(IPCLAB)
	$$(Q)mkdir -p $$(@D) $(BUILD)/logs
	@echo "  PLOT    $$@"
	$$(Q)$(GNUPLOT) -e "plotdir='$(PLOTDIR)'; published='$(DATADIR)/published'; ipclab='$(IPCLAB)'; \
		summary='$(or $3,$(call fig_summary,$1))'; also='$(strip $(call fig_also,$1,$3))'; out='$$@.tmp'" \
		$$< > $(BUILD)/logs/plot-$(if $3,repro-)$1.log 2>&1 && ! grep -qE 'ERROR|^ipclab: ' $(BUILD)/logs/plot-$(if $3,repro-)$1.log \
		|| { cat $(BUILD)/logs/plot-$(if $3,repro-)$1.log >&2; rm -f $$@.tmp; exit 1; }
	$$(Q)mv $$@.tmp $$@
endif
$2/$1.pdf: $(PLOTDIR)/common.gp
endef
$(foreach f,$(FIGURE_IDS),$(eval $(call FIGURE_RULES,$f,$(BUILD)/figures,)))

$(TABLE_IDS:%=$(PAPERDIR)/generated/table-%.tex): $(PAPERDIR)/generated/table-%.tex: $(IPCLAB_CODE) | $(IPCLAB)
	$(Q)mkdir -p $(@D)
	@echo "  TABLE   $@"
	$(Q)$(IPCLAB) table $(EXPDIR)/$(OUT_EXP_table_$*).ini $(OUT_NAME_table_$*) \
		--summary $(BUILD)/summary/$(OUT_EXP_table_$*).tsv $(call in_args,$(OUT_INPUTS_table_$*)) --out $@
$(foreach t,$(TABLE_IDS),$(eval $(PAPERDIR)/generated/table-$t.tex: $(EXPDIR)/$(OUT_EXP_table_$t).ini \
	$(BUILD)/summary/$(OUT_EXP_table_$t).tsv $(call in_files,$(OUT_INPUTS_table_$t))))

plots-clean:
	rm -rf $(BUILD)/figures $(BUILD)/summary $(BUILD)/latency $(OUTPUTS_MK)
