# plugins: transport plugins built in this repository the way a study
# builds its own, against include/ipclab/transport.h alone (they link
# nothing of ipclab's):
#   $(BUILD)/plugins/NAME.so              the examples: examples/transports/
#                                         (seqpair, the README's; dgrampair, in
#                                         C++), and the
#                                         study template's
#                                         template/transports/pipe-packet.c;
#                                         make install puts all but pipe-packet
#                                         (every study has its own) into
#                                         PREFIX/lib/ipclab/transports/
#   $(BUILD)/tests/plugins/faulty-KIND.so the test suite's plugins that go
#                                         wrong, one way each (harness/tests/
#                                         plugins/faulty.c), beside the examples
#   $(BUILD)/asan/plugins/...             the same with the sanitizers of the
#                                         ASan test programs (mk/fuzz.mk)
# test-plugin finds them beside itself, in plugins/.

PLUGIN_FLAGS = -O2 -g -fPIC -fvisibility=hidden -Iinclude $(WERROR)
PLUGIN_CFLAGS = -std=c17 -Wall -Wextra $(PLUGIN_FLAGS)
INSTALLED_PLUGINS := $(BUILD)/plugins/seqpair.so
# dgrampair (C++) is installed as a source only: test-plugin.sh builds it
# in a study, with the template's rule for transports/NAME.cpp.
EXAMPLE_PLUGINS := $(INSTALLED_PLUGINS) $(BUILD)/plugins/pipe-packet.so $(BUILD)/plugins/dgrampair.so
EXAMPLE_SOURCES := examples/transports/seqpair.c examples/transports/dgrampair.cpp
PLUGIN_CXXFLAGS = -std=c++17 -Wall -Wextra $(PLUGIN_FLAGS)

$(BUILD)/plugins/%.so: examples/transports/%.c include/ipclab/transport.h
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(CC) $(PLUGIN_CFLAGS) -shared -o $@.tmp.$$$$ $< $(PLUGIN_LIBS_$*) && mv $@.tmp.$$$$ $@
$(BUILD)/plugins/%.so: examples/transports/%.cpp include/ipclab/transport.h
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(CXX) $(PLUGIN_CXXFLAGS) -shared -o $@.tmp.$$$$ $< && mv $@.tmp.$$$$ $@
$(BUILD)/plugins/%.so: template/transports/%.c include/ipclab/transport.h
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(CC) $(PLUGIN_CFLAGS) -shared -o $@.tmp.$$$$ $< && mv $@.tmp.$$$$ $@

# Faults: see faulty.c.  "ok" is the sound one.
PLUGIN_FAULTS := ok abi minor size flags old-threads no-send no-version dup undefined no-symbol crash-unavailable \
	crash-refuses crash-open crash-send crash-prepare crash-cleanup crash-close hang-prepare hang-cleanup \
	hang-recv overflow
TEST_PLUGIN_NAMES := $(PLUGIN_FAULTS:%=faulty-%.so) $(notdir $(EXAMPLE_PLUGINS))
TEST_PLUGINS := $(addprefix $(BUILD)/tests/plugins/,$(TEST_PLUGIN_NAMES))
ASAN_TEST_PLUGINS := $(addprefix $(BUILD)/asan/plugins/,$(TEST_PLUGIN_NAMES))
# -DFAULT_CRASH_OPEN for crash-open; none for ok.
plugin_fault = -DNAME='"faulty-$(1)"' $(if $(filter-out ok,$(1)),-DFAULT_$(shell echo '$(1)' | tr 'a-z-' 'A-Z_'))

$(BUILD)/tests/plugins/faulty-%.so: harness/tests/plugins/faulty.c include/ipclab/transport.h
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(CC) $(PLUGIN_CFLAGS) $(call plugin_fault,$*) -shared -o $@.tmp.$$$$ $< && mv $@.tmp.$$$$ $@
$(BUILD)/tests/plugins/%.so: $(BUILD)/plugins/%.so
	$(Q)mkdir -p $(@D) && cp $< $@

$(BUILD)/asan/plugins/faulty-%.so: harness/tests/plugins/faulty.c include/ipclab/transport.h
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(FUZZ_CC) $(filter-out $(WERROR),$(PLUGIN_CFLAGS)) -O1 $(FUZZ_SANITIZE) $(call plugin_fault,$*) \
		-shared -o $@.tmp.$$$$ $< && mv $@.tmp.$$$$ $@
$(BUILD)/asan/plugins/%.so: examples/transports/%.c include/ipclab/transport.h
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(FUZZ_CC) $(filter-out $(WERROR),$(PLUGIN_CFLAGS)) -O1 $(FUZZ_SANITIZE) -shared -o $@.tmp.$$$$ $< \
		$(PLUGIN_LIBS_$*) && mv $@.tmp.$$$$ $@
$(BUILD)/asan/plugins/%.so: examples/transports/%.cpp include/ipclab/transport.h
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(FUZZ_CC) -x c++ $(filter-out $(WERROR),$(PLUGIN_CXXFLAGS)) -O1 $(FUZZ_SANITIZE) -shared -o $@.tmp.$$$$ $< \
		&& mv $@.tmp.$$$$ $@
$(BUILD)/asan/plugins/%.so: template/transports/%.c include/ipclab/transport.h
	$(Q)mkdir -p $(@D)
	@$(if $(Q),echo "  PLUGIN  $@")
	$(Q)$(FUZZ_CC) $(filter-out $(WERROR),$(PLUGIN_CFLAGS)) -O1 $(FUZZ_SANITIZE) -shared -o $@.tmp.$$$$ $< \
		&& mv $@.tmp.$$$$ $@

$(BUILD)/tests/test-plugin: $(TEST_PLUGINS)
$(BUILD)/asan/test-plugin: $(ASAN_TEST_PLUGINS)

.PHONY: plugins
plugins: $(EXAMPLE_PLUGINS)
tests: $(EXAMPLE_PLUGINS)
