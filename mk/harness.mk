# harness: the `ipclab` program and its test programs.

CC ?= cc
CFLAGS ?= -O2 -g
WERROR ?= -Werror
PKGS := glib-2.0 gio-2.0 gio-unix-2.0 dbus-1
HAVE_SDBUS := $(shell pkg-config --exists libsystemd && echo yes)
ifeq ($(HAVE_SDBUS),yes)
PKGS += libsystemd
SDBUS_DEF := -DIPCLAB_HAVE_SDBUS -DIPCLAB_LIBSYSTEMD_VERSION='"$(shell pkg-config --modversion libsystemd)"'
else
SDBUS_DEF := -DIPCLAB_LIBSYSTEMD_VERSION='"not built in"'
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS := -std=c17 -D_GNU_SOURCE -Wall -Wextra $(WERROR) -Iharness -I$(BUILD)/gen \
	-DIPCLAB_HAVE_LIBDBUS -DIPCLAB_HAVE_GIO $(SDBUS_DEF) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS := $(PKG_LIBS) -lrt -lm

HARNESS_SRC := $(filter-out harness/main.c,$(wildcard harness/*.c harness/transports/*.c harness/env/*.c))
HARNESS_OBJ := $(patsubst harness/%.c,$(BUILD)/obj/%.o,$(HARNESS_SRC))
HARNESS_HDR := $(wildcard harness/*.h harness/env/*.h)
TEST_SRC := $(wildcard harness/tests/test-*.c)
TEST_BIN := $(patsubst harness/tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))

# version.h: the commit and tree state, rewritten only when they change so
# that a commit does not rebuild everything.
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(@D)
	@commit=$$(git rev-parse --verify -q HEAD 2>/dev/null || echo unknown); \
	state=$$(test -z "$$(git status --porcelain --untracked-files=no 2>/dev/null)" && echo clean || echo dirty); \
	{ echo "#define IPCLAB_COMMIT \"$$commit\""; \
	  echo "#define IPCLAB_TREE_STATE \"$$state\""; \
	  echo "#define IPCLAB_CFLAGS \"$(strip $(subst ",,$(CFLAGS)))\""; } > $@.tmp.$$$$; \
	cmp -s $@.tmp.$$$$ $@ && rm -f $@.tmp.$$$$ || mv $@.tmp.$$$$ $@

# `make V=1` shows the full commands.
Q := $(if $(V),,@)

$(BUILD)/obj/%.o: harness/%.c $(HARNESS_HDR) $(BUILD)/gen/version.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@.tmp.$$$$ && mv $@.tmp.$$$$ $@

$(IPCLAB): $(BUILD)/obj/main.o $(HARNESS_OBJ)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) -o $@.tmp.$$$$ $^ $(LDLIBS) && mv $@.tmp.$$$$ $@

$(BUILD)/tests/%: harness/tests/%.c $(HARNESS_OBJ) $(HARNESS_HDR)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@.tmp.$$$$ $< $(HARNESS_OBJ) $(LDLIBS) && mv $@.tmp.$$$$ $@

.PHONY: harness tests FORCE
harness: $(IPCLAB)
tests: $(TEST_BIN)
FORCE:
