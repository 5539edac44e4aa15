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
ALL_CPPFLAGS = -D_GNU_SOURCE -Iinclude -Iharness -I$(BUILD)/gen -DIPCLAB_HAVE_LIBDBUS -DIPCLAB_HAVE_GIO \
	$(SDBUS_DEF) $(CXX_DEF) $(CPPFLAGS)
ALL_CFLAGS = -std=c17 -Wall -Wextra $(WERROR) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS = $(PKG_LIBS) $(CXX_PKG_LIBS) -lrt -lm

HARNESS_SRC := $(filter-out harness/main.c,$(wildcard harness/*.c harness/transports/*.c harness/env/*.c))
HARNESS_OBJ := $(patsubst harness/%.c,$(BUILD)/obj/%.o,$(HARNESS_SRC))

# The C++ transports (qtdbus, sdbus-c++), each built when its library is
# installed (`make deps` installs both; they are optional, see
# mk/deps.mk), and left out with CXX_TRANSPORTS=no.  Decided when make
# reads this file: the object list must be known then.  A transport not
# built is still listed, unavailable with the reason (transport.c).
# sdbus-c++ needs libsystemd's headers too (its server reads the array
# through the sd-bus message beneath).  Before 1.3.0 (its PR #340)
# sdbus-c++ appends a std::vector<uint8_t> element by element, from 1.3.0
# as one array: IPCLAB_SDBUSCPP_ARRAY says which, from the version here.
CXX_TRANSPORTS ?= yes
CXX_FLAGS = -std=c++17 -Wall -Wextra $(WERROR) -fPIC $(CXXFLAGS)
HAVE_QTDBUS := $(if $(filter yes,$(CXX_TRANSPORTS)),$(shell pkg-config --exists Qt5DBus Qt5Core 2>/dev/null && echo yes))
HAVE_SDBUSCPP := $(if $(filter yes,$(CXX_TRANSPORTS)),$(shell pkg-config --exists sdbus-c++ libsystemd 2>/dev/null && echo yes))
QTDBUS_VERSION := $(if $(HAVE_QTDBUS),$(shell pkg-config --modversion Qt5DBus),not built in)
SDBUSCPP_VERSION := $(if $(HAVE_SDBUSCPP),$(shell pkg-config --modversion sdbus-c++),not built in)
SDBUSCPP_ARRAY := $(if $(HAVE_SDBUSCPP),$(shell pkg-config --atleast-version=1.3.0 sdbus-c++ && echo 1 || echo 0),0)
CXX_PKGS := $(strip $(if $(HAVE_QTDBUS),Qt5DBus Qt5Core) $(if $(HAVE_SDBUSCPP),sdbus-c++))
CXX_OBJ := $(if $(HAVE_QTDBUS),$(BUILD)/obj/transports/qtdbus.o) $(if $(HAVE_SDBUSCPP),$(BUILD)/obj/transports/sdbus-cpp.o)
# Which ones are linked in is the objects' business (transport.c's weak
# stand-ins give way to them), so nothing else needs to know.
CXX_DEF := -DIPCLAB_QTDBUS_VERSION='"$(QTDBUS_VERSION)"' -DIPCLAB_SDBUSCPP_VERSION='"$(SDBUSCPP_VERSION)"' \
	-DIPCLAB_SDBUSCPP_ARRAY=$(SDBUSCPP_ARRAY)
CXX_PKG_CFLAGS := $(if $(CXX_PKGS),$(shell pkg-config --cflags $(CXX_PKGS)))
CXX_PKG_LIBS := $(if $(CXX_PKGS),$(shell pkg-config --libs $(CXX_PKGS)) -lstdc++)
HARNESS_OBJ += $(CXX_OBJ)
HARNESS_HDR := $(wildcard harness/*.h harness/env/*.h include/ipclab/*.h)
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

# C++: the project's headers are C (their declarations are wrapped in
# extern "C" by the .cpp files); GLib's flags come too, for transport.h.
$(BUILD)/obj/%.o: harness/%.cpp $(HARNESS_HDR) | deps-check
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  CXX     $<")
	$(Q)$(CXX) $(ALL_CPPFLAGS) $(CXX_FLAGS) $(PKG_CFLAGS) $(CXX_PKG_CFLAGS) $(CFLAGS) -c $< -o $@.tmp.$$$$ && mv $@.tmp.$$$$ $@

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
