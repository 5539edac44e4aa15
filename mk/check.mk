# check: every test program and shell test, counted; the last line of the
# output is "N passed, N failed, N skipped" (a skip is no pass).

.PHONY: check
check: deps-check-test $(IPCLAB) $(TEST_BIN)
	$(Q)harness/tests/run-tests $(TEST_BIN) $(sort $(wildcard harness/tests/test-*.sh))
