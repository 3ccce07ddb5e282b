# dperf-live: build, test, bench.
#   make            build/dperf, build/dperf-ctl, build/dperf-top, build/dperf-report
#   make asan       the same under ASan+UBSan in build/asan/
#   make test       unit tests (the C ones under ASan+UBSan), docs checks, end-to-end
#                   tests, fuzzing, then a check that no hugepage file or runtime dir of
#                   a dead process is left
#   make unit       unit tests only (the default build's)
#   make e2e        end-to-end tests only (needs root and hugepages), but those that
#                   make e2e-asan runs with the sanitized primaries; make e2e-all: all of them
#   make demo       install what the demo needs, reserve hugepages, build, run a memif
#                   client/server pair
#   make bench      the benchmark (scripts/bench.sh)
#   make soak       ten minutes of CC with churn, then checks that nothing leaked
#   make fuzz       libFuzzer harnesses (FUZZ_SECONDS each; FUZZ_HARNESSES="rx" for one)
#   make fuzz-long  the same, 200 s each (FUZZ_LONG_SECONDS): not part of make test
#                   (two processes per harness, both cores: FUZZ_JOBS=1 for one)
#   make fuzz-grow  fuzz-long, then its finds folded into tests/fuzz/grown/ (commit them)
#   make man        the man pages in build/man/, from docs/man/*.md
#   make docs       regenerate README's generated block (dperf-ctl's examples) from docs/man/*.md
#   make install    binaries, man pages, example configs, dperf@.service (PREFIX, DESTDIR)
#   make uninstall  removes what install put there
#
# demo and test install what is missing first, then re-run make: the DPDK
# flags below are read from pkg-config when make reads this file, which on a
# fresh box is before DPDK's development files exist.

BUILD   ?= build
CC      ?= gcc
SAN     ?=
OPT     ?= -O3
ARCH    ?= -march=native
# DPDK's pkg-config flags carry its own build's -march=corei7: coming after
# ours, it used to override -march=native (no AVX2 anywhere). It goes.
DPDK_CFLAGS := $(filter-out -march=%,$(shell pkg-config --cflags libdpdk 2>/dev/null))
DPDK_LIBS   := $(shell pkg-config --libs libdpdk 2>/dev/null)
# The command that installs what is missing (the fresh-box test swaps it).
DEPS    ?= scripts/install-deps.sh
PYTHON  ?= /usr/bin/python3

# dperf-live's version: VERSION, plus the commit when built from git.
DP_VERSION := $(shell cat VERSION)$(shell git rev-parse --short HEAD >/dev/null 2>&1 && echo " (git $$(git describe --always --dirty 2>/dev/null))")

# Headers are found by -I, never by "../" paths: common/ (the memzone
# contract) and lib/ (the readers' library) for every binary; a tool's own
# folder is the compiler's default (the including file's directory).
INCLUDES := -Icommon -Ilib
CFLAGS  := -std=gnu11 -g $(OPT) $(ARCH) -Wall -Wextra -Werror -Wno-missing-field-initializers \
           -Wshadow -Wpointer-arith -Wstrict-prototypes -MMD -MP $(INCLUDES) -I$(BUILD)/gen $(SAN)
LDFLAGS := $(SAN)

