# mk/paper.mk: generated LaTeX (sections, macros, methods, the list of
# sections) and $(PAPERDIR)/paper.pdf.  Include through mk/study.mk, after
# mk/plots.mk (it uses PLOT_PDFS, TABLE_TEXS and EXP_INPUTS_<exp>).
#
# Every experiment with data has a section: $(PAPERDIR)/sections/EXP.tex
# when one is written by hand, else $(PAPERDIR)/generated/section-EXP.tex
# by `ipclab section` (title, source, what varied, its figures, tables and
# claims).  Their order: the experiments named in $(PAPERDIR)/sections.list
# (one a line, `#` comments), if the paper has one, in its order; then
# every other, alphabetically.  Experiments without data are left out of
# the paper, which says so.
#
# A hand-written section may quote numbers: the [number NAME] groups of
# its experiment file (numbers.h), which `ipclab numbers` writes as
# macros, generated/macros-EXP.tex, from its summary, its meta.ini and
# what `ipclab check --list-outputs` says they read besides (another
# experiment's summary, a published file).  generated/macros.tex holds
# them all.  (Until every experiment is ported, paper/scripts/EXP.awk with
# paper/scripts/lib.awk still writes those of the others, from: 1 the
# published numbers EXP's outputs read, 2 its summary, 3, ... the
# summaries of its exp: inputs.)
#
# PAPER_EXTRA: further prerequisites of the paper that other steps add
# (mk/verify.mk adds the claims table).  It is expanded when the paper is
# built, so the file that appends to it may be included before or after
# this one.
#
# Targets: paper, $(PAPERDIR)/paper.pdf, $(PAPERDIR)/generated/*.tex,
# paper-clean.  Every output is written to $@.tmp and renamed; LaTeX's log
# goes to $(BUILD)/logs/latexmk.log.  LaTeX finds ipclab.sty (the macros
# every paper of a study uses) in $(IPCLAB_SHARE)/paper, searched after
# the paper's own directory: a study made from a source tree must not
# find that tree's paper.tex or generated/ first.

PAPER_EXTRA ?=

LATEXMK ?= latexmk
AWK ?= awk

PAPER_GEN := $(PAPERDIR)/generated
PAPER_PDF := $(PAPERDIR)/paper.pdf
PAPER_LIST := $(if $(wildcard $(PAPERDIR)/sections.list),$(shell sed 's/#.*//' $(PAPERDIR)/sections.list))
PAPER_ORDER := $(filter $(ALL_EXPERIMENTS),$(PAPER_LIST)) $(filter-out $(PAPER_LIST),$(ALL_EXPERIMENTS))
PAPER_HAVE := $(filter $(EXPERIMENTS),$(PAPER_ORDER))
PAPER_MISSING := $(filter-out $(EXPERIMENTS),$(PAPER_ORDER))
# A section's file, relative to $(PAPERDIR), where LaTeX runs.
paper_section = $(if $(wildcard $(PAPERDIR)/sections/$1.tex),sections/$1,generated/section-$1)
PAPER_SECTIONS_GEN := $(foreach e,$(PAPER_HAVE),$(if $(wildcard $(PAPERDIR)/sections/$e.tex),,$(PAPER_GEN)/section-$e.tex))
# The seed an experiment follows, for the list of those missing: the
# number its published numbers are filed under (data/published/NNN-*.tsv).
paper_seed = $(or $(firstword $(foreach p,$(call in_pubs,$(EXP_INPUTS_$1)),$(firstword $(subst -, ,$(notdir $p))))),-)
PAPER_MISSING_ITEMS := $(strip $(foreach e,$(PAPER_MISSING),\ipclabMissingItem{$e}{$(call paper_seed,$e)}))
PAPER_SCRIPTED := $(foreach e,$(PAPER_HAVE),$(if $(wildcard paper/scripts/$e.awk),$e))
PAPER_NUMBERED := $(filter-out $(PAPER_SCRIPTED),$(filter $(OUTPUT_NUMBERS),$(PAPER_HAVE)))
PAPER_MACROS := $(PAPER_SCRIPTED:%=$(PAPER_GEN)/macros-%.tex) $(PAPER_NUMBERED:%=$(PAPER_GEN)/macros-%.tex)
# Figures are found relative to $(PAPERDIR) (one level down).
PAPER_FIGDIR := $(if $(filter /%,$(BUILD)),$(BUILD),../$(BUILD))/figures/

