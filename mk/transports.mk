# transports: a study's own transport plugins.  Every transports/NAME.c
# (or NAME.cpp) is built into transports/NAME.so by the rule the study's
# Makefile gives (the two lines `ipclab init` writes: pkg-config --cflags
# ipclab), before anything is measured: the data of every experiment, a
# reproduction and `make check` depend on them, so a rebuilt plugin is
# looked at again (its SHA-256 is part of what a file measures:
# mk/data-current.sh) and measured again only if it changed.
STUDY_TRANSPORTS := $(sort $(patsubst %.cpp,%.so,$(patsubst %.c,%.so,$(wildcard transports/*.c transports/*.cpp))))

$(foreach e,$(ALL_EXPERIMENTS),$(DATADIR)/$e/samples.tsv): $(STUDY_TRANSPORTS)
reproduce run: $(STUDY_TRANSPORTS)

.PHONY: transports
transports: $(STUDY_TRANSPORTS)
