#!/usr/bin/env bash
# `make test-matrix`: the whole suite again on OpenAL Soft 1.24.2 (Debian 13's), built by
# scripts/build-openal.sh into .build and chosen at run time through LD_LIBRARY_PATH: the engine
# is the one `make test` built against the system's 1.19.1, unchanged. Every test with a private
# PulseAudio or PipeWire server runs again too. Then each pinned scene is rendered on both
# releases, and how far 1.24.2's render is from 1.19.1's is printed in dB. Last, the cells the
# server tests of both runs measured (this one's and `make test`'s log) are kept in
# bench/results/stacks.tsv and docs/stacks.md's stack table is written from them.
#
#   scripts/test-matrix.sh SWIFT [SWIFT_FLAGS...]
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${1:-swift}
shift || true

library=$(bash scripts/build-openal.sh | tail -n 1) || exit 1
libdir=$(dirname "$library")
release=1.24.2
echo "== test-matrix: the suite on OpenAL Soft $release ($library)"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" INTERLUDE_EXPECT_OPENAL="$release" \
  TEST_LOG=.build/test-output-$release.log bash scripts/run-tests.sh "$swift" "$@"
status=$?
# The bench's package (bench/Package.swift): its smoke tests on this release too.
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" INTERLUDE_EXPECT_OPENAL="$release" \
  TEST_LOG=.build/test-output-bench-$release.log bash scripts/run-tests.sh "$swift" --package-path bench "$@" || status=1

echo "== test-matrix: the pinned scenes on 1.19.1 and $release (difference: RMS of 1.24.2 minus 1.19.1, in dB below 1.19.1's RMS)"
interlude=$("$swift" build "$@" --show-bin-path)/interlude
renders=.build/stack-renders
mkdir -p "$renders"
for scene in examples/scenes/showcase.json Tests/Fixtures/scenes/groups.json Tests/Fixtures/scenes/session.json Tests/Fixtures/scenes/mono.json; do
  name=$(basename "$scene" .json)
  "$interlude" render "$scene" -o "$renders/$name-1.19.1.wav" --float >/dev/null 2>&1 &&
    LD_LIBRARY_PATH="$libdir" "$interlude" render "$scene" -o "$renders/$name-$release.wav" --float >/dev/null 2>&1 || {
      echo "test-matrix: could not render $scene" >&2
      status=1
      continue
    }
  reference=$(sox "$renders/$name-1.19.1.wav" -n stats 2>&1 | awk '/RMS lev dB/ {print $4}')
  difference=$(sox -m -v 1 "$renders/$name-1.19.1.wav" -v -1 "$renders/$name-$release.wav" -n stats 2>&1 | awk '/RMS lev dB/ {print $4}')
  printf 'STACK-RENDER %-14s 1.19.1 RMS %7s dBFS, difference %7s dBFS: %s dB below\n' "$name" "$reference" "$difference" \
    "$(awk -v r="$reference" -v d="$difference" 'BEGIN { printf "%.1f", r - d }')"
done
echo "== test-matrix: docs/stacks.md's stack table from the cells both runs measured"
bash scripts/stack-table.sh .build/test-output.log ".build/test-output-$release.log" || status=1
exit "$status"
