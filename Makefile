# cyclekit: a bare-metal x86 benchmark kernel.
#   make          the hybrid BIOS/UEFI ISO (build/cyclekit.iso)
#   make run      boot it under QEMU (TCG), the readable lines on stdout, the log saved, the kernel's status
#   make run-kvm  the same under KVM;  make run-uefi  through OVMF
#   make check    host unit tests, the Pentium instruction check, the P5 model, boot tests
#   make check-pmu  the counters on the counting QEMU bed (docs/counters.md)
#   make hosted   the same harness and benchmarks as a Linux user-space program
#   make netboot  a GRUB network-boot directory (build/netboot);  make floppy  a 1.44 MB floppy image
#   make usb      a BIOS/UEFI USB stick image (build/cyclekit-usb.img); UEFI runs write their log to it
# Missing Debian packages are installed by scripts/deps (or it prints the apt-get line).

BUILD   := build
ISO     := $(BUILD)/cyclekit.iso
KERNEL  := $(BUILD)/cyclekit.elf

# Debian's i686 cross compiler when present, else the native gcc in 32-bit mode.
CROSS   := $(shell command -v i686-linux-gnu-gcc >/dev/null 2>&1 && echo i686-linux-gnu-)
KCC     := $(if $(CROSS),$(CROSS)gcc,gcc -m32)
KLD     := $(if $(CROSS),$(CROSS)ld,ld -m elf_i386)
HOSTCC  ?= gcc

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# The core must run on a Pentium: i586, no CMOV/SSE/x87 from the compiler.
KCFLAGS := -std=gnu11 -O2 -m32 -march=i586 -mtune=pentium -mgeneral-regs-only \
           -ffreestanding -fno-pic -fno-pie -fno-stack-protector \
           -fno-asynchronous-unwind-tables -fno-omit-frame-pointer \
           -fno-strict-aliasing -fno-common $(WARN) -Ikernel -MMD -MP
KASFLAGS := -m32 -march=i586 -Ikernel -MMD -MP
# SMP_SPIN_LIMIT: the kernel/smp spin bound, raised 8x where the processors are
# threads Linux schedules: the hosted runners and (as a variable a test can
# lower, tests/unit/support/smp_spin.h) the host unit tests
# (kernel/smp/smp_bounds.h says why).
THREAD_SPIN_LIMIT := -DSMP_SPIN_LIMIT='(1u << 31)'
HCFLAGS := -std=gnu11 -O1 -g $(WARN) -Wno-missing-prototypes -Ikernel -Itests/unit/support -DCK_HOST_TEST -MMD -MP \
           -include tests/unit/support/smp_spin.h

# The tree is the architecture: kernel/platform/{bare,hosted} are the two
# platforms, everything else in kernel/ is portable (also built into the host
# unit tests and the hosted runner).
BARE_DIRS     := kernel/bare kernel/bare/console kernel/bare/traps kernel/bare/long \
                 kernel/bare/firmware kernel/bare/smp kernel/bare/time kernel/bare/efi kernel/bare/sampler
PORTABLE_DIRS := kernel/platform kernel/lib kernel/record kernel/cpu kernel/cpu/topology kernel/uarch kernel/smp kernel/pmu kernel/stats kernel/clock \
                 kernel/harness kernel/report kernel/report/screen kernel/report/cores kernel/report/firmware kernel/run kernel/load kernel/serve kernel/options kernel/formats
