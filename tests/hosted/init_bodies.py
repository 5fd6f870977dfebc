"""Bodies that fault unless the registers their --init left reached them
(the register contract, docs/registers.md), shared by the hosted test
(tests/hosted/test_hosted_init.py) and the boot test
(tests/boot/test_init_contract.py).

One init per mode, run before the copies of each body; each body names the
fault it raises when it starts from the harness's registers instead:

  pointer  the init leaves a pointer into the scratch data that points at
           itself; from EAX/RAX = 1 the load reads address 1 (#PF where
           page 0 is not mapped: Linux; bare metal maps it and measures)
  divide   the init leaves the divisor; from EDX/R9 = 0 the DIV is #DE
  exact    the init's values themselves, compared; any other value is #UD
  scratch  the scratch data's promise (docs/registers.md): ESI/RSI 4096-byte
           aligned (and below 4 GiB), EDI/RDI = ESI + 32 KiB, else #UD (with or
           without init)
  placed   the first copy of every run (the probe's, 0, U, 2U) starts at the
           declared alignment, 64 bytes + alignment_offset (placed_body), else
           #UD; the init's flag (R15 / ECX = 1) says "first copy not checked yet"
"""


def placed_body(mode, offset):
    """A body that checks where the run's first copy starts: its own address (RIP-relative
    LEA, 7 bytes; CALL/POP, the return address 5 bytes in) modulo 64 must be offset."""
    if mode == 64:
        return (f"lea rax, [rip]; test r15, r15; jz 2f; and eax, 63; cmp eax, {(offset + 7) % 64}; "
                "jne 3f; xor r15d, r15d; jmp 2f; 3: ud2; 2:")
    return (f"call 1f; 1: pop eax; test ecx, ecx; jz 2f; and eax, 63; cmp eax, {(offset + 5) % 64}; "
            "jne 3f; xor ecx, ecx; jmp 2f; 3: ud2; 2:")


INIT = {
    32: "lea eax, [esi+64]; mov [esi+64], eax; mov edx, 3; mov ebx, 7; mov ecx, 1",
    64: "lea rax, [rsi+64]; mov [rsi+64], rax; mov r8, 7; mov r9, 3; mov r15, 1",
}

# name: (body, the fault without the init's registers on the hosted runners (None: it
# measures), the same on bare metal where page 0 is mapped (None: it may or may not fault))
BODIES = {
    32: {
        "pointer": ("mov eax, [eax]", "#PF", None),
        "divide": ("mov ecx, edx; mov eax, 100; xor edx, edx; div ecx; mov edx, ecx", "#DE", "#DE"),
        "exact": ("cmp ebx, 7; jne 1f; cmp edx, 3; je 2f; 1: ud2; 2:", "#UD", "#UD"),
        "scratch": ("test esi, 0xfff; jne 1f; lea ecx, [esi+32768]; cmp edi, ecx; je 2f; 1: ud2; 2:",
                    None, None),
        "placed": (placed_body(32, 0), None, None),
    },
    64: {
        "pointer": ("mov rax, [rax]", "#PF", None),
        "divide": ("mov rax, r8; xor edx, edx; div r9; add r8, rdx", "#DE", "#DE"),
        "exact": ("cmp r8, 7; jne 1f; cmp r9, 3; je 2f; 1: ud2; 2:", "#UD", "#UD"),
        "scratch": ("test esi, 0xfff; jne 1f; mov rcx, rsi; shr rcx, 32; jnz 1f; lea rcx, [rsi+32768]; "
                    "cmp rdi, rcx; je 2f; 1: ud2; 2:", None, None),
        "placed": (placed_body(64, 0), None, None),
    },
}


# A body that faults wherever it runs, for the fault's report in the body's mode
# (docs/log-format.md, fault): (body, the faulting instruction's offset in one copy).
# In 64-bit code R11 holds RSI's value when it faults, which the dump must show whole.
FAULTING = {32: ("mov ecx, esi; nop; ud2", 3), 64: ("mov r11, rsi; nop; ud2", 4)}


def snippet_args(mode, name, init=True, faulting=False):
    """`cyclekit snippet` arguments that measure every body of the mode in one run, named
    NAME/1, NAME/2 ... in BODIES' order; with faulting, FAULTING's body last."""
    args = ["--mode", str(mode), "--name", name, "--samples", "5", "--loops", "20", "--json"]
    if init:
        args += ["--init", INIT[mode]]
    for body, _, _ in BODIES[mode].values():
        args += ["--asm", body]
    if faulting:
        args += ["--asm", FAULTING[mode][0]]
    return args


def faulting_name(mode, name):
    return f"{name}/{len(BODIES[mode]) + 1}"


def check_fault_dump(mode, rec, text):
    """The fault record and its readable lines (text) speak the body's mode and place the
    faulting instruction in the body. Returns nothing; asserts."""
    _, offset = FAULTING[mode]
    assert rec["type"] == "fault" and rec["name"] == "#UD" and rec["mode"] == mode, rec
    # The probe run (one copy, before any timing) meets the fault first.
    assert (rec["body_offset"], rec["body_copy"], rec["body_copies"]) == (offset, 1, 1), rec
    place = f"copy 1 of 1 run, +0x{offset:x} into the body"
    lines = [line for line in text.splitlines() if line.startswith("FAULT #UD")]
    assert len(lines) == 1 and place in lines[0], lines
    dump = text[text.index(lines[0]):].splitlines()[1:6]
    if mode == 64:
        regs = rec["registers"]
        assert set(regs) == {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp"} | \
            {f"r{n}" for n in range(8, 16)}, regs
        assert regs["r11"] == regs["rsi"] and int(rec["rip"], 16) > 0, rec
        assert " at RIP 0x" in lines[0] and "EIP" not in lines[0]
        body = "\n".join(dump)
        for name in ("RAX=", "RSI=", "RBP=", "RSP=", "R8 =", "R11=", "R15=", "CR2=0x", "RFLAGS="):
            assert name in body, (name, body)
        assert f"R11={int(regs['rsi'], 16):016x}" in body, body
    else:
        assert "registers" not in rec and "rip" not in rec, rec
        assert " at EIP 0x" in lines[0] and "EAX=" in "\n".join(dump)


def named(mode, name):
    """{NAME/k: (case, body, hosted fault, bare fault)}."""
    return {f"{name}/{k}": (case, *spec) for k, (case, spec) in enumerate(BODIES[mode].items(), 1)}
