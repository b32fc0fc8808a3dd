# Sourced, after upstream.conf and with `say' and `die' defined, by the
# scripts that unpack glibc's source tarball (assemble-glibc.sh,
# export-series.sh, check-series.sh).
#
# glibc_tarball_check: fail unless $GLIBC_TARBALL exists; for the pinned
# version, fail unless it matches its checksum.  For a fallback version
# (the pinned one gone from the archive, scripts/pin-used.sh) there is no
# checksum to match: warn, and record the version used in
# GLIBC_DEB_VERSION and its checksum in GLIBC_TARBALL_SHA256, which the
# callers write into their results.
glibc_tarball_check() {
  [ -f "$GLIBC_TARBALL" ] \
    || die "$GLIBC_TARBALL missing: install $GLIBC_DEB_PACKAGE (scripts/install-deps.sh)"
  pin=$("$top/scripts/pin-used.sh" "$GLIBC_DEB_PACKAGE" "$GLIBC_DEB_VERSION") \
    || die "no usable $GLIBC_DEB_PACKAGE (scripts/install-deps.sh)"
  used=${pin% *}
  if [ "${pin#* }" = pinned ]; then
    say "verifying $GLIBC_TARBALL"
    echo "$GLIBC_TARBALL_SHA256  $GLIBC_TARBALL" | sha256sum -c --quiet - \
      || die "checksum mismatch for $GLIBC_TARBALL (expected $GLIBC_DEB_PACKAGE $GLIBC_DEB_VERSION)"
  else
    say "WARNING: $GLIBC_DEB_PACKAGE $used, not the pinned $GLIBC_DEB_VERSION (no checksum to verify); the series must apply on it"
    GLIBC_DEB_VERSION="$used (fallback from $GLIBC_DEB_VERSION)"
    GLIBC_TARBALL_SHA256=$(sha256sum < "$GLIBC_TARBALL" | cut -d' ' -f1)
  fi
}
