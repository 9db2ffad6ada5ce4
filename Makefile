# Interlude: `make demo` and `make test` install whatever is missing, then do their job.
SWIFT ?= swift
SWIFT_FLAGS ?=

.PHONY: deps build release demo test assets clean

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

clean:
	rm -rf .build