.PHONY: paper paper-clean paper-force
paper: $(PAPER_PDF)

$(PAPER_GEN)/section-%.tex: $(EXPDIR)/%.ini $(BUILD)/summary/%.tsv $(IPCLAB_CODE) | $(IPCLAB)
	$(Q)mkdir -p $(@D)
	@echo "  SECTION $@"
	$(Q)$(IPCLAB) section $< --summary $(BUILD)/summary/$*.tsv --out $@

# The files of a macros generator (see above) and its prerequisites.
paper_pub = $(or $(firstword $(call in_pubs,$(EXP_INPUTS_$1))),/dev/null)
paper_after = $(foreach a,$(patsubst exp:%,%,$(filter exp:%,$(EXP_INPUTS_$1))),\
	$(if $(filter $a,$(EXPERIMENTS)),$(BUILD)/summary/$a.tsv,/dev/null))
$(foreach e,$(PAPER_SCRIPTED),$(eval $(PAPER_GEN)/macros-$e.tex: \
	$(filter-out /dev/null,$(call paper_pub,$e) $(call paper_after,$e))))

$(PAPER_GEN)/macros-%.tex: $(BUILD)/summary/%.tsv paper/scripts/%.awk paper/scripts/lib.awk \
		$(IPCLAB_SHARE)/paper/scripts/escape.awk
	$(Q)mkdir -p $(@D)
	@echo "  MACROS  $@"
	$(Q){ printf '%% from %s and %s by paper/scripts/%s.awk\n' '$(call paper_pub,$*)' '$< $(strip $(call paper_after,$*))' '$*'; \
	   $(AWK) -f $(IPCLAB_SHARE)/paper/scripts/escape.awk -f paper/scripts/lib.awk -f paper/scripts/$*.awk -v mode=macros \
		$(call paper_pub,$*) $< $(call paper_after,$*); \
	 } > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# The numbers an experiment file declares ([number NAME] groups,
# numbers.h): `ipclab numbers`, from its summary, its meta.ini and what
# `ipclab check --list-outputs` says they read besides (another
# experiment's summary, a published file).
$(foreach e,$(PAPER_NUMBERED),$(eval $(PAPER_GEN)/macros-$e.tex: $(EXPDIR)/$e.ini $(BUILD)/summary/$e.tsv \
	$(call in_files,$(OUT_INPUTS_numbers_$e)) $(IPCLAB_CODE) | $(IPCLAB)))
$(PAPER_NUMBERED:%=$(PAPER_GEN)/macros-%.tex): $(PAPER_GEN)/macros-%.tex:
	$(Q)mkdir -p $(@D)
	@echo "  MACROS  $@"
	$(Q)$(IPCLAB) numbers $(EXPDIR)/$*.ini --summary $(BUILD)/summary/$*.tsv $(call in_args,$(OUT_INPUTS_numbers_$*)) \
		$(if $(wildcard $(DATADIR)/$*/meta.ini),--meta $(DATADIR)/$*/meta.ini) --out $@

# Every number the text quotes: one file, as the text expects.
$(PAPER_GEN)/macros.tex: $(PAPER_MACROS) $(PAPER_GEN)/config.tex
	$(Q)mkdir -p $(@D)
	@echo "  MACROS  $@"
	$(Q){ echo '% generated by mk/paper.mk: every number the text quotes'; \
	   for f in $(PAPER_MACROS); do cat $$f || exit 1; done; } > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# What this build has: the figure directory, the sections with data and
