# data: experiment files -> data/<experiment>/samples.tsv and meta.ini.
#
# Data depends on its experiment file, never on the harness binary:
# rebuilding ipclab does not rerun hours of measurements.  A fresh clone
# gives every file the same age, so "older than its experiment file" is
# decided by content (mk/data-current.sh): the SHA-256 of the experiment
# file recorded in meta.ini, or else that of what the file measures
# (config_sha256), so that editing a title, a comment or a claim reuses
# the data and editing a count, size, repeat or seed measures again.  Measurements hold a lock so that `make -j` never runs two at
# once on the same CPUs.

# Experiment names make reads (study.mk's wildcard of $(EXPDIR)/*.ini)
# are letters, digits, '-' and '_', as `ipclab check` requires: a name
# holding anything else ($(shell ...), ';', a space, a quote) stops make
# here, before any $(shell), $(eval) or recipe sees it (`make clean`
# too: the data rules below run a shell as make reads them).  Checked by
# taking every allowed character out of each name (no shell, no regex in
# make): what is left is what make must not read.
IPCLAB_NAME_CHARS := a b c d e f g h i j k l m n o p q r s t u v w x y z \
	A B C D E F G H I J K L M N O P Q R S T U V W X Y Z 0 1 2 3 4 5 6 7 8 9 - _
ipclab_strip = $(if $2,$(call ipclab_strip,$(subst $(firstword $2),,$1),$(wordlist 2,$(words $2),$2)),$1)
BAD_EXPERIMENT_FILES := $(filter-out $(EXPDIR)/%.ini,$(EXPERIMENT_FILES)) \
	$(foreach f,$(filter $(EXPDIR)/%.ini,$(EXPERIMENT_FILES)),$(if \
		$(call ipclab_strip,$(patsubst $(EXPDIR)/%.ini,%,$f),$(IPCLAB_NAME_CHARS)),$f))
ifneq ($(strip $(BAD_EXPERIMENT_FILES)),)
$(error $(EXPDIR)/ has files whose names make cannot read (shown split where they have spaces): \
	$(BAD_EXPERIMENT_FILES); an experiment file is NAME.ini, NAME of letters, digits, '-' and '_': rename them)
endif

MEASURE_LOCK := $(BUILD)/.measure.lock
# Whether data is current (mk/data-current.sh, asking this IPCLAB).
DATA_CURRENT := IPCLAB=$(IPCLAB) $(IPCLAB_SHARE)/mk/data-current.sh
# Where it runs (harness/place/remote.h): HOSTS="ssh://user@a ssh://b:2222 local"
# runs on each in turn and merges them, one machine each; SLURM=PARTITION
# [NODES=N] submits a Slurm job array (job script and logs in
# build/slurm/).  RESUME=1 keeps the machines, or tasks, already measured.
# KEEP=N: keep the N runs before this one in $(DATADIR)/.history/<experiment>/
# (ipclab run --keep; default 5, 0 keeps none); KEEP_SIZE=200MiB: at most
# that much of them (--keep-size); HISTORY=git: keep them as commits in the
# study's git repository instead (--history dir|git|none; a study's
# Makefile may set HISTORY = git for good).
RUN_FLAGS = $(if $(PROFILE),--profile $(PROFILE)) $(if $(filter-out host,$(ENV)),--env $(ENV)) \
	$(if $(RESUME),--resume) $(if $(KEEP),--keep $(KEEP)) $(if $(KEEP_SIZE),--keep-size '$(KEEP_SIZE)') \
	$(if $(HISTORY),--history '$(HISTORY)') $(foreach h,$(HOSTS),--host $(h)) \
	$(if $(SLURM),--slurm $(SLURM) $(if $(NODES),--nodes $(NODES)))

# Whether data is current is decided when make reads this file (a
# SHA-256 of each experiment file, milliseconds), so that `make -n` tells
# the truth: only stale or missing data has a recipe to run, and what
# depends on current data is not rebuilt.  The data never depends on the
# experiment file's time, which a fresh clone makes meaningless.  One case
# is decided only in the recipe: a file whose bytes differ from those its
# data was measured from (a claim added since) needs the harness to tell
# whether what it measures changed, and before the first build there is
# none; the recipe asks again once it is built, and measures only if so.
# DATA_WITH_<exp>: a command that wraps the measurement of <exp> (set by
# the including Makefile; empty for most).
DATA_STALE := $(foreach e,$(EXPERIMENTS),$(if $(shell $(DATA_CURRENT) $(EXPDIR)/$e.ini $(DATADIR)/$e/meta.ini && echo yes),,$e))
$(foreach e,$(DATA_STALE),$(eval $(DATADIR)/$e/samples.tsv: FORCE))
$(DATADIR)/%/samples.tsv: | $(IPCLAB)
	$(Q)mkdir -p $(BUILD)
	$(Q)if ! $(DATA_CURRENT) $(EXPDIR)/$*.ini $(DATADIR)/$*/meta.ini; then \
		echo "measuring $* (data missing or made from another version of $(EXPDIR)/$*.ini or of a plugin it uses)"; \
		flock $(MEASURE_LOCK) $(DATA_WITH_$*) $(IPCLAB) run $(RUN_FLAGS) --out $(DATADIR) $(EXPDIR)/$*.ini; \
	fi

# Never delete data because a measurement failed: ipclab replaces it whole
# or leaves it alone.
.PRECIOUS: $(DATADIR)/%/samples.tsv

.PHONY: data run reproduce compare
data: $(foreach e,$(EXPERIMENTS),$(DATADIR)/$(e)/samples.tsv)

# make run EXP=name: rerun one experiment whatever its data says.
run: | $(IPCLAB)
	$(Q)test -n "$(EXP)" || { echo "usage: make run EXP=name [PROFILE=quick] [ENV=host|nspawn|vm] [RESUME=1] [KEEP=N] [KEEP_SIZE=SIZE] [HISTORY=dir|git|none]" \
		"[HOSTS=\"ssh://USER@HOST[:PORT] ...\"] [SLURM=PARTITION [NODES=N]]" >&2; exit 2; }
	$(Q)test -f $(EXPDIR)/$(EXP).ini || { echo "make run: no $(EXPDIR)/$(EXP).ini (have: $(ALL_EXPERIMENTS))" >&2; exit 2; }
	$(Q)mkdir -p $(BUILD)
	flock $(MEASURE_LOCK) $(DATA_WITH_$(EXP)) $(IPCLAB) run $(RUN_FLAGS) --out $(DATADIR) $(EXPDIR)/$(EXP).ini
	$(MAKE) --no-print-directory paper

# make compare EXP=name [AGAINST=RUN] [FAIL_ABOVE=10%]: the current run of
# one experiment beside the previous one (or run RUN) kept in
# $(DATADIR)/.history/<experiment>/ or as a git commit, cell by cell
# (ipclab compare); exits 1
# when a cell is slower beyond FAIL_ABOVE (its interval wholly above it).
FAIL_ABOVE ?= 10%
compare: | $(IPCLAB)
	$(Q)test -n "$(EXP)" || { echo "usage: make compare EXP=name [AGAINST=RUN] [FAIL_ABOVE=10%]" >&2; exit 2; }
	$(Q)test -f $(EXPDIR)/$(EXP).ini || { echo "make compare: no $(EXPDIR)/$(EXP).ini (have: $(ALL_EXPERIMENTS))" >&2; exit 2; }
	$(IPCLAB) compare $(if $(AGAINST),--against '$(AGAINST)') --fail-above '$(FAIL_ABOVE)' $(DATADIR)/$(EXP)
