#!/bin/sh
# Print the identity of the glibc patch series: a hash of patches/glibc/series
# and of every patch it names, in order.
set -eu
cd "$(dirname "$0")/../patches/glibc"
{ cat series; sed -e 's/#.*//' -e '/^[[:space:]]*$/d' series | xargs -r cat; } \
  | sha256sum | cut -c1-64
