# distro/distro.mk -- distribution test builds.  Included by Makefile.in;
# uses its variables (srcdir, BUILD, LOGS, RESULTS, JOBS, SERIES,
# KERNEL_HEADERS) and kernel/kernel.mk's kernel-tree.
#
#   deb-deps     the deb-src entries (scripts/enable-deb-src.sh) and
#                glibc's build dependencies (apt-get build-dep)
#   deb-glibc    Debian's glibc source package + the fork's series,
#                dpkg-buildpackage (amd64 flavour only) -> build/deb/glibc
#   deb-kernel   the patched 6.1 tree by `make bindeb-pkg' (the VM's
#                configuration) -> build/deb/linux, with linux-libc-dev
#   check-deb    a Debian 12 root by mmdebstrap with those packages
#                installed by apt; the DejaGnu suite distro/testsuite,
#                sysbench and xz inside it -> build/results/deb.{sum,log}
#
# None of these is in `make check': they take far longer than its budget
# (README, "Distribution test builds").  Each long step runs niced and
# prints a progress line every 30 seconds; the full output is in
# build/logs/deb-*.log.

DEB_DIR := $(BUILD)/deb
DEB_JOBS := 2
# The Debian revision suffix of the packages: +tpf$(DEB_REVISION).
DEB_REVISION := 1
# The kernel packages' version: the pinned linux-source version + tpfN.
DEB_KERNEL_VERSION = $(LINUX_DEB_VERSION)+tpf$(DEB_REVISION)

.PHONY: deb-deps deb-glibc deb-kernel check-deb deb-all

deb-deps:
	@$(srcdir)/scripts/enable-deb-src.sh

deb-glibc: deb-deps export-series kernel-headers
	@TPF_DEB_REVISION=$(DEB_REVISION) $(srcdir)/distro/deb-glibc.sh \
	  $(SERIES) $(KERNEL_HEADERS) $(DEB_DIR)/glibc $(LOGS)/deb-glibc.log $(DEB_JOBS)

deb-kernel: kernel-tree
	@$(srcdir)/distro/deb-kernel.sh $(BUILD)/linux $(srcdir)/kernel/config.fragment \
	  $(DEB_DIR)/linux $(DEB_JOBS) $(LOGS)/deb-kernel.log $(DEB_KERNEL_VERSION)

# check-deb uses the packages the two targets above left in build/deb;
# it does not rebuild them (`make deb-glibc deb-kernel check-deb' does).
check-deb:
	@$(srcdir)/distro/check-deb.sh $(DEB_DIR) $(srcdir)/distro/testsuite \
	  $(RESULTS) $(LOGS)/deb-check.log

deb-all: deb-glibc deb-kernel check-deb
