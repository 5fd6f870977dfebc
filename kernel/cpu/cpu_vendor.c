/* Vendor strings of CPUID leaf 0 and hypervisor strings of leaf 0x40000000.
 * Sources: Intel AP-485 and SDM Vol. 2A (GenuineIntel); AMD APM Vol. 3
 * (AuthenticAMD, and "AMDisbetter!" of early K5 samples); the vendor strings
 * of the other x86 makers as listed in the CPUID article of Wikipedia and seen
 * in the InstLatx64 dump collection (CyrixInstead, CentaurHauls, "  Shanghai  ",
 * HygonGenuine ...); hypervisor strings as documented by each hypervisor
 * (KVM: Documentation/virt/kvm/x86/cpuid.rst; Hyper-V TLFS; VMware KB 1009458;
 * Xen: xen/include/public/arch-x86/cpuid.h; QEMU TCG: target/i386/cpu.c). */
#include "cpu.h"
#include "lib/kstring.h"

struct vendor_string {
    const char *id; /* exactly 12 characters */
    enum cpu_vendor vendor;
};

static const struct vendor_string vendors[] = {
    { "GenuineIntel", VENDOR_INTEL },
    { "GenuineIotel", VENDOR_INTEL }, /* a few Intel parts with a flipped bit */
    { "AuthenticAMD", VENDOR_AMD },
    { "AMDisbetter!", VENDOR_AMD },   /* early K5 engineering samples */
    { "AMD ISBETTER", VENDOR_AMD },
    { "CyrixInstead", VENDOR_CYRIX },
    { "CentaurHauls", VENDOR_CENTAUR },
    { "VIA VIA VIA ", VENDOR_CENTAUR },
    { "NexGenDriven", VENDOR_NEXGEN },
    { "GenuineTMx86", VENDOR_TRANSMETA },
    { "TransmetaCPU", VENDOR_TRANSMETA },
    { "UMC UMC UMC ", VENDOR_UMC },
    { "RiseRiseRise", VENDOR_RISE },
    { "SiS SiS SiS ", VENDOR_SIS },
    { "HygonGenuine", VENDOR_HYGON },
    { "  Shanghai  ", VENDOR_ZHAOXIN },
    { "Geode by NSC", VENDOR_NSC },
    { "Vortex86 SoC", VENDOR_VORTEX },
    /* CPUs that are themselves emulated (binary translators). */
    { "VirtualApple", VENDOR_VIRTUAL }, /* Rosetta 2 */
    { "PowerVM Lx86", VENDOR_VIRTUAL },
};

static const char *const vendor_names[] = {
    [VENDOR_UNKNOWN] = "unknown", [VENDOR_INTEL] = "Intel",     [VENDOR_AMD] = "AMD",
    [VENDOR_CYRIX] = "Cyrix",     [VENDOR_CENTAUR] = "Centaur/VIA",
    [VENDOR_NEXGEN] = "NexGen",   [VENDOR_TRANSMETA] = "Transmeta",
    [VENDOR_UMC] = "UMC",         [VENDOR_RISE] = "Rise",       [VENDOR_SIS] = "SiS",
    [VENDOR_HYGON] = "Hygon",     [VENDOR_ZHAOXIN] = "Zhaoxin", [VENDOR_NSC] = "NSC",
    [VENDOR_VORTEX] = "DM&P Vortex86", [VENDOR_VIRTUAL] = "virtual CPU",
};

struct hv_string {
    const char *id;
    const char *name;
};

static const struct hv_string hypervisors[] = {
    { "KVMKVMKVM", "KVM" },
    { "TCGTCGTCGTCG", "QEMU TCG" },
    { "Microsoft Hv", "Hyper-V" },
    { "VMwareVMware", "VMware" },
    { "XenVMMXenVMM", "Xen" },
    { "VBoxVBoxVBox", "VirtualBox" },
    { " lrpepyh  vr", "Parallels" },
    { "bhyve bhyve ", "bhyve" },
    { "ACRNACRNACRN", "ACRN" },
    { "QNXQVMBSQG", "QNX hypervisor" },
    { "Jailhouse", "Jailhouse" },
    { "EVMMEVMMEVMM", "Intel KGT" },
    { "UnisysSpar64", "Unisys s-Par" },
    { "SRESRESRESRE", "Lockheed Martin LMHS" },
};

enum cpu_vendor cpu_vendor_from_string(const char *vendor12)
{
    for (unsigned i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
        if (kstrlen(vendors[i].id) == 12 && kmemcmp(vendors[i].id, vendor12, 12) == 0)
            return vendors[i].vendor;
    return VENDOR_UNKNOWN;
}

const char *cpu_vendor_name(enum cpu_vendor v)
{
    if ((unsigned)v < sizeof vendor_names / sizeof vendor_names[0] && vendor_names[v])
        return vendor_names[v];
    return "unknown";
}

const char *cpu_hypervisor_name(const char *hv_vendor)
{
    if (!hv_vendor || !hv_vendor[0])
        return NULL;
    for (unsigned i = 0; i < sizeof hypervisors / sizeof hypervisors[0]; i++)
        if (kstrcmp(hypervisors[i].id, hv_vendor) == 0)
            return hypervisors[i].name;
    return NULL;
}

bool cpu_is_qemu_tcg(const struct cpu_info *c)
{
    return kstrcmp(c->hv_vendor, "TCGTCGTCGTCG") == 0;
}

const char *cpu_generation_name(enum cpu_generation g)
{
    switch (g) {
    case CPU_GEN_386: return "386";
    case CPU_GEN_486_NO_CPUID: return "486-no-cpuid";
    case CPU_GEN_CPUID: return "cpuid";
    }
    return "unknown";
}
