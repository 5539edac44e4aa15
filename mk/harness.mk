# harness: the `ipclab` program and its test programs.
#
# What this machine has to build with (the optional libraries, their
# versions and flags) is decided after the packages are installed, not
# before: when make reads this file, deps-check runs first (it installs
# what is missing as root, else prints the apt-get line and make stops),
# then mk/config.sh writes what pkg-config finds to build/config.mk, a
# file replaced only when a line of it changed (make says which), and make
# includes it; every object depends on it.  Both happen while make reads
# its files, before it builds anything (build/outputs.mk, which another
# step includes, needs the harness built, and would otherwise be built
# without the configuration).  So on a fresh machine `make all` installs
# GLib, QtDBus and sdbus-c++ and compiles with them, in one run, and a
# library installed or removed since the last build rebuilds what it
# concerns (everything: the flags of every object name the versions)
# instead of leaving "built without X" behind.  Goals that build nothing
# (clean, deps, ...) check nothing; `make -n` reads the last configuration
# and installs nothing.

CC ?= cc
CFLAGS ?= -O2 -g
WERROR ?= -Werror
# yes: the C++ transports are built where their libraries are (below).
CXX_TRANSPORTS ?= yes
$(if $(filter-out yes no,$(CXX_TRANSPORTS)),$(error CXX_TRANSPORTS=$(CXX_TRANSPORTS): yes or no))
CONFIG := $(BUILD)/config.mk
CONFIG_FREE_GOALS := clean deps deps-check deps-check-test env-hash env-clean
ifneq ($(filter-out $(CONFIG_FREE_GOALS),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
ifneq ($(findstring n,$(filter-out -%,$(firstword $(MAKEFLAGS)))),)
-include $(CONFIG)
else
# (deps.sh and config.sh print to stderr, which $(shell) leaves alone)
DEPS_CHECKED := $(shell $(DEPS_CHECK_CMD) && echo yes)
$(if $(DEPS_CHECKED),,$(error missing packages (above); nothing was built))
$(shell mk/config.sh $(CXX_TRANSPORTS) $(CONFIG))
$(if $(filter 0,$(.SHELLSTATUS)),,$(error mk/config.sh could not write $(CONFIG)))
include $(CONFIG)
endif
endif
# After `make clean` in the same run.
$(CONFIG):
	$(Q)mk/config.sh $(CXX_TRANSPORTS) $@
PKGS = glib-2.0 gio-2.0 gio-unix-2.0 dbus-1 zlib liburing $(if $(HAVE_SDBUS),libsystemd)
SDBUS_DEF = $(if $(HAVE_SDBUS),-DIPCLAB_HAVE_SDBUS -DIPCLAB_LIBSYSTEMD_VERSION='"$(SDBUS_VERSION)"',\
	-DIPCLAB_LIBSYSTEMD_VERSION='"not built in"')
ALL_CPPFLAGS = -D_GNU_SOURCE -Iinclude $(HARNESS_DIRS:%=-Iharness/%) -I$(BUILD)/gen -DIPCLAB_HAVE_LIBDBUS -DIPCLAB_HAVE_GIO \
	-DIPCLAB_LIBURING_VERSION='"$(VERSION_liburing)"' \
	$(SDBUS_DEF) $(CXX_DEF) $(CPPFLAGS)
ALL_CFLAGS = -std=c17 -Wall -Wextra $(WERROR) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS = $(PKG_LIBS) $(CXX_PKG_LIBS) $(LIB_PKG_LIBS) -lrt -lm

# The messaging libraries' transports, each built in where its library is
# installed (build/config.mk; `make deps` and `make all` install them), as
# the C++ transports are (below): ZeroMQ, nng.
LIB_SRC := harness/measure/transports/zeromq.c harness/measure/transports/nng.c
LIB_OBJ = $(if $(HAVE_ZMQ),$(BUILD)/obj/measure/transports/zeromq.o) $(if $(HAVE_NNG),$(BUILD)/obj/measure/transports/nng.o)
LIB_PKG_LIBS = $(if $(HAVE_ZMQ),$(ZMQ_LIBS)) $(if $(HAVE_NNG),$(NNG_LIBS))
$(BUILD)/obj/measure/transports/zeromq.o: ALL_CFLAGS += $(ZMQ_CFLAGS)

# The modules, one folder per step of the pipeline, in the order of their
# layers (README, "Layout": each uses only those before it): base (what
# every step may use: the error domain, safe file reading, TSV tables, the
# tree remover, the LaTeX escaper, spawning a child), define (the
# experiment file), store (data on disk), analyse, measure, place (where
# it runs), report, and cli (the command line).
HARNESS_DIRS := base define store analyse measure measure/transports place place/env report cli
HARNESS_SRC := $(filter-out harness/cli/main.c $(LIB_SRC),$(wildcard $(HARNESS_DIRS:%=harness/%/*.c)))
HARNESS_OBJ := $(patsubst harness/%.c,$(BUILD)/obj/%.o,$(HARNESS_SRC))

# The C++ transports (qtdbus, sdbus-c++, grpc), each built when its library is
# installed (build/config.mk says; `make deps` and `make all` install
# both), and left out with CXX_TRANSPORTS=no.  A transport not built is
# still listed, unavailable with the reason (transport.c).  sdbus-c++ needs
# libsystemd's headers too (its server reads the array through the sd-bus
# message beneath); IPCLAB_SDBUSCPP_ARRAY says whether this sdbus-c++
# appends a std::vector<uint8_t> as one array (from 1.3.0, mk/config.sh).
CXX_FLAGS = -std=c++17 -Wall -Wextra $(WERROR) -fPIC $(CXXFLAGS)
CXX_OBJ = $(if $(HAVE_QTDBUS),$(BUILD)/obj/measure/transports/qtdbus.o) $(if $(HAVE_SDBUSCPP),$(BUILD)/obj/measure/transports/sdbus-cpp.o) \
	$(if $(HAVE_GRPC),$(BUILD)/obj/measure/transports/grpc.o)
# Which ones are linked in is the objects' business (transport.c's weak
# stand-ins give way to them), so nothing else needs to know.
CXX_DEF = -DIPCLAB_QTDBUS_VERSION='"$(QTDBUS_VERSION)"' -DIPCLAB_SDBUSCPP_VERSION='"$(SDBUSCPP_VERSION)"' \
	-DIPCLAB_SDBUSCPP_ARRAY=$(SDBUSCPP_ARRAY)
HARNESS_OBJ += $(CXX_OBJ) $(LIB_OBJ)
HARNESS_HDR := $(wildcard $(HARNESS_DIRS:%=harness/%/*.h) include/ipclab/*.h)
TEST_SRC := $(wildcard harness/tests/test-*.c)
TEST_BIN := $(patsubst harness/tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
# What the binary computes with: every object but meta.o, which only embeds
# the commit.  Outputs computed by ipclab (summaries, the claims table)
# depend on these, not on the binary, so that a commit does not redo them.
IPCLAB_CODE := $(filter-out $(BUILD)/obj/measure/meta.o,$(BUILD)/obj/cli/main.o $(HARNESS_OBJ))

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
$(BUILD)/obj/measure/meta.o: $(BUILD)/gen/version.h

$(BUILD)/obj/%.o: harness/%.c $(HARNESS_HDR) $(CONFIG) | deps-check
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@.tmp.$$$$ && mv $@.tmp.$$$$ $@

# C++: the project's headers are C (their declarations are wrapped in
# extern "C" by the .cpp files); GLib's flags come too, for transport.h.
$(BUILD)/obj/%.o: harness/%.cpp $(HARNESS_HDR) $(CONFIG) | deps-check
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  CXX     $<")
	$(Q)$(CXX) $(ALL_CPPFLAGS) $(CXX_FLAGS) $(PKG_CFLAGS) $(CXX_PKG_CFLAGS) $(CFLAGS) -c $< -o $@.tmp.$$$$ && mv $@.tmp.$$$$ $@

$(IPCLAB): $(BUILD)/obj/cli/main.o $(HARNESS_OBJ) $(CONFIG)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@.tmp.$$$$ $(filter %.o,$^) $(LDLIBS) && mv $@.tmp.$$$$ $@

$(BUILD)/tests/%: harness/tests/%.c $(HARNESS_OBJ) $(HARNESS_HDR)
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@.tmp.$$$$ $< $(HARNESS_OBJ) $(LDLIBS) && mv $@.tmp.$$$$ $@

.PHONY: harness tests FORCE
harness: $(IPCLAB)
tests: $(TEST_BIN)
FORCE:
