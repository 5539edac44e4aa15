# mk/plots.mk: per-experiment summaries and the figures drawn from them.
#
# The top Makefile provides:
#   IPCLAB       the harness binary (harness/ipclab)
#   BUILD        the build directory (build)
#   EXPERIMENTS  the experiments that have data/<name>/samples.tsv
#
# A figure is one gnuplot script, plots/<figure>.gp, plus one word in
# PLOT_FIGURES: <figure>:<experiment>, the experiment whose summary it
# reads.  Figures whose experiment has no data yet are left out.  A figure
# that also draws a reference from other experiments names them in
# PLOT_ALSO_<figure>; gnuplot gets their summaries, those that have data,
# space-separated in `also` (empty when none has).
#
# Targets: plots, summaries, $(BUILD)/summary/<exp>.tsv,
# $(BUILD)/figures/<figure>.pdf, plots-clean.  Every output is written to
# $@.tmp and renamed; logs go to $(BUILD)/logs/.

PLOT_FIGURES := \
        fifo-vs-socket:fifo-vs-socket \
        kernel-latency:kernel-latency \
        dbus-throughput:dbus-throughput \
        gdbus-large:gdbus-large \
        env-cost:env-cost \
        dbus-pingpong:dbus-pingpong \
        sdbus-array:sdbus-array \
        shell-calls:shell-calls

# shell-calls draws one in-process libdbus round trip (dbus-pingpong) as
# the floor beneath a call made by a freshly started command.
PLOT_ALSO_shell-calls := dbus-pingpong

GNUPLOT ?= gnuplot

plot_name = $(firstword $(subst :, ,$1))
plot_exp = $(lastword $(subst :, ,$1))

# Figures whose experiment has data, in PLOT_FIGURES order.
PLOTS := $(foreach f,$(PLOT_FIGURES),$(if $(filter $(call plot_exp,$f),$(EXPERIMENTS)),$(call plot_name,$f)))
PLOT_PDFS := $(PLOTS:%=$(BUILD)/figures/%.pdf)
SUMMARIES := $(EXPERIMENTS:%=$(BUILD)/summary/%.tsv)
# What every figure reads besides its own script and summary.
PLOT_INPUTS := plots/common.gp plots/select.awk $(wildcard data/published/*.tsv)

.PHONY: plots summaries plots-clean
plots: $(PLOT_PDFS)
summaries: $(SUMMARIES)

# Summaries depend on the harness's code too (IPCLAB_CODE, mk/harness.mk):
# summarizing is cheap, and a new summarize must not leave stale statistics
# behind.  Not on the binary: a commit relinks it and changes no statistic.
$(BUILD)/summary/%.tsv: data/%/samples.tsv $(IPCLAB_CODE) | $(IPCLAB)
	$(Q)mkdir -p $(@D)
	@echo "  SUMMARY $@"
	$(Q)$(IPCLAB) summarize data/$* > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# Each figure depends on the summary of its experiment (PLOT_EXP_<figure>)
# and on those of the experiments in PLOT_ALSO_<figure> that have data.
plot_also = $(foreach e,$(PLOT_ALSO_$1),$(if $(filter $e,$(EXPERIMENTS)),$(BUILD)/summary/$e.tsv))
$(foreach f,$(PLOT_FIGURES),$(eval PLOT_EXP_$(call plot_name,$f) := $(call plot_exp,$f)))
$(foreach f,$(PLOT_FIGURES),$(eval $(BUILD)/figures/$(call plot_name,$f).pdf: \
        $(BUILD)/summary/$(call plot_exp,$f).tsv $(call plot_also,$(call plot_name,$f))))

# gnuplot's messages go to the log; a failure, or an error reported by
# select.awk (an unknown column, rows that an axis left ambiguous), shows
# the log and fails the build.
$(BUILD)/figures/%.pdf: plots/%.gp $(PLOT_INPUTS)
	$(Q)mkdir -p $(@D) $(BUILD)/logs
	@echo "  PLOT    $@"
	$(Q)log=$(BUILD)/logs/plot-$*.log; \
	$(GNUPLOT) -e "plotdir='plots'; published='data/published'; summary='$(BUILD)/summary/$(PLOT_EXP_$*).tsv'; also='$(strip $(call plot_also,$*))'; out='$@.tmp'" \
		$< > $$log 2>&1 && ! grep -q 'ERROR' $$log \
		|| { cat $$log >&2; rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

plots-clean:
	rm -rf $(BUILD)/figures $(BUILD)/summary
