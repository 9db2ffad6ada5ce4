#!/usr/bin/env bash
# `make test`'s test run: every test, its whole output on the terminal and in
# .build/test-output.log. When a test fails, its recorded issues are printed again at the end, so
# the last lines of a long log (all a CI page may keep) name what failed and where.
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${1:-swift}
shift || true
log=.build/test-output.log
mkdir -p .build
"$swift" test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "== make test: failed (exit $status); the tests' recorded issues, from $log:"
  grep -a -E '✘ Test .*(recorded an issue|failed after)' "$log" | cut -c1-600 | head -40
fi
exit "$status"
