# Interlude: `make demo` and `make test` install whatever is missing, then do their job.
SWIFT ?= swift
SWIFT_FLAGS ?=

.PHONY: deps build release demo test assets bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_FLAGS)

demo: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product Showcase
	$(SWIFT) run $(SWIFT_FLAGS) --skip-build Showcase

test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_FLAGS)

assets: deps
	$(SWIFT) run $(SWIFT_FLAGS) AssetGenerator assets

# The engine against a raw C OpenAL Soft + libvorbisfile baseline; a Markdown table on stdout,
# JSON in bench-results.json (BENCH_FLAGS: --quick, --output FILE, --only 1,3).
BENCH_FLAGS ?=
bench: deps
	$(SWIFT) build -c release --product InterludeBench $(SWIFT_FLAGS)
	$(SWIFT) run -c release --skip-build $(SWIFT_FLAGS) InterludeBench $(BENCH_FLAGS)

clean:
	rm -rf .build
