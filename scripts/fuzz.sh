#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/ and runs each for FUZZ_SECONDS (default 60).
#
#   scripts/fuzz.sh            build, then run every harness
#   scripts/fuzz.sh build      build only
#   scripts/fuzz.sh run NAME   run one harness (WAVFuzzer, VorbisFuzzer, SceneFuzzer, FLACFuzzer,
#                              MP3Fuzzer, OpusFuzzer)
#
# The Interlude and InterludeScene libraries (and swift-log under them) are built by SwiftPM with coverage and address
# sanitizer instrumentation into .build-fuzz; each harness is then compiled by swiftc with
# -sanitize=fuzzer,address and linked against those objects, so libFuzzer supplies main().
# Corpora: Tests/Fixtures/fuzz/<harness>/ holds the committed seeds; what a run finds goes to
# .build-fuzz/corpus/<harness>/ (not committed). Crashes and hangs are written to
# .build-fuzz/artifacts/<harness>/ and the run fails; each becomes a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH=.build-fuzz
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
# FUZZ_RUNS: a fixed number of executions per harness from a fixed seed instead of a time
# bound, so a pass is reproducible (CI uses it: a random pass could rediscover the open libogg
# crash in Tests/Fixtures/fuzz-regressions and fail CI by chance).
FUZZ_RUNS=${FUZZ_RUNS:-}
# FUZZ_TIMEOUT_SECONDS: libFuzzer's wall-clock limit per input (a hang). CI raises it: on a
# shared 2-core machine under load, inputs that run in 3 to 8 ms were reported as 1 s timeouts.
FUZZ_TIMEOUT_SECONDS=${FUZZ_TIMEOUT_SECONDS:-1}
HARNESSES=(WAVFuzzer VorbisFuzzer SceneFuzzer FLACFuzzer MP3Fuzzer OpusFuzzer)
# The FLAC, MP3 and Opus harnesses run a fifth of FUZZ_RUNS (and of FUZZ_SECONDS), so that the
# three of them add well under two minutes to CI's fixed pass (measured: 20,000 runs took 6.4,
# 5.0 and 2.3 s; 40,000 each about half a minute for the three).
CODEC_HARNESSES=" FLACFuzzer MP3Fuzzer OpusFuzzer "

build() {
  swift build --scratch-path "$SCRATCH" --target InterludeScene -j 2 \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -g
  local debug="$SCRATCH/debug"
  local objects=("$debug"/Interlude.build/*.o "$debug"/InterludeScene.build/*.o "$debug"/Logging.build/*.o
                 "$debug"/CDesktopLibraries.build/*.o "$debug"/CDecoderLibraries.build/*.o)
  mkdir -p "$SCRATCH/bin"
  for harness in "${HARNESSES[@]}"; do
    swiftc -sanitize=fuzzer,address -parse-as-library -g -swift-version 6 \
      -I "$debug/Modules" -I Sources/COpenAL -I Sources/CVorbisFile \
      -I Sources/CFLAC -I Sources/CMPG123 -I Sources/CStdioCookie -I Sources/CEBUR128 -Xcc -I/usr/include/opus \
      -Xcc -fmodule-map-file="$debug/CDesktopLibraries.build/module.modulemap" -Xcc -I -Xcc Sources/CDesktopLibraries/include \
      -Xcc -fmodule-map-file="$debug/CDecoderLibraries.build/module.modulemap" -Xcc -I -Xcc Sources/CDecoderLibraries/include \
      Fuzz/Support/*.swift "Fuzz/$harness/main.swift" "${objects[@]}" \
      -lopenal -lvorbisfile -lvorbis -logg -lFLAC -lmpg123 -lopusfile -lopus -lebur128 \
      -use-ld=lld -o "$SCRATCH/bin/$harness"
  done
}

run() {
  local harness=$1
  local corpus="$SCRATCH/corpus/$harness" artifacts="$SCRATCH/artifacts/$harness"
  mkdir -p "$corpus" "$artifacts"
  local runs=$FUZZ_RUNS seconds=$FUZZ_SECONDS
  if [[ "$CODEC_HARNESSES" == *" $harness "* ]]; then
    runs=$(( ${FUZZ_RUNS:-0} / 5 ))
    seconds=$(( (FUZZ_SECONDS + 4) / 5 ))
  fi
  local budget=(-max_total_time="$seconds")
  if [ -n "$FUZZ_RUNS" ]; then
    budget=(-runs="$runs" -seed=1)
    echo "== $harness: $runs runs from seed 1"
  else
    echo "== $harness: ${seconds} s"
  fi
  # detect_leaks: libFuzzer's per-input leak check; -malloc_limit_mb catches a single huge
  # allocation (a 4 GB declared chunk must never become a 4 GB buffer).
  # SWIFT_BACKTRACE=enable=no: on a Swift trap (a failed precondition), the runtime's backtracer
  # would read the stack in a way ASan reports as a stack-buffer-underflow of its own, hiding the
  # trap's message; without it the log says which precondition failed.
  set +e
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 LSAN_OPTIONS=suppressions=scripts/lsan.supp \
    "$SCRATCH/bin/$harness" "$corpus" "Tests/Fixtures/fuzz/$harness" \
      "${budget[@]}" -timeout="$FUZZ_TIMEOUT_SECONDS" -rss_limit_mb=2048 -malloc_limit_mb=512 \
      -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts/" > "$SCRATCH/$harness.log" 2>&1
  local status=$?
  set -e
  grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY|artifact_prefix)|Fatal error' "$SCRATCH/$harness.log" || true
  return $status
}

case "${1:-all}" in
  build) build ;;
  run) run "$2" ;;
  all)
    build
    status=0
    for harness in "${HARNESSES[@]}"; do run "$harness" || status=1; done
    exit $status ;;
  *) echo "usage: $0 [build | run HARNESS]" >&2; exit 2 ;;
esac