PORTABLE_SRCS := $(sort $(foreach d,$(PORTABLE_DIRS),$(wildcard $(d)/*.c $(d)/*.S)))
BARE_SRCS     := $(sort $(wildcard boot/*.S $(addsuffix /*.S,$(BARE_DIRS)) $(addsuffix /*.c,$(BARE_DIRS))))
BENCH_SRCS    := $(sort $(wildcard bench/*.c bench/*.S))
KERNEL_SRCS   := $(BARE_SRCS) $(PORTABLE_SRCS) $(BENCH_SRCS)
FONT_SRC      := $(BUILD)/gen/font.c
# What built it (kernel/lib/build.h): version, date, compiler, generated below.
VERSION_SRC   := $(BUILD)/gen/version.c
KERNEL_OBJS   := $(patsubst %,$(BUILD)/k/%.o,$(KERNEL_SRCS) $(VERSION_SRC)) $(BUILD)/k/gen/font.c.o

UNIT_TESTS    := $(patsubst tests/unit/%.c,$(BUILD)/host/%,$(sort $(wildcard tests/unit/test_*.c)))
UNIT_SUPPORT  := $(patsubst %,$(BUILD)/host/%.o,$(sort $(wildcard tests/unit/support/*.c)))
HOST_LIB      := $(BUILD)/host/libck.a
# 32-bit x86 code (the harness's reference body, the guard's jump) is not in
# the host library: the unit tests catch no faults and run no generated code.
HOST_ONLY_32  := kernel/harness/reference.c kernel/platform/guard.c %.S
# (tests/unit/support/host32.c stands in for them.)
# The portable objects are the 64-bit hosted runner's own (its compiler and
# flags: the code the runner ships, at -O2), but kernel/smp/, whose waits the
# unit tests bound and relax themselves (tests/unit/support/smp_spin.h, forced
# in with HCFLAGS); the executables are linked -no-pie, as those objects are.
# own_or_shared SOURCES,OWN,OWN_DIR,SHARED_DIR: an object per source, in OWN_DIR
# for the sources in OWN (its build's flags change their code), else in SHARED_DIR
# (another build's, the same bytes).
own_or_shared = $(foreach s,$(1),$(if $(filter $(2),$(s)),$(3)/$(s).o,$(4)/$(s).o))
HOST_LIB_OBJS := $(call own_or_shared,$(filter-out $(HOST_ONLY_32),$(PORTABLE_SRCS)) $(VERSION_SRC),\
                   $(filter kernel/smp/%,$(PORTABLE_SRCS)),$(BUILD)/host,$(BUILD)/h64)

DEPS_OK := $(BUILD)/.deps-ok
# The rest of scripts/deps (libFuzzer, the host tools' libraries, chromium):
# only fuzz-check and tools-tests need it, and CI installs it beside the
# boot tests (.ci/run).
DEPS_ALL_OK := $(BUILD)/.deps-all-ok
PYTHON  ?= /usr/bin/python3
RUN     := $(PYTHON) scripts/run-qemu
PYTEST  := $(PYTHON) -m pytest

.PHONY: all iso kernel run run-kvm run-uefi check check-pmu unit-tests boot-tests isa-check layout-check model-tests tools-tests hosted clean deps
# Keep the objects of chained rules (unit-test objects) between builds.
.SECONDARY:

all: iso
iso: $(ISO)
kernel: $(KERNEL)

$(DEPS_OK): scripts/deps
	@sh scripts/deps build
	@mkdir -p $(@D) && touch $@
$(DEPS_ALL_OK): scripts/deps
	@sh scripts/deps
	@mkdir -p $(@D) && touch $@
deps:
	@sh scripts/deps

$(BUILD)/k/%.c.o: %.c Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(KCC) $(KCFLAGS) -c $< -o $@
# The framebuffer console's glyphs, from GRUB's own font (grub-common).
$(FONT_SRC): scripts/pf2-font | $(DEPS_OK)
	@mkdir -p $(@D)
	$(PYTHON) scripts/pf2-font /usr/share/grub/ascii.pf2 $@
$(BUILD)/k/gen/font.c.o: $(FONT_SRC)
	@mkdir -p $(@D)
	@$(KCC) $(KCFLAGS) -Ikernel/bare/console -c $< -o $@

# The build's identity (kernel/lib/build.h). $(BUILD)/gen/describe holds
# `git describe --always --dirty` ("unknown" outside a git checkout, e.g. a
# tarball) and is rewritten only when that changes; version.c is regenerated
# when it or a source changes (then only it recompiles and the link reruns).
# SOURCE_DATE_EPOCH, when set, fixes the build date.
$(BUILD)/gen/describe: FORCE
	@mkdir -p $(@D)
	@v=unknown; if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ]; then \
	  v=$$(git describe --always --dirty 2>/dev/null || echo unknown); fi; \
	  [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@
$(VERSION_SRC): $(BUILD)/gen/describe $(KERNEL_SRCS) $(wildcard kernel/hosted/*.c) $(wildcard kernel/*.h kernel/*/*.h kernel/*/*/*.h kernel/*/*/*/*.h) Makefile
	@echo "  GEN     $@ ($$(cat $<))"
	@{ echo '/* Generated by the Makefile: what built this program. */'; \
	  echo '#include "lib/build.h"'; \
	  echo "const char ck_build_version[] = \"$$(tr -cd 'A-Za-z0-9._+~-' < $<)\";"; \
	  echo "const char ck_build_date[] = \"$$(date -u $${SOURCE_DATE_EPOCH:+-d @$$SOURCE_DATE_EPOCH} +%Y-%m-%dT%H:%M:%SZ)\";"; \
	  echo '#if defined(__GNUC__) && !defined(__clang__)'; \
	  echo 'const char ck_build_compiler[] = "gcc " __VERSION__;'; \
	  echo '#else'; \
	  echo 'const char ck_build_compiler[] = __VERSION__;'; \
	  echo '#endif'; } > $@.tmp && mv $@.tmp $@
.PHONY: FORCE
FORCE:

# Benchmarks run and print in the order their file declares them; a
# benchmark file sees the harness's public header (bench.h) and nothing else.
$(BUILD)/k/bench/%.c.o: KCFLAGS += -fno-toplevel-reorder -Ikernel/harness
$(BUILD)/k/%.S.o: %.S Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  AS      $<"
	@$(KCC) $(KASFLAGS) -c $< -o $@

# The UEFI side of the log file (kernel/bare/efi/fw64/, docs/uefi-log.md):
# 64-bit C calling the firmware (ms_abi), built position-independent with
# hidden symbols so every reference is RIP-relative, linked at 0 into a flat
# blob with no relocations at all (checked), and included whole in the 32-bit
# kernel's 64-bit section by kernel/bare/efi/efi_blob.S.
EFI64_SRCS   := $(sort $(wildcard kernel/bare/efi/fw64/*.c))
EFI64_OBJS   := $(patsubst %,$(BUILD)/efi64/%.o,$(EFI64_SRCS))
EFI64_BLOB   := $(BUILD)/efi64/blob.bin
EFI64_CFLAGS := -std=gnu11 -O2 -m64 -mno-red-zone -mgeneral-regs-only -ffreestanding -fpie \
                -fvisibility=hidden -fno-stack-protector -fno-asynchronous-unwind-tables -fno-builtin \
                $(WARN) -Ikernel -MMD -MP
$(BUILD)/efi64/%.c.o: %.c Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC64    $<"
	@$(HOSTCC) $(EFI64_CFLAGS) -c $< -o $@
$(EFI64_BLOB): $(EFI64_OBJS) kernel/bare/efi/fw64/blob.ld
	@echo "  BLOB64  $@"
	@ld -m elf_x86_64 -pie --no-dynamic-linker -nostdlib -T kernel/bare/efi/fw64/blob.ld -o $(@:.bin=.elf) $(EFI64_OBJS)
	@if readelf -rW $(@:.bin=.elf) | grep -q R_X86_64; then readelf -rW $(@:.bin=.elf) >&2; \
	  echo "$(@:.bin=.elf): relocations left: the blob must be position-independent" >&2; exit 1; fi
	@objcopy -O binary $(@:.bin=.elf) $@
$(BUILD)/k/kernel/bare/efi/efi_blob.S.o: KASFLAGS += -DEFI_BLOB_BIN='"$(EFI64_BLOB)"'
$(BUILD)/k/kernel/bare/efi/efi_blob.S.o: $(EFI64_BLOB)

$(KERNEL): $(KERNEL_OBJS) linker.ld
	@echo "  LD      $@"
	@$(KLD) -nostdlib -z noexecstack -T linker.ld -o $@ $(KERNEL_OBJS)
	@grub-file --is-x86-multiboot2 $@ || { echo "$@ is not multiboot2" >&2; rm -f $@; exit 1; }

# The same kernel whose multiboot2 header also asks for a framebuffer (UEFI boots).
KERNEL_FB := $(BUILD)/cyclekit-fb.elf
$(BUILD)/k/boot/entry-fb.S.o: boot/entry.S Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@$(KCC) $(KASFLAGS) -DCK_FRAMEBUFFER_TAG -c $< -o $@
$(KERNEL_FB): $(KERNEL_OBJS) $(BUILD)/k/boot/entry-fb.S.o linker.ld
	@echo "  LD      $@"
	@$(KLD) -nostdlib -z noexecstack -T linker.ld -o $@ \
		$(subst $(BUILD)/k/boot/entry.S.o,$(BUILD)/k/boot/entry-fb.S.o,$(KERNEL_OBJS))
	@grub-file --is-x86-multiboot2 $@ || { echo "$@ is not multiboot2" >&2; rm -f $@; exit 1; }

$(ISO): $(KERNEL) $(KERNEL_FB) iso/grub.cfg
	@rm -rf $(BUILD)/isoroot && mkdir -p $(BUILD)/isoroot/boot/grub
	cp $(KERNEL) $(BUILD)/isoroot/boot/cyclekit.elf
	cp $(KERNEL_FB) $(BUILD)/isoroot/boot/cyclekit-fb.elf
	cp iso/grub.cfg $(BUILD)/isoroot/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isoroot 2>$(BUILD)/grub-mkrescue.log || { cat $(BUILD)/grub-mkrescue.log >&2; exit 1; }

# `cyclekit run` (cyclekit/verbs/run.py): builds the ISO quietly, boots it in
# qemu-system-x86_64 with -cpu max (an x86-64 CPU, so the run is in long mode and
# the 64-bit benchmarks run too), shows the readable lines, saves the whole log
# under build/logs/ and says where. RUNFLAGS are its flags and kernel options
# (RUNFLAGS="--qemu i386" for the 32-bit path, "--json" for the records too).
run:
	@scripts/cyclekit run $(RUNFLAGS)

# Other boot media (cyclekit/media.py): a GRUB network-boot directory
# (BIOS and UEFI PXE) and a 1.44 MB floppy; NETBOOT_OPTIONS/FLOPPY_OPTIONS go
# on the default entry's kernel line.
.PHONY: netboot floppy usb
netboot: $(KERNEL) $(KERNEL_FB) iso/grub.cfg
	$(PYTHON) scripts/cyclekit image --no-build --netboot $(BUILD)/netboot --options "$(NETBOOT_OPTIONS)"
floppy: $(KERNEL) iso/grub.cfg
	$(PYTHON) scripts/cyclekit image --no-build --floppy $(BUILD)/cyclekit-floppy.img --options "$(FLOPPY_OPTIONS)"
# A BIOS/UEFI USB stick image whose UEFI boots write their log to it
# (docs/uefi-log.md); USB_OPTIONS go on the default entry's kernel line.
usb: $(KERNEL) $(KERNEL_FB) iso/grub.cfg
	$(PYTHON) scripts/cyclekit image --no-build --usb $(BUILD)/cyclekit-usb.img --options "$(USB_OPTIONS)"
run-kvm: $(ISO)
	$(RUN) --iso $(ISO) --accel kvm $(RUNFLAGS)
run-uefi: $(ISO)
	$(RUN) --iso $(ISO) --uefi $(RUNFLAGS)

# What the compilers alone build (scripts/deps compile: no GRUB, QEMU or
# Python yet): the kernel's objects but the font, both hosted runners and the
# unit tests' library. CI builds it while the rest of the build tier installs
# (.ci/run), with DEPS_OK= so that make does not install that tier itself.
.PHONY: objects
objects: $(filter-out $(BUILD)/k/gen/font.c.o,$(KERNEL_OBJS)) $(BUILD)/cyclekit-hosted $(BUILD)/cyclekit-hosted64 $(HOST_LIB_OBJS)

# Host unit tests: portable kernel sources, built natively, against cmocka.
$(BUILD)/host/%.c.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  HOSTCC  $<"
	@$(HOSTCC) $(HCFLAGS) -c $< -o $@
$(HOST_LIB): $(HOST_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/host/test_%: $(BUILD)/host/tests/unit/test_%.c.o $(UNIT_SUPPORT) $(HOST_LIB)
	$(HOSTCC) -no-pie -o $@ $< $(UNIT_SUPPORT) $(HOST_LIB) -lcmocka
# Unit tests in subfolders of tests/unit/ (one room each: clock/, firmware/,
# load/, report/; tests/unit/ itself holds at most 20 sources, check-layout).
UNIT_SUB_SRCS := $(sort $(wildcard tests/unit/*/test_*.c))
UNIT_SUB      := $(patsubst tests/unit/%.c,$(BUILD)/host/%,$(UNIT_SUB_SRCS))
UNIT_TESTS    += $(UNIT_SUB)
$(UNIT_SUB): $(BUILD)/host/%: $(BUILD)/host/tests/unit/%.c.o $(UNIT_SUPPORT) $(HOST_LIB)
	@mkdir -p $(@D)
	$(HOSTCC) -no-pie -o $@ $(filter %.o,$^) $(HOST_LIB) -lcmocka $(LDLIBS_UNIT)
# The guard built as the hosted runners build it (one innermost guard per
# thread) with the 64-bit jump, against two real threads; its own rule: it
# links the real guard, not the unit tests' stand-in (support/host32.c).
GUARD_THREADS := $(BUILD)/host/threads/guard_threads
UNIT_TESTS    += $(GUARD_THREADS)
$(GUARD_THREADS): tests/unit/threads/guard_threads.c kernel/platform/guard.c kernel/platform/jump64.S Makefile
	@mkdir -p $(@D)
	$(HOSTCC) $(filter-out -MMD -MP,$(HCFLAGS)) -DCK_GUARD_PER_THREAD -o $@ $(filter %.c %.S,$^) -lcmocka -lpthread
# The SMBIOS parser is bare-platform code, pure enough to test on the host.
$(BUILD)/host/firmware/test_smbios: $(BUILD)/host/kernel/bare/firmware/smbios.c.o
# So is the Multiboot 1 reader (QEMU's -kernel handoff).
$(BUILD)/host/boot/test_multiboot1: $(BUILD)/host/kernel/bare/multiboot1.c.o $(BUILD)/host/kernel/bare/boot_info.c.o
# And the multiboot2 reader (GRUB's handoff).
$(BUILD)/host/boot/test_multiboot2: $(BUILD)/host/kernel/bare/multiboot2.c.o $(BUILD)/host/kernel/bare/boot_info.c.o
# So is the UEFI boot's memory map (kernel/bare/efi/efi_map.c).
$(BUILD)/host/efi/test_efi_map: $(BUILD)/host/kernel/bare/efi/efi_map.c.o
# So is the local APIC access (x2APIC cannot be booted under QEMU TCG): its
# MSRs come from the test's own rdmsr_safe/wrmsr_safe.
$(BUILD)/host/apic/test_lapic: $(BUILD)/host/kernel/bare/smp/lapic.c.o
# The microarchitecture files register themselves (ck_uarchs) and nothing
# calls them by name, so the archive would leave them out: linked explicitly.
UARCH_HOST_OBJS := $(patsubst %,$(BUILD)/h64/%.o,$(sort $(wildcard kernel/uarch/*.c)))
$(BUILD)/host/uarch/test_uarch $(BUILD)/host/load/test_module $(BUILD)/host/formats/test_expect_source: $(UARCH_HOST_OBJS)

unit-tests: $(UNIT_TESTS)
	@fail=0; for t in $(UNIT_TESTS); do echo "== $$t"; $$t || fail=1; done; exit $$fail

isa-check: $(KERNEL)
	$(PYTHON) scripts/check-isa $(KERNEL)

# The tree's rules (docs/architecture.md): no room includes or calls one above
# it (read from the objects' symbols: the kernel's and the hosted runner's
# own), no circles, function lengths, benchmark files that only declare,
# formatting only in kernel/report/, record/ and formats/, and no opt_*
# global outside the option room and the plan builder (--check-option-reads).
LAYOUT_FLAGS ?= --check-option-reads
layout-check: $(KERNEL)
	$(PYTHON) scripts/check-layout --objects $(BUILD)/k --objects $(BUILD)/h $(LAYOUT_FLAGS)

# Three workers (pytest-xdist): QEMU's TCG runs one CPU thread per guest, so
# two boots at once use both cores of a 2-core machine, and beside another
# CPU-heavy job (the scheduler shares the cores per thread) a third keeps the
# suite's share up; four were slower once (617 s against 571 s beside
# stress-ng --cpu 2, when boots took longer). A file's tests stay on one
# worker (--dist loadfile): its module fixtures boot once.
BOOT_JOBS ?= 3
boot-tests: $(ISO)
	$(PYTEST) -q -rs --durations=20 -n $(BOOT_JOBS) --dist loadfile tests/boot

# Every P5 expectation in bench/ against the P5 pairing model (scripts/p5model.py).
model-tests:
	$(PYTEST) -q tests/model

# The host tools (the cyclekit/ package and its front door scripts/cyclekit),
# on logs and files; the capture test boots the ISO once through QEMU's TCP
# serial, the user-mistake test boots it once with an unknown option, and
# `run --hosted` runs both hosted runners. The tests import the package from
# the checkout (pyproject.toml: pythonpath).
# Two workers, a file's tests on one (--dist loadfile): 35 s become 20 s on an
# idle machine. Runs side by side share build/: logs are named exclusively
# (launch.log_path), `snippet` holds its file's lock, exegesis's cache is
# written under a per-process name and renamed.
TOOLS_JOBS ?= 2
tools-tests: $(ISO) hosted | $(DEPS_ALL_OK)
	$(PYTEST) -q -rs --durations=10 -n $(TOOLS_JOBS) --dist loadfile tests/tools

check: unit-tests fuzz-check isa-check layout-check model-tests tools-tests boot-tests hosted-tests

# The generated parts of docs/options.md and docs/benchmarks.md, from the
# kernel's own help and list (scripts/gen-docs); tests/tools/test_docs.py
# fails while they differ.
.PHONY: docs
docs: $(ISO) hosted
	$(PYTHON) scripts/gen-docs

# The LLVM expectation tables: llvm-mca over every body of the built kernel for
# every LLVM CPU with a scheduling model (scripts/gen-expectations). Writes
# kernel/uarch/llvm_tables.c and cyclekit/llvm_cpu_table.py, both committed, so
# a fresh machine builds without LLVM; run it after changing a benchmark body or
# the LLVM column of kernel/cpu/cpu_models.c (tests/tools/test_llvm_expect.py
# fails until then).
.PHONY: expectations
expectations: $(KERNEL)
	$(PYTHON) scripts/gen-expectations --cc "$(KCC)"

# Counters that count (docs/counters.md): the PMU boot tests on the counting
# QEMU that ../shared/tools/qemu-pmu builds (as root, about 10 minutes, once)
# into /var/cache/qemu-pmu, or the binary CK_QEMU_PMU names. Not part of
# `check` (there they skip, saying why): the bed is not on every machine.
CK_QEMU_PMU ?= $(wildcard /var/cache/qemu-pmu/qemu-system-x86_64-pmu)
check-pmu: $(ISO)
	@test -n "$(CK_QEMU_PMU)" || { echo "check-pmu: no counting QEMU: run ../shared/tools/qemu-pmu as root" \
	    "(about 10 minutes), or set CK_QEMU_PMU to its binary" >&2; exit 2; }
	CK_QEMU_PMU=$(CK_QEMU_PMU) $(PYTEST) -q -rs --durations=5 tests/boot/test_pmu_counting.py

# --- the hosted runner (kernel/hosted/) ---
# The same portable harness and bench/ files as a Linux user-space program in
# ring 3: build/cyclekit-hosted. Portable and benchmark code keep the kernel's
# flags (they are freestanding-clean); hosted/ gets ordinary hosted flags.
# Static and not PIE: the generated benchmark code uses absolute addresses.
# No --gc-sections: ck_options and ck_benches are found through the
# __start_/__stop_ symbols ld provides for them.
HOSTED_BIN    := $(BUILD)/cyclekit-hosted
HOSTED_CC     := $(KCC)
HOSTED_CFLAGS := -std=gnu11 -O2 -m32 -march=i586 -fno-pie -fno-omit-frame-pointer $(WARN) \
                 -D_GNU_SOURCE -Ikernel -MMD -MP
# The portable and benchmark objects are the kernel's own (the same compiler and
# flags, so the same bytes: 173 of 177 compared equal), except where the
# hosted runner's flags change the code: the spin bound of the waits between
# processors (kernel/smp/, THREAD_SPIN_LIMIT) and one guard per thread
# (guard.c). Compiling them twice cost about 25 CPU-s of every fresh build.
HOSTED_KOBJS  := $(call own_or_shared,$(PORTABLE_SRCS) $(BENCH_SRCS) $(VERSION_SRC),\
                   kernel/platform/guard.c $(filter kernel/smp/%,$(PORTABLE_SRCS)),$(BUILD)/h,$(BUILD)/k)
HOSTED_OBJS   := $(patsubst %,$(BUILD)/h/%.o,$(sort $(wildcard kernel/hosted/*.c)))
.PHONY: hosted hosted-tests
hosted: $(HOSTED_BIN) $(BUILD)/cyclekit-hosted64
$(BUILD)/h/kernel/hosted/%.c.o: kernel/hosted/%.c Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  HCC     $<"
	@$(HOSTED_CC) $(HOSTED_CFLAGS) -c $< -o $@
$(BUILD)/h/%.c.o: %.c Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  HKCC    $<"
	@$(HOSTED_CC) $(KCFLAGS) -c $< -o $@
$(BUILD)/h/bench/%.c.o: KCFLAGS += -fno-toplevel-reorder -Ikernel/harness
$(BUILD)/h/%.c.o: KCFLAGS += $(THREAD_SPIN_LIMIT)
# One guard per thread: the hosted runner's CPUs are threads (hosted/smp.c).
$(BUILD)/h/kernel/platform/guard.c.o: KCFLAGS += -DCK_GUARD_PER_THREAD
$(BUILD)/h/%.S.o: %.S Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  HAS     $<"
	@$(HOSTED_CC) $(KASFLAGS) -c $< -o $@
$(HOSTED_BIN): $(HOSTED_KOBJS) $(HOSTED_OBJS)
	@echo "  HLD     $@"
	@$(HOSTED_CC) -m32 -static -no-pie -z noexecstack -pthread -o $@ $(HOSTED_OBJS) $(HOSTED_KOBJS)
# check-layout reads the hosted platform's own objects too.
layout-check: $(HOSTED_OBJS)

# The 64-bit hosted runner, build/cyclekit-hosted64: the same portable harness
# built for x86_64 (no -march=i586: it only runs on x86-64 CPUs), the hosted
# platform, and only the 64-bit benchmark files (bench/*64_*.c, BENCH64 bodies)
# and the declarations of the measurements between processors (bench/smp_*.c):
# a 32-bit body cannot be assembled in long mode. The 32-bit-only pieces are
# replaced: jump.S by jump64.S, probe.S by probe64.S (both in PORTABLE_SRCS).
HOSTED64_BIN   := $(BUILD)/cyclekit-hosted64
HOSTED64_CC    := $(HOSTCC)
HOSTED64_ONLY32 := kernel/platform/jump.S kernel/harness/probe.S
HOSTED64_KCFLAGS := $(filter-out -m32 -march=i586 -mtune=pentium,$(KCFLAGS)) -m64
HOSTED64_CFLAGS := $(filter-out -m32 -march=i586,$(HOSTED_CFLAGS)) -m64
HOSTED64_KOBJS := $(patsubst %,$(BUILD)/h64/%.o,$(filter-out $(HOSTED64_ONLY32),$(PORTABLE_SRCS)) \
                    $(sort $(wildcard bench/*64_*.c bench/smp_*.c)) $(VERSION_SRC))
HOSTED64_OBJS  := $(patsubst %,$(BUILD)/h64/%.o,$(sort $(wildcard kernel/hosted/*.c)))
$(BUILD)/h64/kernel/hosted/%.c.o: kernel/hosted/%.c Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  HCC64   $<"
	@$(HOSTED64_CC) $(HOSTED64_CFLAGS) -c $< -o $@
$(BUILD)/h64/%.c.o: %.c Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  HKCC64  $<"
	@$(HOSTED64_CC) $(HOSTED64_KCFLAGS) -c $< -o $@
$(BUILD)/h64/bench/%.c.o: HOSTED64_KCFLAGS += -fno-toplevel-reorder -Ikernel/harness
$(BUILD)/h64/%.c.o: HOSTED64_KCFLAGS += $(THREAD_SPIN_LIMIT)
$(BUILD)/h64/kernel/platform/guard.c.o: HOSTED64_KCFLAGS += -DCK_GUARD_PER_THREAD
$(BUILD)/h64/%.S.o: %.S Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  HAS64   $<"
	@$(HOSTED64_CC) -m64 -Ikernel -MMD -MP -c $< -o $@
$(HOSTED64_BIN): $(HOSTED64_KOBJS) $(HOSTED64_OBJS)
	@echo "  HLD64   $@"
	@$(HOSTED64_CC) -m64 -static -no-pie -z noexecstack -pthread -o $@ $(HOSTED64_OBJS) $(HOSTED64_KOBJS)
# The 32-bit runner twice: as this machine starts it (natively where Linux
# runs i386 programs), then forced under qemu-i386 (CK_HOSTED32, what a
# kernel without IA32 emulation does), so both paths pass on every machine.
# Where Linux cannot run i386 programs (the shell's 126: ENOEXEC) the first
# pass already took the qemu-i386 path, and the second would repeat it.
HOSTED32_TESTS := tests/hosted/test_hosted.py tests/hosted/test_hosted_serve.py \
                  tests/hosted/test_hosted_smp.py tests/hosted/test_hosted_sibling.py
# Two workers, a file's tests on one: a third of the suite's time is waiting
# (sleeps, processes starting), so 51 s become 32 s on an idle machine.
HOSTED_JOBS ?= 2
hosted-tests: hosted
	$(PYTEST) -q -rs --durations=10 -n $(HOSTED_JOBS) --dist loadfile tests/hosted
	@$(HOSTED_BIN) help bench=none >/dev/null 2>&1; if [ $$? = 126 ]; then \
	  echo "hosted-tests: this Linux runs i386 programs only under qemu-i386: the pass above was that path"; \
	else echo "CK_HOSTED32=qemu-i386 $(PYTEST) -q -rs -n $(HOSTED_JOBS) --dist loadfile $(HOSTED32_TESTS)"; \
	  CK_HOSTED32=qemu-i386 $(PYTEST) -q -rs -n $(HOSTED_JOBS) --dist loadfile $(HOSTED32_TESTS); fi

# --- options and fuzzing (tests/fuzz/) ---
# The option test links the whole host library, so every portable option registers.
$(BUILD)/host/test_options: $(BUILD)/host/tests/unit/test_options.c.o $(UNIT_SUPPORT) $(HOST_LIB)
	$(HOSTCC) -no-pie -o $@ $< $(UNIT_SUPPORT) -Wl,--whole-archive $(HOST_LIB) -Wl,--no-whole-archive -lcmocka

# The ACPI parser is bare-platform code that reads memory only through a
# callback, so its unit test and fuzz target run it on the host too.
ACPI_PARSER_SRCS := kernel/bare/firmware/acpi.c kernel/bare/firmware/madt.c
$(BUILD)/host/acpi/test_acpi: $(patsubst %,$(BUILD)/host/%.o,$(ACPI_PARSER_SRCS))
$(BUILD)/host/acpi/test_rsdp_search: $(patsubst %,$(BUILD)/host/%.o,$(ACPI_PARSER_SRCS))
# The between-core handshakes are tested with real threads.
$(BUILD)/host/smp/test_between_cores: LDLIBS_UNIT := -lpthread
$(BUILD)/host/smp/test_loaded_chase: LDLIBS_UNIT := -lpthread
$(BUILD)/host/smp/test_sibling_measure: LDLIBS_UNIT := -lpthread

# libFuzzer targets (clang, ASan, UBSan) over the parsers of outside input: the
# command line, the multiboot2 walker, the CPUID decoders; each links the part of
# the portable library they reach (FUZZ_LIB_SRCS), built the same way. The log parser's properties are
# hypothesis tests. make fuzz: FUZZ_SECONDS each (or FUZZ_RUNS executions
# each), HYPOTHESIS_EXAMPLES per property; new inputs go to
# build/fuzz/corpus/, crashes to build/fuzz/.
# fuzz-check (part of make check): the committed corpus once, FUZZ_CHECK_SECONDS
# of fuzzing each, and the properties with few examples.
# -gline-tables-only: a crash's stack names file and line, all a sanitizer report shows.
# clang-16 where scripts/deps installed it (beside the table's llvm-16), else clang.
FUZZ_CC       ?= $(if $(wildcard /usr/bin/clang-16),clang-16,clang)
FUZZ_CFLAGS   := -std=gnu11 -O1 -gline-tables-only -fno-omit-frame-pointer $(WARN) -Wno-missing-prototypes \
                 -fsanitize=address,undefined -fno-sanitize-recover=all -Ikernel -Ikernel/bare \
                 -Itests/unit -Itests/unit/support -DCK_HOST_TEST -MMD -MP
FUZZ_TARGETS  := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS     := $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_TARGETS))
FUZZ_LIB      := $(BUILD)/fuzz/libck.a
# What the targets reach, not the whole portable library: each file here is compiled
# again with clang's instrumentation (a third of fuzz-check's CPU with all 157). Whole
# directories where a file is linked for what it puts in a section (kernel/uarch's
# models, kernel/options' table), so a new model or option is fuzzed without a word here.
FUZZ_LIB_SRCS := $(filter-out $(HOST_ONLY_32),$(wildcard $(addsuffix /*.c,kernel/cpu kernel/lib \
                   kernel/record kernel/formats kernel/options kernel/pmu kernel/report/screen kernel/uarch))) \
                 kernel/harness/bench_registry.c kernel/load/module_check.c kernel/platform/platform.c \
                 kernel/report/write_cpu.c kernel/report/write_options.c $(VERSION_SRC) \
                 kernel/stats/stats_binomial.c kernel/stats/stats_isqrt.c kernel/stats/stats_wide.c \
                 kernel/bare/multiboot2.c kernel/bare/boot_info.c kernel/bare/firmware/smbios.c \
                 $(ACPI_PARSER_SRCS) tests/unit/support/capture.c tests/unit/support/host32.c
FUZZ_SECONDS  ?= 30
# One second: with -seed=1 the check's mutations are the same every run (a fixed set
# of extra inputs beside the corpus, which is the regression part); finding new bugs is
# make fuzz's work. Each second more cost CI 6 CPU-s (six targets).
FUZZ_CHECK_SECONDS ?= 1
HYPOTHESIS_EXAMPLES ?= 500
FUZZ_RUN       = $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS))
.PHONY: fuzz fuzz-build fuzz-check
$(BUILD)/fuzz/%.c.o: %.c | $(DEPS_ALL_OK)
	@mkdir -p $(@D)
	@echo "  FUZZCC  $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@
$(FUZZ_LIB): $(patsubst %,$(BUILD)/fuzz/%.o,$(FUZZ_LIB_SRCS))
	@rm -f $@ && ar rcs $@ $^
$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/tests/fuzz/fuzz_%.c.o $(FUZZ_LIB)
	@echo "  FUZZLD  $@"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< -Wl,--whole-archive $(FUZZ_LIB) -Wl,--no-whole-archive
fuzz-build: $(FUZZ_BINS)
fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do echo "== fuzz_$$t"; mkdir -p $(BUILD)/fuzz/corpus/$$t; \
	  $(BUILD)/fuzz/fuzz_$$t $(FUZZ_RUN) -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/$$t- \
	    $(BUILD)/fuzz/corpus/$$t tests/fuzz/corpus/$$t || exit 1; done
	CK_HYPOTHESIS=fuzz CK_HYPOTHESIS_EXAMPLES=$(HYPOTHESIS_EXAMPLES) $(PYTEST) -q tests/fuzz
# One target per fuzzer, so `make -j` (CI) runs them side by side: each is
# its corpus replayed, then FUZZ_CHECK_SECONDS of libFuzzer.
FUZZ_CHECKS := $(patsubst %,fuzz-check-%,$(FUZZ_TARGETS))
.PHONY: fuzz-check $(FUZZ_CHECKS)
fuzz-check: $(FUZZ_CHECKS)
	$(PYTEST) -q tests/fuzz
$(FUZZ_CHECKS): fuzz-check-%: $(BUILD)/fuzz/fuzz_%
	@rm -rf $(BUILD)/fuzz/check/$*; mkdir -p $(BUILD)/fuzz/check/$*; \
	  $(BUILD)/fuzz/fuzz_$* -timeout=10 tests/fuzz/corpus/$*/* 2>$(BUILD)/fuzz/check/$*.log && \
	  $(BUILD)/fuzz/fuzz_$* -timeout=10 -seed=1 -max_total_time=$(FUZZ_CHECK_SECONDS) -artifact_prefix=$(BUILD)/fuzz/check/$*- \
	    $(BUILD)/fuzz/check/$* tests/fuzz/corpus/$* 2>>$(BUILD)/fuzz/check/$*.log && echo "== fuzz_$*: $$(tail -1 $(BUILD)/fuzz/check/$*.log)" \
	  || { cat $(BUILD)/fuzz/check/$*.log; exit 1; }

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
