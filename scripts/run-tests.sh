#!/usr/bin/env bash
# The test runs of `make test`, `make sanitize-thread` and `make sanitize-address`: the tests
# (already built; the arguments after the swift command go to `swift test --skip-build`), their
# whole output on the terminal and in $TEST_LOG (default .build/test-output.log). When a test
# fails, its recorded issues are printed again at the end, so the last lines of a long log (all a
# CI page may keep) name what failed and where.
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${1:-swift}
shift || true
log=${TEST_LOG:-.build/test-output.log}
mkdir -p "$(dirname "$log")"
"$swift" test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "== tests failed (exit $status); their recorded issues, from $log:"
  grep -a -E '✘ Test .*(recorded an issue|failed after)' "$log" | cut -c1-600 | head -40
fi
exit "$status"
