# Thin wrapper over CMake/CTest.  `make run` and `make test` work from a
# clean clone on Debian: missing packages are installed first.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps build run test bench bench-compare asan fuzz analyze clean

all: build

deps:
	@sh scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@mkdir -p out
	./$(BUILD)/dse run scripts/sweep.lua

test: build
	@sh scripts/install-deps.sh test
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Timings against targets (docs/bench.md), about 30 s; exits 0 whether the
# targets are met or not.  BENCH_ARGS: e.g. "--only dram --runs 3", "--strict".
bench: build
	./$(BUILD)/bench/dse_bench $(BENCH_ARGS)

# This build's level-2 ResNet-50 points on every preset against BASE's
# (a revision, built in a temporary worktree): make bench-compare BASE=main~1
bench-compare: build
	bench/compare.sh $(BASE)

# Tests under AddressSanitizer and UBSan in a separate build tree, with the
# allocation-failure injector linked in (alloc.walk, docs/testing.md).
asan: deps
	@sh scripts/install-deps.sh test
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1" \
	  -DDSE_ASAN=ON -DDSE_UBSAN=ON -DDSE_FAILALLOC=ON
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS)

# The libFuzzer harnesses (tests/fuzz, clang with ASan and UBSan), each run
# for FUZZ_TIME seconds (default 60); FUZZ_ONLY="onnx lua" picks some,
# FUZZ_SEED=N fixes libFuzzer's seed (CI: 1).
# What a run finds is in build-fuzz/found/ (docs/testing.md).
FUZZ_TIME ?= 60
fuzz: deps
	@sh scripts/install-deps.sh fuzz
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1" \
	  -DDSE_FUZZ=ON -DDSE_ASAN=ON -DDSE_UBSAN=ON -DDSE_BUILD_TESTS=OFF -DDSE_BUILD_BENCH=OFF
	cmake --build build-fuzz -j $(JOBS) --target fuzzers
	FUZZ_TIME=$(FUZZ_TIME) FUZZ_ONLY="$(FUZZ_ONLY)" FUZZ_SEED="$(FUZZ_SEED)" bash scripts/fuzz.sh

# clang's static analyzer over the library and the CLI (build-scan/; not
# the generated sources there: protoc-c's, the embedded report page); a
# finding fails it, its report in build-scan/report/ (docs/testing.md)
analyze: deps
	@sh scripts/install-deps.sh fuzz
	rm -rf build-scan/report
	scan-build -o build-scan/report cmake -S . -B build-scan -DCMAKE_BUILD_TYPE=Debug \
	  -DDSE_BUILD_TESTS=OFF -DDSE_BUILD_BENCH=OFF >/dev/null
	scan-build -o build-scan/report --status-bugs -disable-checker deadcode.DeadStores \
	  --exclude $(CURDIR)/build-scan cmake --build build-scan -j $(JOBS) --target dse

clean:
	rm -rf $(BUILD) build-asan build-fuzz build-scan out