# the experiments without.  Its text is known when make reads this file;
# the file is rewritten only when it differs (then `make -n` shows it, and
# LaTeX), never otherwise.  It is the one output made without the harness:
# it too waits for deps-check.
define PAPER_NL


endef
define PAPER_CONFIG
% generated by mk/paper.mk: what this build contains
\graphicspath{{$(PAPER_FIGDIR)}}
\renewcommand{\ipclabFigDir}{$(PAPER_FIGDIR)}
\renewcommand*{\ipclabSections}{%
$(if $(PAPER_HAVE),  $(subst % ,%$(PAPER_NL)  ,$(foreach e,$(PAPER_HAVE),\input{$(call paper_section,$e)}%))
)}
\renewcommand*{\ipclabMissing}{$(PAPER_MISSING_ITEMS)}
endef
PAPER_CONFIG_NOW := $(file <$(PAPER_GEN)/config.tex)
ifneq ($(PAPER_CONFIG_NOW),$(PAPER_CONFIG))
$(PAPER_GEN)/config.tex: paper-force
endif
$(PAPER_GEN)/config.tex: export PAPER_CONFIG_TEXT = $(PAPER_CONFIG)
$(PAPER_GEN)/config.tex: | deps-check
	$(Q)mkdir -p $(@D)
	$(Q)printf '%s\n' "$$PAPER_CONFIG_TEXT" > $@.tmp && mv $@.tmp $@

# The methods text: machine, software and conditions, from meta.ini
# (written with samples.tsv, whose rule measures what is missing).
PAPER_META := $(PAPER_HAVE:%=$(DATADIR)/%/meta.ini)
$(PAPER_GEN)/methods.tex: $(PAPER_HAVE:%=$(DATADIR)/%/samples.tsv) $(IPCLAB_SHARE)/paper/scripts/methods.awk \
		$(IPCLAB_SHARE)/paper/scripts/escape.awk $(PAPER_GEN)/config.tex
	$(Q)mkdir -p $(@D)
	@echo "  METHODS $@"
	$(Q)$(AWK) -f $(IPCLAB_SHARE)/paper/scripts/escape.awk -f $(IPCLAB_SHARE)/paper/scripts/methods.awk $(PAPER_META) > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

# Make decides when the paper is out of date, so latexmk runs with -g:
# its own bookkeeping would miss a file that \IfFileExists finds only
# now (sections/claims.tex).
# Second expansion: $$(PAPER_EXTRA) is read when the paper is built, after
# every mk/*.mk has had its say.
.SECONDEXPANSION:
$(PAPER_PDF): $(PAPERDIR)/paper.tex $(wildcard $(PAPERDIR)/sections/*.tex) $(IPCLAB_SHARE)/paper/ipclab.sty \
		$(PAPER_GEN)/config.tex $(PAPER_GEN)/macros.tex $(PAPER_GEN)/methods.tex \
		$(PAPER_SECTIONS_GEN) $(TABLE_TEXS) $(PLOT_PDFS) $$(PAPER_EXTRA)
	$(Q)mkdir -p $(BUILD)/paper $(BUILD)/logs
	@echo "  LATEX   $@"
	$(Q)TEXINPUTS=.:$(abspath $(IPCLAB_SHARE)/paper): $(LATEXMK) -g -pdf -cd -interaction=nonstopmode -halt-on-error \
		-file-line-error -outdir=$(abspath $(BUILD))/paper $(PAPERDIR)/paper.tex > $(BUILD)/logs/latexmk.log 2>&1 \
		|| { grep -A3 -E '^(!|.*:[0-9]+:)' $(BUILD)/logs/latexmk.log >&2; \
		     echo "paper: LaTeX failed, see $(BUILD)/logs/latexmk.log and $(BUILD)/paper/paper.log" >&2; exit 1; }
	$(Q)cp $(BUILD)/paper/paper.pdf $@.tmp && mv $@.tmp $@

paper-clean:
	rm -rf $(PAPER_GEN) $(BUILD)/paper $(PAPER_PDF)
