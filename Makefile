# hcclctl build. `make` builds ./hcclctl; `make asan` the ASan+UBSan tree under build/asan;
# `make check` installs what is missing, builds both and runs every test tier;
# `make demo` shows the main jobs on this machine; `make bench` runs the benchmarks;
# `make install`, `make uninstall`, `make deb` and libcomm as a library: mk/install.mk.
CC      ?= cc
O       ?= build
BIN     ?= hcclctl
VERSION := 0.1.0

WARN    := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
           -Wvla -Wwrite-strings -fno-common -Werror
CXXWARN := -Wall -Wextra -Wshadow -Wformat=2 -Wvla -Wwrite-strings -Werror
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 $(WARN)
CPPFLAGS += -D_GNU_SOURCE -I. -DHCCLCTL_VERSION='"$(VERSION)"' -include ranktable/base/banned.h
# The commit --version names (cmd/cli/version.c alone is built with it): "unknown" outside
# git, e.g. a build from a tarball (unpacked inside another repository too); "-dirty" with
# uncommitted changes.
COMMIT  := $(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && \
		c=$$(git rev-parse --short=12 HEAD) && \
		{ git diff --quiet HEAD 2>/dev/null || c=$$c-dirty; } && echo $$c || echo unknown)
# libcurl: its header only. cmd/cli/curlapi.c opens it at the first URL, since loading it
# and its ~25 libraries was 10 of the 15 ms of CPU of every start (perf stat, --version).
PKGS    := libcjson libssh2 zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) libcurl 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lcjson -lssh2 -lz)
CPPFLAGS += $(PKG_CFLAGS)
LDLIBS  += $(PKG_LIBS) -lcrypto -lpthread -lm
# libibverbs is optional: probe rdma reads sysfs without it.
ifneq ($(shell { pkg-config --exists libibverbs 2>/dev/null || test -f /usr/include/infiniband/verbs.h; } && echo y),)
CPPFLAGS += -DHAVE_IBVERBS
LDLIBS  += -libverbs
endif

ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# -g1 after -g: line tables only, which a sanitizer's report needs for file:line; full debug
# information of the instrumented code made the tree take 50 s to build here instead of 32.
CFLAGS  += $(SANFLAGS) -O1 -g1
# Linked at a fixed address: as a PIE, every start of a sanitized program applied 173k
# relative relocations (the sanitizers' per-site data holds pointers), 16 of its 66 ms of CPU
# (perf stat, --version). Release builds stay PIE.
LDFLAGS += $(SANFLAGS) -no-pie
# LeakSanitizer's exit scan without a page fault per page of the runtime's bss (the file
# says why): in every sanitized program, never in a release binary.
SAN_OBJ := $(O)/tests/san/prefault.o $(O)/tests/san/lsan_roots.o
endif

# The layers, lowest first (scripts/layers.py checks that nothing reaches upward).
LOW_SRC  := $(wildcard libcomm/*.c ranktable/*.c ranktable/base/*.c probes/*/*.c)
LIB_SRC  := $(LOW_SRC) $(filter-out cmd/hcclctl.c,$(wildcard cmd/*.c cmd/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(O)/%.o)
# The fuzz build links the lower layers and the parsers of cmd/ that the fuzz targets reach
# (a *_parse.c serves one command; nodeout and netperf serve several).
FUZZ_LIB_SRC := $(LOW_SRC) $(wildcard cmd/*/*_parse.c) cmd/doctor/report_fold.c cmd/lib/nodeout.c \
		cmd/lib/netperf.c
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:%.c=$(O)/%)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:%.c=$(O)/%)

.PHONY: all asan deps check demo bench bench-bin fuzz clean tests format stub
all: $(BIN)

# V=1 shows the commands.
Q := $(if $(V),,@)

$(O)/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# version.o again when the commit changes: its stamp is rewritten only then.
$(O)/commit.stamp: FORCE
	@mkdir -p $(@D); echo '$(COMMIT)' | cmp -s - $@ || echo '$(COMMIT)' >$@
$(O)/cmd/cli/version.o: $(O)/commit.stamp
$(O)/cmd/cli/version.o: CPPFLAGS += -DHCCLCTL_COMMIT='"$(COMMIT)"'
.PHONY: FORCE
FORCE:

