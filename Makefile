# kiln's two entry points: `make demo` and `make test`. Both install what is
# missing (Debian packages), build, and run.
BUILD_DIR ?= build
ASAN_DIR ?= build-asan
TSAN_DIR ?= build-tsan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build test test-main test-asan test-tsan demo clean format \
        docs-deps docs serve-docs test-docs bench bench-conv bench-models bench-tracing fuzz

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Installs the tools, the runtime libraries and headers, the CMake package,
# kiln-runtime.pc and the Python package under PREFIX (default /usr/local).
PREFIX ?= /usr/local
.PHONY: install
install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# Sanitizer builds: ASan+UBSan+LSan over the unit and tool tests, TSan over
# the task system and the drivers. The main ctest runs last so that its
# summary line closes the output.
test-asan: deps
	@cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKILN_SANITIZER=asan \
	  -DKILN_BUILD_BENCHMARK_TOOL=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
	@cmake --build $(ASAN_DIR) -j $(JOBS)
	@cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest -j $(JOBS) --output-on-failure -L 'unit|tools|asan' -LE 'slow'

# libFuzzer targets (tests/fuzz) live in the clang ASan build; test-asan
# smoke-runs each for a few seconds (ctest label fuzz). `make fuzz` runs each
# for FUZZ_SECONDS at nice 19 on corpora kept in the build folder and prints
# executions and coverage per target.
FUZZ_SECONDS ?= 60

fuzz: deps
	@cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKILN_SANITIZER=asan \
	  -DKILN_BUILD_BENCHMARK_TOOL=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
	@cmake --build $(ASAN_DIR) -j $(JOBS)
	@tests/fuzz/run_all.sh $(ASAN_DIR) $(FUZZ_SECONDS)

# Only the tsan-labelled tests are built (the compiler library for the
# threaded compiler API test, not the tools): that is all ctest -L tsan runs.
test-tsan: deps
	@cmake -S . -B $(TSAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKILN_SANITIZER=tsan \
	  -DKILN_BUILD_BENCHMARK_TOOL=OFF \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
	@cmake --build $(TSAN_DIR) -j $(JOBS) --target \
	  $$(cd $(TSAN_DIR) && ctest -N -L tsan | sed -n 's/.*Test  *#[0-9]*: //p')
	@cd $(TSAN_DIR) && ctest -j $(JOBS) --output-on-failure -L tsan

test-main: build
	@cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure

# The documentation website (docs/website/, MkDocs + Material from Debian):
# `make docs` generates the reference pages from the built tools, runs
# `mkdocs build --strict` into site/ and fails on pages missing from the nav;
# `make serve-docs` previews it with live reload; `make test-docs` runs its
# tests (documented commands, generated pages current, headless Chromium).
DOCS_ADDR ?= 127.0.0.1:8000

docs-deps:
	@scripts/install-deps.sh --docs

docs: build docs-deps
	@scripts/docs/build_docs.sh $(BUILD_DIR)

serve-docs: docs
	@cd docs/website && mkdocs serve --dev-addr $(DOCS_ADDR)

test-docs: docs
	@scripts/docs/test_docs.sh $(BUILD_DIR)

test: test-asan test-tsan test-docs test-main

demo: build
	@scripts/demo.sh $(BUILD_DIR)

# Benchmarks (not part of `make test`): bench/matmul/run.sh compares kiln's
# matmul micro-kernels with OpenBLAS and the FMA peak; BENCH_ARGS are passed
# to the benchmark (e.g. BENCH_ARGS=--quick).
BENCH_ARGS ?=
bench: build
	@bench/matmul/run.sh $(BUILD_DIR) $(BENCH_ARGS)

# Tracing overhead: a zone with and without a sink, and a small dispatch
# with tracing compiled out, compiled in, and recording (bench/tracing).
bench-tracing: build
	@bench/tracing/run.sh $(BUILD_DIR)

# ResNet-50's convolution shapes on llvm-cpu vs the FMA peak (bench/conv).
bench-conv: build
	@bench/conv/run.sh $(BUILD_DIR)/bin $(BENCH_ARGS)

# bench/models/run.sh: seven ONNX models (generated, seeded weights) on kiln
# (llvm-cpu) against ONNX Runtime, 1 and 2 threads; about 15 minutes. Writes
# build/bench/models/results.{json,md,png} and the website's benchmark page.
# BENCH_MODELS_ARGS are passed on (e.g. --models mlp,squeezenet --rounds 1).
BENCH_MODELS_ARGS ?=
bench-models: build
	@bench/models/run.sh $(BUILD_DIR) $(BENCH_MODELS_ARGS)

format:
	@git ls-files '*.c' '*.h' '*.cc' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(TSAN_DIR) site
