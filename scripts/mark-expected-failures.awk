# Rewrite a glibc tests.sum (lines `RESULT: NAME') against lists of
# expected failures: a listed test that fails becomes XFAIL, one that
# passes XPASS (the list has gone stale); everything else is unchanged.
# Usage: awk -f mark-expected-failures.awk XFAIL-LIST... tests.sum
# An XFAIL-LIST has one test name per line; `#' starts a comment.

FILENAME != ARGV[ARGC - 1] {
  sub (/#.*/, "")
  if ($1 != "")
    expected[$1] = 1
  next
}
{
  result = $1
  sub (/:$/, "", result)
  if ($2 in expected)
    result = (result == "FAIL") ? "XFAIL" : (result == "PASS") ? "XPASS" : result
  print result ": " $2
}
