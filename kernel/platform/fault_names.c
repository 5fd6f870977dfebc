#include "fault.h"

const char *fault_name(unsigned vector)
{
    static const char *const names[32] = {
        "#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#CSO", "#TS",
        "#NP", "#SS", "#GP", "#PF", "#??", "#MF", "#AC", "#MC", "#XM", "#VE", "#CP",
    };
    return vector < 32 && names[vector] ? names[vector] : "#??";
}
