# harness: the `ipclab` program and its test programs.
#
# The pkg-config flags are computed when the first compile needs them, not
# when make reads this file: on a fresh machine `make all` installs GLib
# (deps-check) and then compiles, in one run.  Every object waits for
# deps-check, so nothing is built before the packages are there.

CC ?= cc
CFLAGS ?= -O2 -g
WERROR ?= -Werror
# Computed once, at first use (NAME = $(eval NAME := ...)$(NAME)).
HAVE_SDBUS = $(eval HAVE_SDBUS := $$(shell pkg-config --exists libsystemd && echo yes))$(HAVE_SDBUS)
SDBUS_VERSION = $(eval SDBUS_VERSION := $$(shell pkg-config --modversion libsystemd))$(SDBUS_VERSION)
PKGS = glib-2.0 gio-2.0 gio-unix-2.0 dbus-1 zlib $(if $(HAVE_SDBUS),libsystemd)
SDBUS_DEF = $(if $(HAVE_SDBUS),-DIPCLAB_HAVE_SDBUS -DIPCLAB_LIBSYSTEMD_VERSION='"$(SDBUS_VERSION)"',\
	-DIPCLAB_LIBSYSTEMD_VERSION='"not built in"')
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell pkg-config --cflags $$(PKGS)))$(PKG_CFLAGS)
PKG_LIBS = $(eval PKG_LIBS := $$(shell pkg-config --libs $$(PKGS)))$(PKG_LIBS)
ALL_CPPFLAGS = -D_GNU_SOURCE -Iharness -I$(BUILD)/gen -DIPCLAB_HAVE_LIBDBUS -DIPCLAB_HAVE_GIO \
	$(SDBUS_DEF) $(CPPFLAGS)
ALL_CFLAGS = -std=c17 -Wall -Wextra $(WERROR) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS = $(PKG_LIBS) -lrt -lm

HARNESS_SRC := $(filter-out harness/main.c,$(wildcard harness/*.c harness/transports/*.c harness/env/*.c))
HARNESS_OBJ := $(patsubst harness/%.c,$(BUILD)/obj/%.o,$(HARNESS_SRC))
HARNESS_HDR := $(wildcard harness/*.h harness/env/*.h)
TEST_SRC := $(wildcard harness/tests/test-*.c)
TEST_BIN := $(patsubst harness/tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
# What the binary computes with: every object but meta.o, which only embeds
# the commit.  Outputs computed by ipclab (summaries, the claims table)
# depend on these, not on the binary, so that a commit does not redo them.
IPCLAB_CODE := $(filter-out $(BUILD)/obj/meta.o,$(BUILD)/obj/main.o $(HARNESS_OBJ))

# version.h: the commit and tree state, rewritten only when they change.
# Only meta.c includes it, so a commit recompiles meta.o and relinks.
$(BUILD)/gen/version.h: FORCE | deps-check
	$(Q)mkdir -p $(@D)
	$(Q)commit=$$(git rev-parse --verify -q HEAD 2>/dev/null || echo unknown); \
	state=$$(test -z "$$(git status --porcelain --untracked-files=no 2>/dev/null)" && echo clean || echo dirty); \
	{ echo "#define IPCLAB_COMMIT \"$$commit\""; \
	  echo "#define IPCLAB_TREE_STATE \"$$state\""; \
	  echo "#define IPCLAB_CFLAGS \"$(strip $(subst ",,$(CFLAGS)))\""; } > $@.tmp.$$$$; \
	cmp -s $@.tmp.$$$$ $@ && rm -f $@.tmp.$$$$ || mv $@.tmp.$$$$ $@
$(BUILD)/obj/meta.o: $(BUILD)/gen/version.h

$(BUILD)/obj/%.o: harness/%.c $(HARNESS_HDR) | deps-check
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@.tmp.$$$$ && mv $@.tmp.$$$$ $@

$(IPCLAB): $(BUILD)/obj/main.o $(HARNESS_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@.tmp.$$$$ $^ $(LDLIBS) && mv $@.tmp.$$$$ $@

$(BUILD)/tests/%: harness/tests/%.c $(HARNESS_OBJ) $(HARNESS_HDR)
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@.tmp.$$$$ $< $(HARNESS_OBJ) $(LDLIBS) && mv $@.tmp.$$$$ $@

.PHONY: harness tests FORCE
harness: $(IPCLAB)
tests: $(TEST_BIN)
FORCE:
