# trackink: `make demo` renders the built-in demo, `make test` runs every check. Both install
# what they need first (scripts/setup.sh, idempotent: for the build FFmpeg's development
# packages alone; for the tests also FAISS's C API, fonts, footage and Debian's CUDA 11.8
# toolkit, whose nvcc compiles the kernels).

GO      ?= go
BIN     := bin/trackink
# The version `trackink version` prints: the tag, commits since it and the commit, as
# git describe says it (v1.2.0-3-gd96db58-dirty, or the commit alone before the first tag).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo unknown)
# Expanded once: every target of one make run names the same version.
VERSION := $(VERSION)
VERSION_LDFLAGS := -X trackink/cli.buildVersion=$(VERSION)
DEMO_OUT ?= demo.mp4
FAKECUDA := $(CURDIR)/bin/fakecuda

# Every fuzz target, as package:Target: the parsers of everything a user hands trackink, the
# shaping of label text, and the exact link graphs on any points.
FUZZ := scene:FuzzMOT scene:FuzzJSONL scene:FuzzSupervision scene:FuzzKITTI scene:FuzzCVAT \
	scene:FuzzYOLO scene:FuzzClassNames overlay:FuzzStyleFile options:FuzzEffectFlags overlay:FuzzShape \
	knn:FuzzGraphs

# fuzz runs every target in FUZZ for $(1) each: a count of inputs (100000x) or a time (60s).
# make test gives a count: a time ends in a race in Go 1.26's fuzzing coordinator
# (go.dev/issue/75804, fixed in Go 1.27) that now and then fails a target at its deadline
# with "context deadline exceeded", having found nothing. 100000 inputs take 3 to 30 s a
# target here, about the 10 s each of before in all.
define fuzz
	set -e; for t in $(FUZZ); do $(GO) test -run='^$$' -fuzz="^$${t#*:}$$" -fuzztime=$(1) ./$${t%%:*}; done
endef

.PHONY: all setup setup-cuda setup-test-deps gallery build install test vet fmt-check goldens demo man bench fuzz clean \
	kernels-fatbin cuda-check cuda-fake fakecuda kernels-asan build-cuda

all: build

setup:
	bash scripts/setup.sh

setup-cuda:
	bash scripts/setup.sh --cuda

# What the tests need beyond the build: FAISS (-tags faiss), fonts, footage, OpenCV.
setup-test-deps:
	bash scripts/setup.sh --test

# The detector's model, kept beside the project (../shared/models, never committed): make
# build puts a copy in bin/models, where bin/trackink looks first (detect/locate.go).
MODEL_SRC ?= ../shared/models/yolox_nano.onnx
PREFIX ?= $(HOME)/.local

build: setup
	$(GO) build -ldflags "$(VERSION_LDFLAGS)" -o $(BIN) .
	@if [ -f "$(MODEL_SRC)" ]; then mkdir -p bin/models && cp -u "$(MODEL_SRC)" bin/models/; \
	else echo "build: no $(MODEL_SRC): --detect people and objects need YOLOX-Nano (trackink track --help says where it goes)"; fi
	@echo "built $(BIN): run it as $(BIN), or 'make install' puts it in $(PREFIX)/bin"

# install copies trackink to $(PREFIX)/bin and the model to the user's data directory, where
# trackink finds it from anywhere (setup put ONNX Runtime there).
install: build
	install -D -m 0755 $(BIN) $(PREFIX)/bin/trackink
	@if [ -f bin/models/yolox_nano.onnx ]; then install -D -m 0644 bin/models/yolox_nano.onnx \
		$${XDG_DATA_HOME:-$$HOME/.local/share}/trackink/models/yolox_nano.onnx; fi
	@echo "installed $(PREFIX)/bin/trackink"

# The test suite: formatting, vet, every package's tests (goldens included, the CUDA kernels
# on the emulated device), the kernels under AddressSanitizer and UBSan, the nvcc compile of
# the kernels and the cuda build, the CUDA device's host code against the fake driver, the
# portable tarball and the GPU kit run in a root without FFmpeg (against the fake driver),
# the same tarball built for arm64 and run under qemu-user in a bare arm64 Debian 11 root
# (its goldens, CPU and CUDA on the fake driver, and the SIMD packages' tests, whose generic
# Go twins are what arm64 runs), the arm64 GPU kit refusing an x86-64 machine,
# the renderer's worker pool under the race detector, a one-node Slurm cluster (started and
# stopped by scripts/slurm/cluster.sh, as root) running the README's cluster recipe
# (cli/slurm_test.go, build tag slurm so that ./... does not start it twice), and a short
# fuzz of every parser.
test: setup-test-deps setup-cuda fmt-check vet kernels-asan cuda-check cuda-fake setup-test dist-test gpu-kit-test \
	dist-test-arm64
	$(GO) test -count=1 ./...
	$(GO) vet -tags slurm ./cli
	$(GO) test -tags slurm -count=1 -timeout 12m -run '^TestSlurm' ./cli
	$(GO) test -tags faiss -count=1 ./knn
	$(GO) test -race -count=1 ./render ./composite
	$(call fuzz,100000x)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# vet, staticcheck (its default checks less ST1005: trackink's messages may start with a
# flag's or a format's capital and end in an ellipsis; staticcheck.conf) and deadcode (no
# function that nothing, tests included, reaches). The versions are pinned; the module proxy
# serves them and the build cache keeps them.
vet: setup-test-deps
	$(GO) vet ./...
	$(GO) vet -tags faiss ./knn
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
	@out=$$($(GO) run golang.org/x/tools/cmd/deadcode@v0.52.0 -test ./...) || exit 1; \
	if [ -n "$$out" ]; then echo "deadcode: unreachable functions:"; echo "$$out"; exit 1; fi

