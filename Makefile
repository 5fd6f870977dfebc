# cyclekit: a bare-metal x86 benchmark kernel.
#   make          the hybrid BIOS/UEFI ISO (build/cyclekit.iso)
#   make run      boot it under QEMU (TCG), serial log on stdout, exit with the kernel's status
#   make run-kvm  the same under KVM;  make run-uefi  through OVMF
#   make check    host unit tests, the Pentium instruction check, boot tests
#   make hosted   the same harness and benchmarks as a Linux user-space program
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
           -fno-strict-aliasing -fno-common $(WARN) -Ikernel -Ibench -MMD -MP
KASFLAGS := -m32 -march=i586 -Ikernel -MMD -MP
HCFLAGS := -std=gnu11 -O1 -g $(WARN) -Wno-missing-prototypes -Ikernel -Ibench -Itests/unit/support -DCK_HOST_TEST -MMD -MP

PORTABLE_SRCS := $(sort $(wildcard kernel/*.c kernel/pmu/*.c))
BARE_SRCS     := $(sort $(wildcard boot/*.S kernel/bare/*.S kernel/bare/*.c))
BENCH_SRCS    := $(sort $(wildcard bench/*.c bench/*.S))
KERNEL_SRCS   := $(BARE_SRCS) $(PORTABLE_SRCS) $(BENCH_SRCS)
KERNEL_OBJS   := $(patsubst %,$(BUILD)/k/%.o,$(KERNEL_SRCS))

UNIT_TESTS    := $(patsubst tests/unit/%.c,$(BUILD)/host/%,$(sort $(wildcard tests/unit/test_*.c)))
UNIT_SUPPORT  := $(patsubst %,$(BUILD)/host/%.o,$(sort $(wildcard tests/unit/support/*.c)))
HOST_LIB      := $(BUILD)/host/libck.a
HOST_LIB_OBJS := $(patsubst %,$(BUILD)/host/%.o,$(PORTABLE_SRCS))

DEPS_OK := $(BUILD)/.deps-ok
PYTHON  ?= /usr/bin/python3
RUN     := $(PYTHON) scripts/run-qemu
PYTEST  := $(PYTHON) -m pytest

.PHONY: all iso kernel run run-kvm run-uefi check unit-tests boot-tests isa-check hosted clean deps

all: iso
iso: $(ISO)
kernel: $(KERNEL)

$(DEPS_OK): scripts/deps
	@sh scripts/deps
	@mkdir -p $(@D) && touch $@
deps:
	@sh scripts/deps

$(BUILD)/k/%.c.o: %.c Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(KCC) $(KCFLAGS) -c $< -o $@
# Benchmarks run and print in the order their file declares them.
$(BUILD)/k/bench/%.c.o: KCFLAGS += -fno-toplevel-reorder
$(BUILD)/k/%.S.o: %.S Makefile | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  AS      $<"
	@$(KCC) $(KASFLAGS) -c $< -o $@

$(KERNEL): $(KERNEL_OBJS) linker.ld
	@echo "  LD      $@"
	@$(KLD) -nostdlib -z noexecstack -T linker.ld -o $@ $(KERNEL_OBJS)
	@grub-file --is-x86-multiboot2 $@ || { echo "$@ is not multiboot2" >&2; rm -f $@; exit 1; }

$(ISO): $(KERNEL) iso/grub.cfg
	@rm -rf $(BUILD)/isoroot && mkdir -p $(BUILD)/isoroot/boot/grub
	cp $(KERNEL) $(BUILD)/isoroot/boot/cyclekit.elf
	cp iso/grub.cfg $(BUILD)/isoroot/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/isoroot 2>$(BUILD)/grub-mkrescue.log || { cat $(BUILD)/grub-mkrescue.log >&2; exit 1; }

run: $(ISO)
	$(RUN) --iso $(ISO) $(RUNFLAGS)
run-kvm: $(ISO)
	$(RUN) --iso $(ISO) --accel kvm $(RUNFLAGS)
run-uefi: $(ISO)
	$(RUN) --iso $(ISO) --uefi $(RUNFLAGS)

# Host unit tests: portable kernel sources, built natively, against cmocka.
$(BUILD)/host/%.c.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	@echo "  HOSTCC  $<"
	@$(HOSTCC) $(HCFLAGS) -c $< -o $@
$(HOST_LIB): $(HOST_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/host/test_%: $(BUILD)/host/tests/unit/test_%.c.o $(UNIT_SUPPORT) $(HOST_LIB)
	$(HOSTCC) -o $@ $< $(UNIT_SUPPORT) $(HOST_LIB) -lcmocka

unit-tests: $(UNIT_TESTS)
	@fail=0; for t in $(UNIT_TESTS); do echo "== $$t"; $$t || fail=1; done; exit $$fail

isa-check: $(KERNEL)
	$(PYTHON) scripts/check-isa $(KERNEL)

boot-tests: $(ISO)
	$(PYTEST) -q tests/boot

check: unit-tests isa-check boot-tests

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
