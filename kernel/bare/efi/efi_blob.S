/* The 64-bit blob (kernel/bare/efi/fw64/, position-independent, no
 * relocations: see its blob.ld), placed whole in a section of its own
 * (linker.ld): its code and read-only data together, built by gcc -m64 for
 * x86-64 firmware, so not held to scripts/check-isa's per-instruction
 * checks of the hand-written sections. efi_blob is its entry, efi64_dispatch. */
    .section .efi64, "ax"
    .balign 16
    .globl efi_blob
efi_blob:
    .incbin EFI_BLOB_BIN
