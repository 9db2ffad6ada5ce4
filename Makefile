# Interlude: `make demo` and `make test` install whatever is missing, then do their job.
SWIFT ?= swift
SWIFT_FLAGS ?=

# `make test` runs the suite on the system's OpenAL Soft; `make test-matrix` runs it again on 1.24.2.
.PHONY: deps build release demo test assets bench clean fuzz sanitize sanitize-thread sanitize-address leaks soak check-model docs

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)

demo: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product Showcase
	$(SWIFT) run $(SWIFT_FLAGS) --skip-build Showcase

# The bench's own package (bench/Package.swift) has its smoke tests and the generated tables' check.
test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) build --build-tests --package-path bench $(SWIFT_FLAGS)
	bash scripts/run-tests.sh $(SWIFT) $(SWIFT_FLAGS)
	TEST_LOG=.build/test-output-bench.log bash scripts/run-tests.sh $(SWIFT) --package-path bench $(SWIFT_FLAGS)

# OpenAL Soft 1.24.2 (Debian 13's), fetched through a private apt list and built into
# .build/openal-1.24.2; nothing of the machine's own is changed.
.PHONY: openal-1.24 test-matrix
openal-1.24: deps
	bash scripts/build-openal.sh

# The whole suite again on OpenAL Soft 1.24.2, private servers included, then each pinned
# scene's render on 1.24.2 against 1.19.1's, in dB (scripts/test-matrix.sh).
test-matrix: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) build --build-tests --package-path bench $(SWIFT_FLAGS)
	bash scripts/test-matrix.sh $(SWIFT) $(SWIFT_FLAGS)

