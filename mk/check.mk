# check: the test suite, in two tiers.  Every target here ends with the line
# "N passed, N failed, N skipped" (harness/tests/run-tests; a skip is no
# pass, and the skips are listed by reason above that line).
#
#   make check          the whole suite: every test program and every
#                       harness/tests/test-*.sh (what .ci/run runs)
#   make check-quick    the quick tier: the tests named in CHECK_QUICK, unit
#                       tests and in-process integration (no images, sshd,
#                       Slurm or fresh root): what to run before a commit
#   make check-busy     the whole suite while two CPU hogs run (stress-ng),
#                       started and stopped by run-tests: no test may
#                       depend on the machine being quiet
#   make check-fresh    (mk/fresh.mk) and check-fresh-full: on a fresh
#                       Debian 12 root
#
# A test is in the quick tier when its name is in CHECK_QUICK; a new test
# is in the whole suite only until it is added there.  Add it when it runs
# in seconds and starts no container, VM, sshd, Slurm or LaTeX.
# TEST_TIME_LIMIT: seconds a test may run before it is stopped as hung
# (a hang detector, not a performance test; run-tests --time-limit).
CHECK_QUICK := test-columns test-compare test-experiment test-hist test-latency test-select test-stats test-verify \
	test-style test-untar \
	test-transports test-faults test-bus test-numbers.sh \
	test-cli.sh test-readme-columns.sh test-latency.sh test-run.sh test-security.sh test-window.sh
TEST_TIME_LIMIT ?= 1800
# TEST_JOBS: tests run at a time (run-tests --jobs).  CHECK_SERIAL: the
# tests that use what is machine-wide (container and VM images and their
# caches, sshd, Slurm, a fixed port, /run): never two at once, in one
# lane of their own (run-tests --serial).  A new test of that kind goes
# there.
TEST_JOBS ?= 2
CHECK_SERIAL := test-env.sh test-fresh.sh test-install.sh test-ssh.sh test-slurm.sh
CHECK_TESTS = $(TEST_BIN) $(sort $(wildcard harness/tests/test-*.sh))
CHECK_QUICK_TESTS = $(foreach t,$(CHECK_TESTS),$(if $(filter $(CHECK_QUICK),$(notdir $(t))),$(t)))
RUN_TESTS = harness/tests/run-tests --time-limit $(TEST_TIME_LIMIT) --jobs $(TEST_JOBS) --serial '$(CHECK_SERIAL)'

.PHONY: check check-quick check-busy
check: deps-check-test $(IPCLAB) $(TEST_BIN)
	$(Q)$(RUN_TESTS) --slow $(CHECK_TESTS)

check-quick: deps-check-test $(IPCLAB) $(TEST_BIN)
	$(Q)$(RUN_TESTS) $(CHECK_QUICK_TESTS)

check-busy: deps-check-test $(IPCLAB) $(TEST_BIN)
	$(Q)$(RUN_TESTS) --slow --busy $(CHECK_TESTS)
