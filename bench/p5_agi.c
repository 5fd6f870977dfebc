/* p5/agi/: address generation interlock on the Pentium. A register written
 * in cycle N cannot be used to form an address in cycle N or N+1 [AB21][A9];
 * the stall costs a clock. LEA forms an address too [A9]; PUSH/POP/CALL/RET
 * update ESP specially, an explicit write to ESP followed by a stack access
 * stalls [A9][AB21].
 *
 * Sources (tags of docs/references.md): [A9] Agner Fog, Pentium
 * optimization ch. 9; [AB21] Abrash, Black Book ch. 21; [A10] ch. 10.1 (pairing);
 * [IL] InstLatX86 GenuineIntel0000526_P54C_InstLatX86.txt.
 *
 * The stall/no-stall bodies hold the same four instructions in a different
 * order, with a filler pair (two simple instructions that pair) so that the
 * unrolled copies cannot hide or add a stall across the copy boundary.
 * kernel/uarch/p5.c gives each body's expectation and the steady-state schedule of the unrolled stream, "c0 A (U)
 * + B (V) | c1 ...", [n+1] = the next copy (scripts/p5model.py prints it,
 * tests/model checks it): inference from the rules above.
 * All bodies are i386 code; ESI only toggles between scratch+0 and +4. */
#include "bench.h"

#define AGI_EVENTS "PIPELINE_AGI_STALLS INSTRUCTIONS_EXECUTED_V_PIPE"

/* [A9] "ADD EBX,4 / MOV EAX,[EBX] -> AGI stall". */
BENCH("p5/agi/load_stall", "xor esi,4 / mov eax,[esi] / add edx,ebx / test ecx,ecx: address register just written",
      "xorl $4, %esi \n movl (%esi), %eax \n addl %ebx, %edx \n testl %ecx, %ecx",
      .insns = 4, .events = AGI_EVENTS);

/* [A9] the fix: load first. */
BENCH("p5/agi/load_nostall", "mov eax,[esi] / xor esi,4 / add edx,ebx / test ecx,ecx: load scheduled first, no AGI",
      "movl (%esi), %eax \n xorl $4, %esi \n addl %ebx, %edx \n testl %ecx, %ecx",
      .insns = 4, .events = AGI_EVENTS);

/* [A9] "INC ESI / LEA EAX,[EBX+4*ESI] -> stall (LEA is subject to AGI)". */
BENCH("p5/agi/lea_stall", "inc ebx / lea ecx,[eax+4*ebx] / add edx,eax / test eax,eax: LEA right after its index is written",
      "incl %ebx \n leal (%eax,%ebx,4), %ecx \n addl %eax, %edx \n testl %eax, %eax",
      .insns = 4, .events = AGI_EVENTS);

/* Same instructions, LEA first. */
BENCH("p5/agi/lea_nostall", "lea ecx,[eax+4*ebx] / inc ebx / add edx,eax / test eax,eax: LEA first, no AGI",
      "leal (%eax,%ebx,4), %ecx \n incl %ebx \n addl %eax, %edx \n testl %eax, %eax",
      .insns = 4, .events = AGI_EVENTS);

/* [A9] "ADD ESP,4 / POP ESI -> stall": an explicit ESP write, then a stack
 * access. Balanced (ESP -4, then POP +4). */
BENCH("p5/agi/esp_explicit", "sub esp,4 / pop eax: explicit ESP write then POP, AGI stall",
      "subl $4, %esp \n popl %eax",
      .insns = 2, .events = AGI_EVENTS);

/* The same explicit write before PUSH/POP. */
BENCH("p5/agi/esp_explicit_push", "add esp,0 / push eax / pop eax: explicit ESP write then PUSH, AGI stall",
      "addl $0, %esp \n pushl %eax \n popl %eax",
      .insns = 3, .events = AGI_EVENTS);

/* [A9] implicit ESP users are special-cased: no AGI between PUSH and POP
 * ("POP EAX / POP ESI -> no stall, pair"); [IL] "PUSH r32 + POP r32" = 2.0. */
BENCH("p5/agi/esp_implicit", "push eax / pop ecx: implicit ESP updates, no AGI",
      "pushl %eax \n popl %ecx",
      .insns = 2, .events = AGI_EVENTS);