$(O)/libhcclctl.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(O)/cmd/hcclctl.o $(O)/libhcclctl.a $(O)/gen/acm_images.o $(SAN_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The log triage's two large automata, built once here instead of at every start of doctor
# --logs (probes/logs/gen/acmgen.c): acmgen builds them from the tables as hcclctl would and
# saves their images, which hcclctl reads in place. hcclctl checks each image against the
# needles it adds (a stale one is rebuilt at start); only hcclctl links them: the unit and
# fuzz programs build the automata as before.
$(O)/gen/acmgen: $(O)/probes/logs/gen/acmgen.o $(O)/libhcclctl.a $(SAN_OBJ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(TEST_LD) -o $@ $^ $(LDLIBS)

$(O)/gen/acm_kb.bin: $(O)/gen/acmgen
	$(O)/gen/acmgen $(O)/gen/acm_kb.bin $(O)/gen/acm_line.bin

$(O)/gen/acm_line.bin: $(O)/gen/acm_kb.bin

$(O)/gen/acm_images.o: $(O)/gen/acm_kb.bin $(O)/gen/acm_line.bin
	printf '%s\n' '.section .rodata' '.balign 64' '.globl hlog_kb_acm_image' \
	  'hlog_kb_acm_image:' '.incbin "$(O)/gen/acm_kb.bin"' '.globl hlog_kb_acm_image_end' \
	  'hlog_kb_acm_image_end:' '.balign 64' '.globl hlog_line_acm_image' 'hlog_line_acm_image:' \
	  '.incbin "$(O)/gen/acm_line.bin"' '.globl hlog_line_acm_image_end' \
	  'hlog_line_acm_image_end:' '.section .note.GNU-stack,"",@progbits' >$(O)/gen/acm_images.s
	$(CC) -c -o $@ $(O)/gen/acm_images.s

# The unit and fuzz programs link with gold where the compiler has it: each of the 85 links
# against the ASan archive took 0.36 s of CPU with the default ld.bfd, 0.07 s with gold (30 s
# of every clean `make check` build). hcclctl itself keeps the default linker.
TEST_LD := $(shell $(CC) -fuse-ld=gold -Wl,--version 2>/dev/null | grep -q 'GNU gold' && echo -fuse-ld=gold)

$(O)/tests/unit/%: $(O)/tests/unit/%.o $(O)/libhcclctl.a $(SAN_OBJ)
	$(CC) $(LDFLAGS) $(TEST_LD) -o $@ $^ $(LDLIBS) -lcmocka

# Fuzz targets link a replay main so the corpus runs under ASan+UBSan without libFuzzer.
$(O)/tests/fuzz/fuzz_%: $(O)/tests/fuzz/fuzz_%.o $(O)/tests/fuzz/replay.o $(O)/libhcclctl.a $(SAN_OBJ)
	$(CC) $(LDFLAGS) $(TEST_LD) -o $@ $^ $(LDLIBS)

tests: $(UNIT_BIN) $(FUZZ_BIN)

# The unit and fuzz objects are kept: deleted as intermediates, but named by their own .d
# files, all 77 were compiled and linked again by every later `make asan` or `make tests`.
.SECONDARY:

# The test stand-ins for CANN's libascendcl.so and libhccl.so (tests/stub/README.md): built
# once, not sanitized, into $(O)/tests/stub/ and a fake install $(O)/tests/stub/ascend/
# (lib64/ and version.info) for ASCEND_HOME_PATH. Only the acl*/Hccl* names are exported.
STUB_DIR      := $(O)/tests/stub
STUB_CFLAGS   := -std=gnu11 -O2 -g $(WARN) -fPIC
STUB_SHARED   := -shared -Wl,--version-script=tests/stub/exports.map -Wl,-z,defs
STUB_ACL_SRC  := $(wildcard tests/stub/acl_*.c) tests/stub/stub_log.c
STUB_HCCL_SRC := $(wildcard tests/stub/hccl_*.c) tests/stub/stub_log.c $(wildcard ranktable/*.c ranktable/base/*.c)
STUB_DEPS     := $(wildcard tests/stub/*.h) tests/stub/exports.map Makefile
STUB_CJSON    := $(shell pkg-config --libs libcjson 2>/dev/null || echo -lcjson)
STUB_LIBS     := $(STUB_DIR)/libascendcl.so $(STUB_DIR)/libhccl.so $(STUB_DIR)/hccl_stub_driver \
		 $(STUB_DIR)/version.info $(STUB_DIR)/ascend/lib64/libhccl.so \
		 $(STUB_DIR)/ascend/lib64/libascendcl.so $(STUB_DIR)/ascend/version.info \
		 $(STUB_DIR)/bin/npu-smi $(STUB_DIR)/bin/hccn_tool

$(STUB_DIR)/libascendcl.so: $(STUB_ACL_SRC) $(STUB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(STUB_CFLAGS) $(STUB_SHARED) -o $@ $(STUB_ACL_SRC) -lpthread

$(STUB_DIR)/libhccl.so: $(STUB_HCCL_SRC) $(STUB_DEPS) ranktable/ranktable.h $(STUB_DIR)/libascendcl.so
	$(CC) $(CPPFLAGS) $(STUB_CFLAGS) $(STUB_SHARED) -o $@ $(STUB_HCCL_SRC) \
	  -L$(STUB_DIR) -lascendcl -Wl,-rpath,'$$ORIGIN' $(STUB_CJSON) -lpthread -lm

$(STUB_DIR)/hccl_stub_driver: tests/stub/driver.c $(STUB_DEPS) $(STUB_DIR)/libhccl.so
	$(CC) $(CPPFLAGS) $(STUB_CFLAGS) -o $@ tests/stub/driver.c \
	  -L$(STUB_DIR) -lhccl -lascendcl -Wl,-rpath,'$$ORIGIN' -lpthread -lm

# npu-smi and hccn_tool as the tests meet them: one program, named by argv[0]. Linked
# statically: the tests start it ~4000 times (1536 in probe-roce.t alone), and the dynamic
# loader was a third of each start's CPU (perf; 100 starts 0.60-0.82 s -> 0.36-0.56 s).
FAKE_SRC := tests/stub/fake_tools.c tests/stub/fake_mesh.c ranktable/base/io.c
$(STUB_DIR)/bin/npu-smi: $(FAKE_SRC) tests/stub/fake_mesh.h ranktable/base/io.h Makefile
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(STUB_CFLAGS) -static -o $@ $(FAKE_SRC)

$(STUB_DIR)/bin/hccn_tool: $(STUB_DIR)/bin/npu-smi
	cp $< $@

$(STUB_DIR)/version.info $(STUB_DIR)/ascend/version.info:
	@mkdir -p $(@D)
	printf 'Version=1.0.0\nversion_dir=hcclctl-test-stub\n' > $@

$(STUB_DIR)/ascend/lib64/%.so: $(STUB_DIR)/%.so
	@mkdir -p $(@D)
	cp $< $@

# What the CLI tests read --json verdicts with (tests/tools/jfield.c).
$(O)/tests/tools/jfield: tests/tools/jfield.c Makefile
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(STUB_CFLAGS) -o $@ $< $(STUB_CJSON) -lm

stub: $(STUB_LIBS) $(O)/tests/tools/jfield
ifneq ($(SAN),1)
tests: stub
endif

asan:
	$(MAKE) O=build/asan SAN=1 BIN=build/asan/hcclctl build/asan/hcclctl tests

# libFuzzer builds for real fuzzing: make fuzz && build/fuzz/fuzz_ranktable tests/fuzz/corpus/ranktable
fuzz:
	@mkdir -p build/fuzz
	for f in $(FUZZ_SRC); do n=$$(basename $$f .c); \
	  clang $(CPPFLAGS) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	    $$f $(FUZZ_LIB_SRC) -o build/fuzz/$$n $(LDLIBS) || exit 1; done

deps:
	@sh scripts/deps.sh

# Builds use every core; the harness runs three test programs at a time where they can share.
# The plain tree (./hcclctl, the stubs) is built first; the ASan tree with its unit and fuzz
# programs is built by the harness beside the plain tree's tests, most of which wait on
# sockets and clocks, under SCHED_IDLE (HARNESS_BUILD). The plain tree's unit and fuzz
# programs are no tier's (the harness runs the ASan ones): `make tests` builds them.
NPROC := $(shell nproc 2>/dev/null || echo 2)
check: deps
	$(MAKE) -j$(NPROC) all stub
	@HARNESS_BUILD='$(MAKE) -j$(NPROC) asan' perl scripts/harness.pl

demo: deps
	$(MAKE) all
	@sh scripts/demo.sh

# The bench programs: the kernels against libhcclctl.a, a link probe, a delay line (a
# switch in user space, for link delay without netem), Open MPI's side built with its own
# wrapper (libopenmpi-dev) and Gloo's, C++17 against Debian's libgloo (libgloo-dev, one
# shared library that brings its own dependencies). `make bench BENCH=coll` runs one bench.
$(O)/bench/kernels: $(O)/bench/kernels.o $(O)/libhcclctl.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/bench/netprobe: $(O)/bench/netprobe.o
	$(CC) $(LDFLAGS) -o $@ $^

$(O)/bench/delayline: $(O)/bench/delayline.o
	$(CC) $(LDFLAGS) -o $@ $^

$(O)/bench/mpi_coll: bench/mpi_coll.c
	@mkdir -p $(@D)
	mpicc -std=gnu11 -O2 -g $(WARN) -o $@ $<

# libcomm's shared-memory ring against process_vm_readv and memcpy (libcomm/shm.c's choice)
$(O)/bench/shmcopy: bench/shmcopy.c libcomm/shmring.c libcomm/shmring.h libcomm/internal.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ bench/shmcopy.c libcomm/shmring.c

$(O)/bench/gloo_coll: bench/gloo_coll.cc
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 -g $(CXXWARN) -o $@ $< -lgloo

bench-bin: $(BIN) $(O)/bench/kernels $(O)/bench/netprobe $(O)/bench/delayline $(O)/bench/mpi_coll \
	   $(O)/bench/shmcopy $(O)/bench/gloo_coll

bench: deps
	$(MAKE) bench-bin
	@sh bench/run.sh $(BENCH)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build $(BIN)

include mk/install.mk

-include $(shell find build -name '*.d' -type f 2>/dev/null)
