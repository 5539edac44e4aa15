# bench-*: side-by-side benchmarks that print a ratio; never pass/fail on time.
.PHONY: bench-overhead
bench-overhead: $(IPCLAB)
	@bench/overhead.sh

.PHONY: bench-dbus
bench-dbus: $(IPCLAB)
	@bench/dbus-reference.sh