goldens: build setup-test-deps
	$(BIN) golden

demo: build
	$(BIN) demo -y -o $(DEMO_OUT)

# The man pages, trackink(1) and trackink-COMMAND(1), written from the flag table.
man: build
	$(BIN) man -y man/man1

bench: build
	$(BIN) bench --scene seed --frames 30

# The pictures of the README and docs/looks.md, from opencv-doc's vtest.avi (scripts/gallery.sh).
gallery: build setup-test-deps
	bash scripts/gallery.sh

# The kernels compiled by nvcc (sm_75 … sm_90 and compute_90 PTX) into the fatbin the cuda
# build embeds. Needs nvcc, not a GPU.
kernels-fatbin: setup-cuda
	bash kernels/build.sh

# The CUDA binary: links against the driver library; runs only where a GPU is. The fatbin's
# entry points are checked against the kernels the host code launches (names, one 8-byte
# parameter), for every architecture.
cuda-check: kernels-fatbin
	$(GO) build -tags cuda ./...
	$(GO) vet -tags cuda ./...
	TRACKINK_REQUIRE_FATBIN=1 $(GO) test -count=1 -run '^TestFatbinEntryPoints$$' ./kernels/gpu

# The cuda build run on this machine's CPU: kernels/device/testdata/fakecuda stands in for libcuda.so.1,
# strict about contexts, memory, launches, entry points and capture, so the CUDA device's
# real host code (gorgonia.org/cu and our cgo) runs: the tests of every package whose test
# binary the cuda tag changes (scripts/cuda-packages.sh: the CUDA device's own among them,
# and a render whose frames stay in GPU memory, FFmpeg's CUDA device and frames on the fake
# too; the others' binaries are the plain run's), and the goldens through the CLI.
cuda-fake: setup-test-deps cuda-check fakecuda
	pkgs=$$(GO=$(GO) bash scripts/cuda-packages.sh) && LD_LIBRARY_PATH=$(FAKECUDA) $(GO) test -tags cuda -count=1 $$pkgs
	$(GO) build -tags cuda -o $(FAKECUDA)/trackink .
	LD_LIBRARY_PATH=$(FAKECUDA) $(FAKECUDA)/trackink golden --backend cuda --out $(FAKECUDA)/golden-failures

# The fake driver library alone (kernels/device/testdata/fakecuda), for cuda-fake and the
# portable build's tests.
fakecuda: setup-cuda
	bash kernels/device/testdata/fakecuda/build.sh $(FAKECUDA)

build-cuda: kernels-fatbin
	$(GO) build -tags cuda -ldflags "$(VERSION_LDFLAGS)" -o $(BIN) .

# The emulated kernels under AddressSanitizer and UBSan: an out-of-bounds index fails here
# instead of corrupting memory on a GPU. (go test -asan instruments only C; the C++ flags
# are set by hand.)
kernels-asan: setup-test-deps
	CGO_CXXFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	CGO_LDFLAGS="-fsanitize=undefined" $(GO) test -asan -count=1 ./kernels/...

fuzz: setup-test-deps
	$(call fuzz,60s)

clean:
	rm -rf bin golden-failures kernels/kernels.fatbin man

# ---- The portable build and the GPU kit (scripts/dist/, docs/gpu.md) ----
# make dist writes dist/trackink-$(VERSION)-linux-$(ARCH).tar.gz: trackink and trackink-cuda
# with a static FFmpeg built from Debian's sources (cached in build/dist), all built in a
# Debian 11 root, for any x86-64 (ARCH=arm64: aarch64, cross-compiled there) Linux with
# glibc >= 2.31. make gpu-kit writes dist/gpu-kit/ (ARCH=arm64: dist/gpu-kit-arm64/), the
# one-command validation of the CUDA path on a GPU machine. The -test targets run both in a
# minimal Debian 11 root of that architecture with no FFmpeg (debootstrap; needs root; an
# arm64 root runs under qemu-user), against the fake CUDA driver built in the build root.
ARCH ?= amd64

.PHONY: setup-dist setup-test dist dist-test dist-test-arm64 gpu-kit gpu-kit-test dist-clean

setup-dist:
	bash scripts/setup.sh --dist

# setup.sh's apt entries, derived from the machine's own (scripts/apt-sources.sh).
setup-test:
	bash scripts/apt-sources_test.sh

dist: setup setup-dist kernels-fatbin
	ARCH=$(ARCH) VERSION=$(VERSION) bash scripts/dist/build.sh

dist-test: dist setup-test-deps
	ARCH=$(ARCH) GO=$(GO) bash scripts/dist/test.sh "$$(ARCH=$(ARCH) bash scripts/dist/fakecuda.sh)"

# The arm64 tarball and kit, from make test: built, the tarball run under emulation, the
# kit's refusal of another architecture. The fatbin is made here once (-o: not again).
dist-test-arm64: kernels-fatbin
	$(MAKE) -o kernels-fatbin dist-test gpu-kit ARCH=arm64
	ARCH=arm64 bash scripts/dist/kit-arch-test.sh

dist-clean:
	rm -rf build dist

gpu-kit: dist setup-test-deps
	ARCH=$(ARCH) VERSION=$(VERSION) bash scripts/dist/gpu-kit.sh

gpu-kit-test: gpu-kit
	bash scripts/dist/kit-test.sh "$$(bash scripts/dist/fakecuda.sh)"
