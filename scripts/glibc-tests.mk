# Read after a glibc subdirectory's Makefile (make -f Makefile -f this):
# `tpf-print-tests' prints the names of the tests that the directory's
# `make check' runs, one per line.
tpf-print-tests:
	@printf '%s\n' $(sort $(tests) $(tests-internal) $(tests-container) \
	  $(tests-static) $(tests-printers) $(tests-special-notdir))
