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
           aligned, EDI/RDI = ESI + 32 KiB, else #UD (with or without init)
"""

INIT = {
    32: "lea eax, [esi+64]; mov [esi+64], eax; mov edx, 3; mov ebx, 7",
    64: "lea rax, [rsi+64]; mov [rsi+64], rax; mov r8, 7; mov r9, 3",
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
    },
    64: {
        "pointer": ("mov rax, [rax]", "#PF", None),
        "divide": ("mov rax, r8; xor edx, edx; div r9; add r8, rdx", "#DE", "#DE"),
        "exact": ("cmp r8, 7; jne 1f; cmp r9, 3; je 2f; 1: ud2; 2:", "#UD", "#UD"),
        "scratch": ("test esi, 0xfff; jne 1f; lea rcx, [rsi+32768]; cmp rdi, rcx; je 2f; 1: ud2; 2:",
                    None, None),
    },
}


def snippet_args(mode, name, init=True):
    """`cyclekit snippet` arguments that measure every body of the mode in one run, named
    NAME/1, NAME/2 ... in BODIES' order."""
    args = ["--mode", str(mode), "--name", name, "--samples", "5", "--loops", "20", "--json"]
    if init:
        args += ["--init", INIT[mode]]
    for body, _, _ in BODIES[mode].values():
        args += ["--asm", body]
    return args


def named(mode, name):
    """{NAME/k: (case, body, hosted fault, bare fault)}."""
    return {f"{name}/{k}": (case, *spec) for k, (case, spec) in enumerate(BODIES[mode].items(), 1)}
