#!/bin/sh
# Add `deb-src' entries for every Debian archive and suite that the
# machine's `deb' entries name (deb822 .sources files and one-line
# sources.list), so that `apt-get source' and `apt-get build-dep' work
# from the same archive.  Idempotent: the entries live in one file,
# /etc/apt/sources.list.d/tpf-deb-src.sources, rewritten each time.
#
# Usage: scripts/enable-deb-src.sh    (as root; runs apt-get update when
#                                       the file changed)
set -eu
out=/etc/apt/sources.list.d/tpf-deb-src.sources
say() { echo "enable-deb-src: $*"; }
[ "$(id -u)" = 0 ] || { echo "enable-deb-src: must run as root" >&2; exit 1; }

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
  echo "# Written by TPF scripts/enable-deb-src.sh: the deb-src twins of the"
  echo "# Debian deb entries, for apt-get source and apt-get build-dep."
  # deb822 stanzas: keep those whose Types include deb and whose URIs are
  # a Debian archive; print them with Types: deb-src.
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && [ "$f" != "$out" ] || continue
    awk '
      function flush() {
        if (deb && debian && uris != "" && suites != "")
          printf "\nTypes: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\n%s", uris, suites, comps, (signed != "" ? "Signed-By: " signed "\n" : "")
        deb = 0; debian = 0; uris = suites = comps = signed = ""
      }
      /^[ \t]*$/ { flush(); next }
      /^#/ { next }
      tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
      tolower($1) == "uris:" { uris = $2; for (i = 3; i <= NF; i++) uris = uris " " $i
                               if (uris ~ /debian/) debian = 1 }
      tolower($1) == "suites:" { suites = $2; for (i = 3; i <= NF; i++) suites = suites " " $i }
      tolower($1) == "components:" { comps = $2; for (i = 3; i <= NF; i++) comps = comps " " $i }
      tolower($1) == "signed-by:" { signed = $2 }
      END { flush() }' "$f"
  done
  # One-line entries.
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1 == "deb" && $0 ~ /debian/ {
           opts = ""; i = 2
           if ($2 ~ /^\[/) { while ($i !~ /\]$/) { opts = opts " " $i; i++ } opts = opts " " $i; i++ }
           comps = $(i + 2); for (j = i + 3; j <= NF; j++) comps = comps " " $j
           printf "\nTypes: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\n", $i, $(i + 1), comps
         }' "$f"
  done
} > "$tmp"
grep -q '^Types: deb-src' "$tmp" \
  || { echo "enable-deb-src: no Debian deb entries found in /etc/apt" >&2; exit 1; }
if [ -f "$out" ] && cmp -s "$tmp" "$out"; then
  say "deb-src entries already present ($out)"
  exit 0
fi
install -m 644 "$tmp" "$out"
say "wrote $(grep -c '^Types: deb-src' "$out") deb-src entries to $out; apt-get update"
apt-get update -q