COMMON_SRC  := common/version.c common/numbers.c common/counters.c common/ctl_msg.c common/hist.c common/runtime_dir.c common/meminfo.c common/escape.c
# The config parser: the primary's, its unit tests' and the fuzzers'. The
# tools read the effective configuration as text (config_text) and parse
# only numbers and times (numbers.c), so they do not link it.
CONFIG_SRC  := $(wildcard common/config_*.c) common/port_dev.c
# lib/: the figures every reader shows (the primary's report, -o summary
# and telemetry read them too), and what only the tools need: attaching
# as a secondary and sending control requests.
READER_SRC  := lib/figures.c lib/rates.c lib/stats_out.c lib/run_log.c
ATTACH_SRC  := lib/attach.c lib/ctl_client.c
PRIMARY_SRC := $(wildcard primary/*/*.c)
CTL_SRC     := $(wildcard secondary/*.c)
TUI_SRC     := $(wildcard tui/*.c)
UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_PY     := $(wildcard tests/unit/test_*.py)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

COMMON_OBJ  := $(call obj,$(COMMON_SRC))
CONFIG_OBJ  := $(call obj,$(CONFIG_SRC))
READER_OBJ  := $(call obj,$(READER_SRC))
PRIMARY_OBJ := $(call obj,$(PRIMARY_SRC))
ATTACH_OBJ  := $(call obj,$(ATTACH_SRC))
CTL_OBJ     := $(call obj,$(CTL_SRC))
TUI_OBJ     := $(call obj,$(TUI_SRC))
UNIT_BIN    := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

.PHONY: all asan test test-build test-build-default test-build-asan unit unit-c unit-py unit-bins unit-asan e2e e2e-asan e2e-all demo bench clean deps deps-demo hugepages \
        fuzz fuzz-bins fuzz-long fuzz-grow soak \
        dpdk-check man docs docs-check install uninstall FORCE
all: $(BUILD)/dperf $(BUILD)/dperf-ctl $(BUILD)/dperf-top $(BUILD)/dperf-report $(BUILD)/tests/tls_ref

# Without DPDK's development files every compile would fail on its first
# rte_*.h; say once what to do instead.
dpdk-check:
	@pkg-config --exists libdpdk || { echo "make: DPDK's development files are missing (pkg-config libdpdk): run 'make deps' as root first, or 'make demo' / 'make test', which do" >&2; exit 1; }

# The version string as a header, rewritten only when it changes, so that a
# new commit relinks the binaries and an unchanged tree rebuilds nothing.
$(BUILD)/gen/dp_version.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define DP_VERSION "$(DP_VERSION)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BUILD)/obj/common/version.o: $(BUILD)/gen/dp_version.h

# The primary's rooms include each other from primary/ ("net/rx.h"); only
# the primary's objects, its unit tests and the fuzz harnesses get that
# path, so a tool cannot include a primary header.
$(BUILD)/obj/primary/%.o: CFLAGS += -Iprimary
# A unit tests' shared harness (tests/unit/*_harness.c), named in their
# "// links:" lines like a module, sees what the tests see.
$(BUILD)/obj/tests/unit/%.o: CFLAGS += -Iprimary
.SECONDARY: $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/unit/*_harness.c))

$(BUILD)/obj/%.o: %.c | dpdk-check
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(DPDK_CFLAGS) -c $< -o $@

# The primary's heap: gperftools' tcmalloc (Debian's libtcmalloc-minimal4,
# by its file name: the runtime package has no -dev symlink). OpenSSL
# allocates and frees each record's 17 KB buffers (SSL_MODE_RELEASE_BUFFERS
# keeps an idle connection small), and glibc serves that size from its
# arena under a lock in a process with threads, as every DPDK primary is:
# malloc and free were 8-11% of an HTTPS keepalive side's core. With
# tcmalloc's per-thread caches, seven interleaved pairs answered a median
# 348k 1460-byte answers/s against 279k (single pairs went both ways;
# docs/performance.md, session 17). Not under the sanitizers, which bring
# their own allocator.
HEAP_LIBS := $(if $(SAN),,-Wl,--no-as-needed -l:libtcmalloc_minimal.so.4 -Wl,--as-needed)

$(BUILD)/dperf: $(PRIMARY_OBJ) $(READER_OBJ) $(CONFIG_OBJ) $(COMMON_OBJ)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) -o $@ $^ $(DPDK_LIBS) -lssl -lcrypto -lnuma -lbsd -lm $(HEAP_LIBS)

# The Prometheus exporter's HTTP server: Debian's libmicrohttpd
# (secondary/ctl_httpd.c says why).
$(BUILD)/dperf-ctl: $(CTL_OBJ) $(ATTACH_OBJ) $(READER_OBJ) $(COMMON_OBJ)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) -o $@ $^ $(DPDK_LIBS) -lmicrohttpd -ljansson -lbsd -lm

$(BUILD)/dperf-top: $(TUI_OBJ) $(ATTACH_OBJ) $(READER_OBJ) $(COMMON_OBJ)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) -o $@ $^ $(DPDK_LIBS) -lncursesw -lbsd -lm

# dperf-report is Python (matplotlib draws its plots): the script with
# the version filled in.
$(BUILD)/dperf-report: scripts/dperf_report.py $(BUILD)/gen/dp_version.h
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@sed 's|@DP_VERSION@|$(DP_VERSION)|' $< >$@.tmp && chmod 0755 $@.tmp && mv $@.tmp $@

# Unit tests: pure code only, no EAL. Each test links the common and
# reader objects plus the modules it names in its "// links:" line, and
# finds their headers by -I.
links = $(patsubst %.c,$(BUILD)/obj/%.o,$(shell sed -n 's|^// links: ||p' $(1)))
.SECONDEXPANSION:
$(BUILD)/tests/%: tests/unit/%.c $(READER_OBJ) $(CONFIG_OBJ) $(COMMON_OBJ) $$(call links,tests/unit/$$*.c)
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	@$(CC) $(CFLAGS) -Iprimary -Isecondary -Itui $(DPDK_CFLAGS) -DDP_SOURCE_DIR='"$(CURDIR)"' -o $@ $< $(READER_OBJ) $(CONFIG_OBJ) $(COMMON_OBJ) $(call links,$<) \
	  $(LDFLAGS) -lcmocka $(DPDK_LIBS) -ljansson -lmicrohttpd -lssl -lcrypto -lbsd -lm

# The TLS server's test certificate and key (test_tls, the TLS e2e tests,
# tls_cert/tls_key in a test's configuration): made when missing, never
# committed; one pair for every build (build/asan too).
TLS_TEST_KEY := build/tls/test-key.pem
$(TLS_TEST_KEY):
	@scripts/tls-cert.sh $(dir $@)

unit-bins: $(UNIT_BIN) $(TLS_TEST_KEY)
# The Python tests (bench.py's and dperf-report's pure parts) use no
# build: unit-asan does not run them again (make test runs unit-asan and
# unit-py, make unit the default build's C tests and unit-py).
unit: unit-c unit-py
# Each test binary is a target of its own (BIN.run), so that make test's
# make -j2 runs them two at a time beside the other checks: unit-asan's
# run one after the other was the long pole of that step.
unit-c: $(UNIT_BIN:%=%.run)
$(BUILD)/tests/%.run: $(BUILD)/tests/% $(TLS_TEST_KEY) FORCE
	@echo "== $<"; $<
unit-py:
	@set -e; for t in $(UNIT_PY); do echo "== $$t"; $(PYTHON) $$t; done

ASAN_VARS := BUILD=build/asan OPT=-O1 SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
asan:
	$(MAKE) $(ASAN_VARS) all

unit-asan:
	$(MAKE) $(ASAN_VARS) unit-c

# The TLS room against curl, openssl s_client and nginx over a kernel
# socket (test_tls_interop): a test helper, not installed.
TLS_BRIDGE := $(BUILD)/tests/tls_bridge
$(TLS_BRIDGE): tests/e2e/tls_bridge.c $(call obj,primary/tls/tls_ctx.c primary/tls/tls_conn.c) | $(TLS_TEST_KEY)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -Iprimary -o $@ $(filter %.c %.o,$^) $(LDFLAGS) -lssl -lcrypto

# OpenSSL's own handshake on one core, through the engine's TLS room
# (tests/bench/tls_ref.c): make bench's tls_ref reference. Built with
# everything (all) so that it cannot rot between bench runs.
TLS_REF := $(BUILD)/tests/tls_ref
$(TLS_REF): tests/bench/tls_ref.c $(call obj,primary/tls/tls_ctx.c primary/tls/tls_conn.c)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -Iprimary -o $@ $(filter %.c %.o,$^) $(LDFLAGS) -lssl -lcrypto

# The end-to-end tests, but those that e2e-asan runs with the ASan+UBSan
# primaries (with the default build's tools): each test runs once.
E2E_ASAN_TESTS := memif_cps memif_cc memif_keepalive memif_udp memif_ipv6 memif_vlan ctl flood_pcap
e2e: all hugepages $(TLS_BRIDGE)
	E2E_SKIP="$(E2E_ASAN_TESTS)" scripts/run-e2e.sh
e2e-asan: all asan hugepages
	BUILD=build/asan SECONDARY_BUILD=build E2E_ONLY="$(E2E_ASAN_TESTS)" scripts/run-e2e.sh
# Every end-to-end test with the default build (make e2e leaves some to e2e-asan).
e2e-all: all hugepages $(TLS_BRIDGE)
	scripts/run-e2e.sh

# The test command: installs what is missing and reserves hugepages first,
# so it works on a fresh Debian 12 box (as root). Everything is compiled
# first, on both cores (test-build); the suites then run one after the
# other, since the end-to-end tests need both cores to themselves; the
# fuzzers last, two at once. The sanitized build needs only what the demo
# installed: it compiles on one core while apt installs the tests'
# packages (a minute on a fresh box), unless DPDK is not there yet.
# The C unit tests run once, under ASan+UBSan (unit-asan: issue 39, no
# repeated work between suites); the default build's test binaries are
# not built (make unit builds and runs them). What the later steps take
# from the default build stays: the binaries and tls_ref (all: e2e,
# docs-check), tls_bridge (test_tls_interop), the test key (e2e, fuzz).
test:
	$(MAKE) -j2 deps $$(pkg-config --exists libdpdk && echo asan)
	$(MAKE) test-build
	$(MAKE) -j2 --output-sync=target unit-asan unit-py docs-check
	$(MAKE) e2e e2e-asan
	$(MAKE) fuzz FUZZ_PAR=2 FUZZ_SECONDS_ctl=10 FUZZ_SECONDS_tls=10
	scripts/check-leftovers.sh
# The two builds side by side under one make -j2 (each sub-make takes
# its jobs from it): neither waits for the other's last, single-job links.
test-build:
	$(MAKE) -j2 test-build-default test-build-asan
test-build-default:
	$(MAKE) all man $(TLS_BRIDGE) $(TLS_TEST_KEY) fuzz-bins
test-build-asan:
	$(MAKE) $(ASAN_VARS) all unit-bins

# Fuzzing (libFuzzer, clang): each harness runs FUZZ_SECONDS on a copy of
# its seed corpus and of what long runs grew (tests/fuzz/grown/, make
# fuzz-grow); crashes land in build/fuzz/ and fail the target.
# 25 s in make test (issue 39: the whole of it under 20 minutes), 10 s
# for fuzz_ctl and fuzz_tls: started from the grown corpus, each harness
# has more coverage once its inputs are loaded than 45 s (ctl and tls:
# 15 s) from the seeds reached, side by side on one box (cov/ft, seeds'
# end against grown's start: config 750/1678 against 833/2074, http
# 373/1298 against 375/1588, rx 1536/5772 against 1638/7014, rx_tls
# 1088/3867 against 1272/6123, ctl 104/128 against 102/125 then 105/130,
# tls 66/238 against 66/243). Depth is make fuzz-long's (200 s, both
# cores) and what fuzz-grow keeps of it. With two at a time, in the order
# of FUZZ_HARNESSES, the six end in about 60 s.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 25
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(INCLUDES) -Iprimary -I$(BUILD)/gen -std=gnu11
FUZZ_CFG     := $(CONFIG_SRC) common/numbers.c common/escape.c
build/fuzz/fuzz_config: tests/fuzz/fuzz_config.c $(FUZZ_CFG)
build/fuzz/fuzz_http: tests/fuzz/fuzz_http.c primary/http/http.c primary/http/http_response.c primary/http/rsp_scan.c primary/http/http_request.c $(FUZZ_CFG)
build/fuzz/fuzz_ctl: tests/fuzz/fuzz_ctl.c primary/control/control.c common/ctl_msg.c primary/state/mix.c $(FUZZ_CFG)
# The receive path's rooms whole, plus the engine and setup it runs under;
# not the device nor state/txq.c (the harness stands in for tx_flush) nor the
# control path.
FUZZ_RX_SRC  := $(wildcard primary/app/*.c primary/http/*.c primary/net/*.c primary/tcp/*.c primary/udp/*.c primary/tls/*.c) \
                primary/engine/worker.c primary/engine/timers.c primary/boot/worker_setup.c \
                primary/boot/worker_msgs.c primary/dev/dev_fault.c primary/state/mix.c $(COMMON_SRC) $(CONFIG_SRC) $(READER_SRC)
# Each input starts from a snapshot of the connected workers (rx_snap.h);
# cov_ignore.txt leaves out of the coverage what no input steers: DPDK's
# inline helpers, the harness, the setup.
# The files that build and send packets and run the clock keep their edge
# coverage but not their comparison tracing: their comparisons are with the
# worker's own figures, not the input's, and they run for every packet
# (a quarter of an execution was tracing). The HTTP parsers neither: their
# comparisons with the input are fuzz_http's, with tracing.
FUZZ_RX_QUIET := primary/net/pkt.c primary/net/pkt_alloc.c primary/tcp/tcp_out.c primary/engine/timers.c primary/engine/worker.c \
                 $(wildcard primary/http/*.c)
# fuzz_rx runs with no sanitizer, its checks after every input being its
# own (fuzz_rx.c): at 34k executions per CPU second with ASan and UBSan,
# 48k without ASan, 54k without either. ASan sees little of what the
# receive path writes anyway: the mbufs' data (DPDK's pool) and the socket
# tables (mmap'ed) are outside its heap. And UBSan's alignment and
# pointer-overflow checks compare addresses on every load and pointer step,
# which clang 14 traces like any other comparison, flooding the fuzzer's
# table of compared values (which mutations draw from) with addresses.
# fuzz_rx_san, the same code with ASan, every UBSan check and no
# comparison tracing, then replays every input the run kept (each one that
# reached new coverage) and the regressions: what it reports, make fuzz
# fails on. fuzz_rx_tls keeps ASan and UBSan but the two address checks:
# OpenSSL's heap is its subject, and it has no replay.
# -O2: a tenth faster than -O1.
FUZZ_RX_CC   = $(FUZZ_CC) $(FUZZ_FLAGS) -O2 -fsanitize-coverage-ignorelist=tests/fuzz/cov_ignore.txt $(ARCH) $(DPDK_CFLAGS) \
               -DDP_SOURCE_DIR='"$(CURDIR)"'
FUZZ_RX_FAST = -fno-sanitize=address,undefined
FUZZ_RX_TLS_FAST = -fno-sanitize=alignment,pointer-overflow
FUZZ_RX_DEPS = tests/fuzz/cov_ignore.txt $(BUILD)/gen/dp_version.h $(wildcard primary/*/*.h common/*.h)
FUZZ_RX_LINK = -Wl,--wrap=tcp_server_input -Wl,--wrap=tls_server_input $(DPDK_LIBS) -lssl -lcrypto -lbsd -lm -lpthread
# Every source of the three receive-path harnesses is compiled to an
# object of its variant's directory (build/fuzz/VARIANT/), so that make -j
# compiles them side by side and a change recompiles one file, not fifty
# in one clang call. VARIANT-cmp: with comparison tracing.
FUZZ_RX_HARNESS_SRC = tests/fuzz/fuzz_rx.c tests/fuzz/rx_snap.c
FUZZ_RX_TRACED = $(FUZZ_RX_HARNESS_SRC) $(filter-out $(FUZZ_RX_QUIET),$(FUZZ_RX_SRC))
fuzz_objs = $(patsubst %.c,build/fuzz/$(1)/%.o,$(2))
# fuzz_variant VARIANT FLAGS: the rule compiling a source for a variant.
define fuzz_variant
build/fuzz/$(1)/%.o: %.c $$(FUZZ_RX_DEPS)
	@mkdir -p $$(dir $$@)
	@echo "  FUZZCC  $$@"
	@$$(FUZZ_RX_CC) $(2) -c -o $$@ $$<
endef
$(eval $(call fuzz_variant,rx,$(FUZZ_RX_FAST) -fno-sanitize-coverage=trace-cmp))
$(eval $(call fuzz_variant,rx-cmp,$(FUZZ_RX_FAST)))
$(eval $(call fuzz_variant,rx_tls-cmp,$(FUZZ_RX_TLS_FAST) -DFUZZ_RX_TLS=1))
$(eval $(call fuzz_variant,rx_san,-fno-sanitize-coverage=trace-cmp))
build/fuzz/fuzz_rx: $(call fuzz_objs,rx-cmp,$(FUZZ_RX_TRACED)) $(call fuzz_objs,rx,$(FUZZ_RX_QUIET)) | $(TLS_TEST_KEY)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@$(FUZZ_RX_CC) $(FUZZ_RX_FAST) -o $@ $^ $(FUZZ_RX_LINK)
# The same harness with the HTTPS pair (fuzz_rx.c's FUZZ_RX_TLS): TLS
# records as our TCP receives them, apart, since its crypto would slow
# every execution of fuzz_rx fourfold. Corpus: tests/fuzz/corpus/rx_tls.
# Where it traces no comparison, its objects are fuzz_rx_san's (ASan and
# every UBSan check, no comparison tracing): the quiet files, and those
# cov_ignore.txt leaves out whole (no coverage at all there, so no tracing
# either way; the list is read from it). The address checks flood nothing
# without tracing. Its own objects (rx_tls-cmp), with tracing but without
# those two checks: fuzz_rx.c (FUZZ_RX_TLS) and the rest, 30 of 65 sources
# (issue 39: 35 compiles fewer; coverage and executions in the commit).
FUZZ_COV_IGNORED   := $(wildcard $(shell sed -n 's|^src:\*||p' tests/fuzz/cov_ignore.txt))
FUZZ_RX_TLS_SHARED  = $(filter-out tests/fuzz/fuzz_rx.c,$(filter $(FUZZ_RX_QUIET) $(FUZZ_COV_IGNORED),$(FUZZ_RX_HARNESS_SRC) $(FUZZ_RX_SRC)))
FUZZ_RX_TLS_TRACED  = $(filter-out $(FUZZ_RX_TLS_SHARED),$(FUZZ_RX_HARNESS_SRC) $(FUZZ_RX_SRC))
build/fuzz/fuzz_rx_tls: $(call fuzz_objs,rx_tls-cmp,$(FUZZ_RX_TLS_TRACED)) $(call fuzz_objs,rx_san,$(FUZZ_RX_TLS_SHARED)) | $(TLS_TEST_KEY)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@$(FUZZ_RX_CC) $(FUZZ_RX_TLS_FAST) -o $@ $^ $(FUZZ_RX_LINK)
build/fuzz/fuzz_rx_san: $(call fuzz_objs,rx_san,$(FUZZ_RX_HARNESS_SRC) $(FUZZ_RX_SRC)) | $(TLS_TEST_KEY)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@$(FUZZ_RX_CC) -o $@ $^ $(FUZZ_RX_LINK)
# TLS records as our TCP delivers them (primary/tls/), against the test certificate.
# (the record layer alone: the TCP roles over it are fuzz_rx's and the unit tests')
build/fuzz/fuzz_tls: tests/fuzz/fuzz_tls.c primary/tls/tls_mem.c primary/tls/tls_ctx.c primary/tls/tls_conn.c | $(TLS_TEST_KEY)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@$(FUZZ_CC) $(FUZZ_FLAGS) $(ARCH) $(DPDK_CFLAGS) -DDP_SOURCE_DIR='"$(CURDIR)"' -o $@ $(filter %.c,$^) -lssl -lcrypto -lpthread
build/fuzz/%:
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	@$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ -lpthread

# FUZZ_JOBS=2 runs two processes per harness on one corpus (libFuzzer
# reads what the other adds) and sums their executions, as libFuzzer's
# -jobs reports them: both cores, so not make fuzz's default (make test,
# and a box shared with other work), but make fuzz-long's.
FUZZ_HARNESSES ?= config http ctl rx rx_tls tls
FUZZ_JOBS ?= 1
# fuzz_rx's long and busy inputs: an input over 1 kB took 1.3 ms (over
# 2 kB, 5.7 ms) against 20 us under 512 bytes, since every clock step of a
# record lets keepalive requests fall due (one of 2.2 kB: 174 records, 86
# steps, 158 s of clock, 294 POSTs of 4,000 bytes, 2,700 packets), and the
# fuzzer kept them, each more repetitions reaching higher hit counts:
# a 200 s run's executions per second fell from 18k to 3k, and with inputs
# capped at 1 kB still to 13k by 60 s. -entropic_scale_per_exec_time=1
# draws the inputs to mutate less often the slower they run: 2.2M
# executions in 60 s against 0.76M, side by side, and more edges reached
# (1,518 against 1,454). Inputs stay under FUZZ_RX_MAX_LEN bytes, room for
# a full-sized frame (1,514) and a few more records.
FUZZ_RX_MAX_LEN ?= 2048
FUZZ_RX_RUN  = -max_len=$(FUZZ_RX_MAX_LEN) -entropic_scale_per_exec_time=1
# A harness's seconds: FUZZ_SECONDS_h, else FUZZ_SECONDS (make test sets
# ctl's and tls's shorter, see test:).
fuzz_secs = $(or $(FUZZ_SECONDS_$(1)),$(FUZZ_SECONDS))
FUZZ_RUN = -max_total_time=$(call fuzz_secs,$*) -artifact_prefix=build/fuzz/crash-$$h- -print_final_stats=1 \
           $$([ $$h = rx ] && echo $(FUZZ_RX_RUN)) \
           build/fuzz/corpus-$$h $$(ls -d tests/fuzz/regressions/$$h 2>/dev/null)
# FUZZ_PAR harnesses run at once, each its FUZZ_JOBS processes (make
# test: 2, one a core, the box otherwise idle then: each harness gets the
# CPU seconds it had alone). Each one's lines come out when it ends.
FUZZ_PAR ?= 1
fuzz-bins: $(patsubst %,build/fuzz/fuzz_%,$(FUZZ_HARNESSES)) $(if $(filter rx,$(FUZZ_HARNESSES)),build/fuzz/fuzz_rx_san)
fuzz: fuzz-bins
	@$(MAKE) --no-print-directory -j$(FUZZ_PAR) $(patsubst %,fuzz-run-%,$(FUZZ_HARNESSES))
	@rm -rf /var/run/dpdk/fuzz_rx
fuzz-run-%:
	@set -e; h=$*; out=build/fuzz/run-$$h.out; : > $$out; \
	  rm -rf build/fuzz/corpus-$$h build/fuzz/fuzz-$$h-*.log; cp -r tests/fuzz/corpus/$$h build/fuzz/corpus-$$h; \
	  if [ -d tests/fuzz/grown/$$h ]; then cp tests/fuzz/grown/$$h/* build/fuzz/corpus-$$h/; fi; \
	  j=1; while [ $$j -lt $(FUZZ_JOBS) ]; do \
	    build/fuzz/fuzz_$$h $(FUZZ_RUN) > build/fuzz/fuzz-$$h-$$j.log 2>&1 & j=$$((j + 1)); done; \
	  build/fuzz/fuzz_$$h $(FUZZ_RUN) > build/fuzz/fuzz-$$h-0.log 2>&1 || true; wait; \
	  { echo "== fuzz_$$h for $(call fuzz_secs,$*) s"; \
	  grep -h -E "^(stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY)" build/fuzz/fuzz-$$h-*.log | \
	    awk '{ print } /^stat::number_of_executed_units/ { n += $$2; k++ } \
	      END { if (k > 1) print "executions of the " k " processes: " n }'; } > $$out; \
	  if [ -n "$$(ls build/fuzz/crash-$$h-* 2>/dev/null)" ]; then cat $$out; echo "fuzz_$$h: crash: $$(ls build/fuzz/crash-$$h-*)"; exit 1; fi; \
	  if [ $$h = rx ]; then \
	    echo "== fuzz_rx_san (ASan, all of UBSan) over the $$(ls build/fuzz/corpus-rx | wc -l) kept inputs and the regressions" >> $$out; \
	    build/fuzz/fuzz_rx_san $$(ls -d build/fuzz/corpus-rx/* tests/fuzz/regressions/rx/*) \
	      > build/fuzz/rx-san.log 2>&1 || { cat $$out; grep -E "^Running:" build/fuzz/rx-san.log | tail -1; \
	      grep -E "runtime error|ERROR|SUMMARY|fuzz_rx" build/fuzz/rx-san.log; exit 1; }; fi; \
	  cat $$out

# Longer runs, for what only millions of executions reach (fuzz_rx's goal:
# 10M in 200 s), on both cores unless FUZZ_JOBS says otherwise.
# FUZZ_HARNESSES picks some, for either target: "rx".
FUZZ_LONG_SECONDS ?= 200
fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_HARNESSES="$(FUZZ_HARNESSES)" \
	  FUZZ_JOBS=$(if $(filter file,$(origin FUZZ_JOBS)),2,$(FUZZ_JOBS)) FUZZ_PAR=1
# fuzz-long, then what it found folded into tests/fuzz/grown/ (commit it):
# make fuzz starts from there (tests/fuzz/grow.sh says how).
fuzz-grow: fuzz-long
	tests/fuzz/grow.sh $(FUZZ_HARNESSES)

# The ten-minute soak (a 20 s version runs in make test): 1M keepalive
# connections, 20k of them closed and replaced every second.
SOAK_SECONDS ?= 600
soak: all hugepages
	SOAK_SECONDS=$(SOAK_SECONDS) SOAK_CC=$${SOAK_CC:-1000000} SOAK_CLIENTS=$${SOAK_CLIENTS:-24} \
	SOAK_CPS=$${SOAK_CPS:-100000} SOAK_INTERVAL=$${SOAK_INTERVAL:-10} SOAK_KA_NUM=$${SOAK_KA_NUM:-5} \
	SOAK_WARMUP=$${SOAK_WARMUP:-90} E2E_TIMEOUT=$$(($(SOAK_SECONDS) + 180)) E2E_ONLY=soak scripts/run-e2e.sh

# What the tests need (deps) and what the demo needs (deps-demo), from one
# script: the first command on a fresh box installs only the second.
deps:
	$(DEPS) test
deps-demo:
	$(DEPS) demo

hugepages:
	scripts/hugepages.sh

demo: deps-demo hugepages
	$(MAKE) -j$$(nproc) all
	scripts/demo.sh

bench: all
	scripts/bench.sh

# Man pages: docs/man/*.md is the one source; scripts/mandoc.py turns it
# into man(7) here and copies the block README.md repeats (make docs).
MAN_SRC   := $(wildcard docs/man/*.md)
MAN_PAGES := $(patsubst docs/man/%.md,$(BUILD)/man/%,$(MAN_SRC))
man: $(MAN_PAGES)
$(BUILD)/man/%: docs/man/%.md scripts/mandoc.py
	@mkdir -p $(dir $@)
	@echo "  MAN     $@"
	@$(PYTHON) scripts/mandoc.py man $< $@

docs:
	$(PYTHON) scripts/mandoc.py readme README.md $(MAN_SRC)

# The documentation against the code: README's generated block, the man
# pages under mandoc's lint, the usage blocks against each binary's --help,
# every config keyword, counter and exit code and every test suite
# documented (tests/docs/).
docs-check: all man
	tests/docs/check_docs.sh

PREFIX         ?= /usr/local
BINDIR         ?= $(PREFIX)/bin
MANDIR         ?= $(PREFIX)/share/man
DATADIR        ?= $(PREFIX)/share/dperf-live
SYSCONFDIR     ?= /etc
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BINS := dperf dperf-ctl dperf-top dperf-report
CONFS := $(wildcard conf/*.conf)

install: all man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 \
	  $(DESTDIR)$(DATADIR)/examples $(DESTDIR)$(SYSCONFDIR)/dperf $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 0755 $(addprefix $(BUILD)/,$(BINS)) $(DESTDIR)$(BINDIR)/
	install -m 0644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(filter %.8,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 $(filter %.5,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 $(CONFS) $(DESTDIR)$(DATADIR)/examples/
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' scripts/dperf@.service.in \
	  > $(DESTDIR)$(SYSTEMDUNITDIR)/dperf@.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/dperf@.service

# Configurations in SYSCONFDIR/dperf are the user's: they stay.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(BINS))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(filter %.1,$(MAN_PAGES))))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(filter %.8,$(MAN_PAGES))))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(filter %.5,$(MAN_PAGES))))
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/examples/,$(notdir $(CONFS)))
	rm -f $(DESTDIR)$(SYSTEMDUNITDIR)/dperf@.service
	-rmdir $(DESTDIR)$(DATADIR)/examples $(DESTDIR)$(DATADIR) $(DESTDIR)$(SYSCONFDIR)/dperf 2>/dev/null

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
# a unit test's own: the headers it includes (a header-only module like
# state/sock_table.h has no object to carry the dependency)
-include $(wildcard $(BUILD)/tests/*.d)