# The model-based test (Tests/InterludeTests/Model) as a long campaign from a fresh seed, which it
# prints; `make test` runs 2,000 sequences from a fixed one. MODEL_SEED=N replays a campaign.
MODEL_SEQUENCES ?= 50000
check-model: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@seed=$${MODEL_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; \
	echo "check-model: $(MODEL_SEQUENCES) sequences from seed $$seed (MODEL_SEED=$$seed replays them)"; \
	INTERLUDE_MODEL_SEED=$$seed INTERLUDE_MODEL_SEQUENCES=$(MODEL_SEQUENCES) \
		$(SWIFT) test --skip-build $(SWIFT_FLAGS) --filter ModelBasedTests

assets: deps
	$(SWIFT) run $(SWIFT_FLAGS) AssetGenerator assets

# The engine against a raw C OpenAL Soft + libvorbisfile baseline; a Markdown table on stdout,
# JSON in bench-results.json (BENCH_FLAGS: --quick, --output FILE, --only 1,3). The bench is a
# package of its own (bench/Package.swift); LogindStub, which the tests run too, is the engine's.
BENCH_FLAGS ?=
BENCH = --package-path bench
bench: deps bench-peers
	$(SWIFT) build -c release $(BENCH) --product InterludeBench $(SWIFT_FLAGS)
	$(SWIFT) build -c release --product LogindStub $(SWIFT_FLAGS)
	$(SWIFT) build -c release $(BENCH) --product BenchFloor $(SWIFT_FLAGS)
	$(SWIFT) build -c release $(BENCH) --product InterludePlayer $(SWIFT_FLAGS)
	$(SWIFT) run -c release --skip-build $(BENCH) $(SWIFT_FLAGS) InterludeBench --peers $(CURDIR)/.build/peers $(BENCH_FLAGS)

# Start-up on every stack (scenario 10, `--stacks`): OpenAL Soft 1.19.1 and 1.24.2 on private
# PulseAudio and PipeWire (pipewire-pulse, and the native backend), raw OpenAL against the engine,
# into bench/results/bench-results-stacks.json, which docs/stacks.md's table is made from.
.PHONY: bench-stacks
bench-stacks: deps openal-1.24
	$(SWIFT) build -c release $(BENCH) --product InterludeBench $(SWIFT_FLAGS)
	$(SWIFT) run -c release --skip-build $(BENCH) $(SWIFT_FLAGS) InterludeBench --stacks --output bench/results/bench-results-stacks.json $(BENCH_FLAGS)

# The tables in docs/performance.md, README.md and docs/stacks.md, between <!-- bench:NAME:begin/end --> markers,
# from docs/bench-results.json (copy a run's bench-results.json there first); never typed by hand.
# `make test` fails when a committed table differs from what the committed JSON gives.
.PHONY: bench-tables
bench-tables: deps
	$(SWIFT) build $(BENCH) --product InterludeBench $(SWIFT_FLAGS)
	$(SWIFT) run --skip-build $(BENCH) $(SWIFT_FLAGS) InterludeBench --tables
	$(SWIFT) run --skip-build $(BENCH) $(SWIFT_FLAGS) InterludeBench --stack-cells bench/results/bench-results-stacks.json >.build/stack-cells-bench.log
	bash scripts/stack-table.sh .build/stack-cells-bench.log

# Scenario 11's peers (SFML, SDL2_mixer, ALURE): their -dev packages and their C/C++ harnesses,
# built with the system compilers into .build/peers. Only the bench needs them, never `make test`.
.PHONY: bench-deps bench-peers
bench-deps:
	@bash scripts/install-bench-deps.sh

bench-peers: bench-deps
	bash bench/peers/build.sh $(CURDIR)/.build/peers

# Reliability (docs/bad-input.md lists the bad inputs these try).
FUZZ_SECONDS ?= 60
SOAK_MINUTES ?= 120

# The DocC catalog (Sources/Interlude/Interlude.docc): fails on a broken link or an undocumented
# public symbol. Open .build/plugins/Swift-DocC/outputs/Interlude.doccarchive, or preview it with
# `swift package --disable-sandbox preview-documentation --target Interlude`.
docs: deps
	bash scripts/docs.sh

# libFuzzer + address sanitizer on the WAV reader, the Ogg Vorbis path and the scene parser.
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

# The whole test suite under thread sanitizer, then under address sanitizer.
sanitize: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan $(SWIFT_FLAGS)
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp $(SWIFT) test --sanitize=address --scratch-path .build-asan $(SWIFT_FLAGS)

# CI's sanitizer passes, each in its own scratch path. Thread sanitizer: the model-based test
# (TSAN_MODEL_SEQUENCES of its sequences: instrumented, a sequence takes about 10 times as long),
# the tests that call the engine from many threads at once, and the idle driver's tests, whose
# probe pauses and resumes real devices off the engine lock. Address sanitizer (+ LSan,
# scripts/lsan.supp): the decoders, WAV reading and writing, and the scene tools.
TSAN_MODEL_SEQUENCES ?= 500
TSAN_TESTS = ModelBasedTests|ModelRegressionTests|LifecycleStressTests|ConcurrencyStressTests|ListenerConcurrencyTests|DriverThreadTests|StreamDecodeWorkerTests|IdleDriverTests
# [./]Scene...: the scene suites.
ASAN_TESTS = DecoderTests|DecoderFactoryTests|LoopTagTests|FuzzRegressionTests|PCMConversionTests|WAVFileWriterTests|[./]Scene[A-Za-z0-9]*Tests|DeviceLostReasonTests|RenderPlotTests|ResamplerTests|RenderCommandTests|RenderInterruptionTests
sanitize-thread: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan $(SWIFT_FLAGS)
	INTERLUDE_MODEL_SEQUENCES=$(TSAN_MODEL_SEQUENCES) TEST_LOG=.build-tsan/test-output.log \
		bash scripts/run-tests.sh $(SWIFT) --sanitize=thread --scratch-path .build-tsan $(SWIFT_FLAGS) --filter '$(TSAN_TESTS)'

sanitize-address: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan $(SWIFT_FLAGS)
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp TEST_LOG=.build-asan/test-output.log \
		bash scripts/run-tests.sh $(SWIFT) --sanitize=address --scratch-path .build-asan $(SWIFT_FLAGS) --filter '$(ASAN_TESTS)'

# A full engine lifecycle under valgrind memcheck (`make deps` installs valgrind); suppressions in
# scripts/valgrind.supp.
leaks: deps
	$(SWIFT) build --product LeakProbe --scratch-path .build-leaks $(SWIFT_FLAGS)
	valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
		--error-exitcode=1 --suppressions=scripts/valgrind.supp .build-leaks/debug/LeakProbe

# SOAK_MINUTES of game time of a busy scene, rendered offline as fast as possible.
# MALLOC_MMAP_THRESHOLD_ pins glibc's mmap threshold: by default the first free of a large mmapped
# block (the first lost device's mixing buffers) raises it, so the rebuilt device's buffers come
# from the heap instead, and resident memory steps up once by about 8 MB (measured: 47.8 -> 56.1 MB
# at the first device loss, flat through the next ten). Pinned, the memory check sees only ours.
soak: deps
	$(SWIFT) build -c release --product Soak $(SWIFT_FLAGS)
	MALLOC_MMAP_THRESHOLD_=131072 $(SWIFT) run -c release --skip-build $(SWIFT_FLAGS) Soak --minutes $(SOAK_MINUTES)

clean:
	rm -rf .build .build-fuzz .build-tsan .build-asan .build-leaks bench/.build

# docs/arcade-score.svg: the Arcade's score (examples/scenes/arcade-score.json) rendered with each
# stem's level and the bar lines.
.PHONY: score-plot
score-plot: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product interlude
	$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/interlude render examples/scenes/arcade-score.json \
	  -o $${TMPDIR:-/tmp}/arcade-score.wav --plot docs/arcade-score.svg --plot-stems
