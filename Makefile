# trackink: `make demo` renders the built-in demo, `make test` runs every check. Both install
# what they need first (scripts/setup.sh: Debian packages and FAISS's C API; idempotent).

GO      ?= go
BIN     := bin/trackink
DEMO_OUT ?= demo.mp4

.PHONY: all setup build test vet fmt-check goldens demo bench fuzz clean

all: build

setup:
	bash scripts/setup.sh

build: setup
	$(GO) build -o $(BIN) .

# The test suite: formatting, vet, every package's tests (goldens included), a short fuzz
# of both track readers.
test: setup fmt-check vet
	$(GO) test -count=1 ./...
	$(GO) test -run='^$$' -fuzz=FuzzMOT -fuzztime=10s ./scene
	$(GO) test -run='^$$' -fuzz=FuzzJSONL -fuzztime=10s ./scene

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet: setup
	$(GO) vet ./...

goldens: build
	$(BIN) golden

demo: build
	$(BIN) demo -y -o $(DEMO_OUT)

bench: build
	$(BIN) bench --scene seed --frames 30

fuzz: setup
	$(GO) test -run='^$$' -fuzz=FuzzMOT -fuzztime=60s ./scene
	$(GO) test -run='^$$' -fuzz=FuzzJSONL -fuzztime=60s ./scene

clean:
	rm -rf bin golden-failures
