#include "fault.h"

const char *fault_name(unsigned vector)
{
    static const char *const names[32] = {
        "#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#CSO", "#TS",
        "#NP", "#SS", "#GP", "#PF", "#??", "#MF", "#AC", "#MC", "#XM", "#VE", "#CP",
    };
    switch (vector) {
    case VEC_BODY_ESP: return "ESP corrupted";
    case VEC_BODY_EBP: return "EBP corrupted";
    case VEC_BODY_STACK: return "stack overflow";
    case VEC_WATCHDOG: return "watchdog";
    }
    return vector < 32 && names[vector] ? names[vector] : "#??";
}
