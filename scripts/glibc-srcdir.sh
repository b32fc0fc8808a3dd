#!/bin/sh
# Usage: scripts/glibc-srcdir.sh OBJDIR
# Print the absolute source directory of the glibc build in OBJDIR (its
# Makefile records it relative to OBJDIR).
set -eu
cd "$1"
cd "$(sed -n 's/^srcdir = //p' Makefile)"
pwd
