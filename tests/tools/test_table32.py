"""cyclekit table --mode 32 (issue 30): LLVM's i386 forms, 32-bit bodies, the pairing
column on a known record set, the pack for a boot medium and the rows from its log
(cyclekit/table/i386.py). No QEMU here: tests/boot/test_table32_icount.py boots."""
import json
import os
import subprocess

import pytest

from cyclekit import benchfile, llvm
from cyclekit.table import build, forms, i386, measure
from cyclekit.table.forms import Insn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONT = os.path.join(ROOT, "scripts", "cyclekit")
needs_llvm = pytest.mark.skipif(not llvm.available(), reason="LLVM 16 (llvm-exegesis) is not installed")


def tools():
    return {"exegesis": llvm.find("exegesis"), "mc": llvm.find("mc"), "mca": llvm.find("mca")}


def test_32bit_disassembly_and_cut():
    # LLVM's i386 ADD32rr throughput snippet: push ebp..esi, the init, the copies, pops, ret.
    blob = bytes.fromhex("55535756BA00000000BE0000000001F201F201F25E5F5B5DC3")
    insns = i386.disassemble([blob])[0]
    split = forms.cut(insns, 1, i386.CALLEE_SAVED)
    assert split.problem is None
    # The x86-64 callee-saved set knows no 32-bit register: the pushes stay in the init.
    assert forms.cut(insns, 1).init[0].text == "push ebp"
    assert [i.text for i in split.init] == ["mov edx,0x0", "mov esi,0x0"]
    assert [i.text for i in split.group] == ["add edx,esi"]
    # 0x40 is INC EAX in 32-bit mode (a REX prefix in 64-bit mode): -m i386 decodes it so.
    assert i386.disassemble([b"\x40\xc3"])[0][0].text == "inc eax"


def test_classify32_reasons():
    r = lambda t: i386.reason32(Insn(b"", t))
    assert r("add eax,ebx") is None
    assert r("add ebp,eax") == i386.HARNESS32
    assert r("push eax") == i386.HARNESS32
    assert r("mov eax,DWORD PTR [edi+0x40]") is None            # the scratch (EDI = ESI + 32 KiB)
    assert r("mov eax,DWORD PTR [eax]") == i386.MEMORY32
    assert r("rep stos DWORD PTR es:[edi],eax") == i386.MEMORY32
    assert r("cli") is not None and r("jmp 0x10") is not None


def test_ebp_chain_is_renamed_and_divisor_set():
    split = forms.Split(init=[Insn(b"\xbd\0\0\0\0", "mov ebp,0x0")], group=[Insn(b"\x01\xed", "add ebp,ebp")])
    body, renamed = i386.build_bodies(split, "latency")
    assert body is None and renamed[1] == ["add esi,esi"]
    init = i386.divisor_init([Insn(b"\xf7\xf3", "div ebx")])
    assert [i.text for i in init] == ["mov edx,0x0", "mov ebx,0x1"]
    assert init[1].code == bytes.fromhex("bb01000000")


def test_body32_encodes_a_mode_32_file():
    body = i386.Body32([Insn(b"\x31\xc0", "xor eax,eax")], [Insn(b"\x01\xd8", "add eax,ebx")])
    data = body.encode("t/ADD32rr/lat", "ADD32rr")
    got = benchfile.decode(data)
    assert got["mode"] == 32 and got["body"] == b"\x01\xd8" and got["init"] == b"\x31\xc0"


def test_partner_names_registers_the_form_leaves_alone():
    p = i386.partner("add eax,ebx")
    assert p.text == "mov ecx,edx" and p.code == b"\x89\xd1"
    assert i386.disassemble([p.code])[0][0].text == "mov ecx,edx"
    assert i386.partner("pushad") is not None


def test_pairing_verdicts_on_known_values():
    # P5 cycles per copy (CLD 2 clocks, NP): ADD pairs either way, ADC only in U, an NP form never.
    assert i386.pairing_verdict(3, 3, 3)[0] == "UV"
    assert i386.pairing_verdict(3, 3, 4)[0] == "PU"
    assert i386.pairing_verdict(3, 4, 3)[0] == "PV"
    assert i386.pairing_verdict(11, 12, 12)[0] == "NP"
    assert i386.pairing_verdict(None, 1, 1)[0] is None
    assert "untrusted" in i386.pairing_verdict(2, 3, 3, trusted=False)[1]


def _result(name, cycles, marks="ok"):
    return {"type": "result", "name": name, "cycles": cycles, "ticks": cycles, "marks": marks,
            "stable": True, "stats": {"median": cycles, "mode": cycles, "mean_20_80": cycles}}


def _form_with_pairs(text, code, opcode):
    form = build.Form(opcode)
    insn = Insn(code, text)
    insn.att = None
    form.tput = i386.Body32([], [insn])
    i386.add_pairing([form])
    return form


def test_pairing_fields_from_a_fake_p5_record_set():
    form = _form_with_pairs("adc eax,ebx", b"\x11\xd8", "ADC32rr")
    assert set(form.extra) == set(i386.PAIR_KINDS)
    assert [i.text for i in form.extra["pair:V"][0].insns] == ["cld", "mov ecx,edx", "adc eax,ebx"]
    records = {("ADC32rr", "pair:ref"): _result("x", 3.0), ("ADC32rr", "pair:U"): _result("x", 3.0),
               ("ADC32rr", "pair:V"): _result("x", 4.0)}
    got = i386.pairing_fields(form, records)
    assert got["pairing"] == "PU" and "+1" in got["pairing_detail"]
    # Under QEMU (marks U): the class is shown with a '?', never as a measurement.
    records = {k: _result("x", v["cycles"], "U") for k, v in records.items()}
    assert i386.pairing_fields(form, records)["pairing"] == "PU?"


def test_model_class_from_p5model():
    from cyclekit.table import p5
    p5model = p5.load_p5model()
    assert i386.model_class(p5model, "addl %ebx, %eax", "p54c") == "UV"
    assert i386.model_class(p5model, "adcl %ebx, %eax", "p54c") == "PU"
    assert i386.model_class(p5model, "imull %ebx, %eax", "p54c") == "NP"


def test_names_pack_and_log_round_trip(tmp_path):
    key = ("ADD32rr", "pair:U")
    name = i386.bench_name(key)
    assert name == "t/ADD32rr/pair.U" and i386.key_of(name) == key
    assert i386.key_of(i386.bench_name((i386.checks_floor(), "nop"))) == (i386.checks_floor(), "nop")
    body = i386.Body32([], [Insn(b"\x01\xd8", "add eax,ebx")])
    files = [body.encode(i386.bench_name(("ADD32rr", k)), "ADD32rr") for k in ("lat", "tput")]
    data = i386.pack(files)
    assert data[:4] == b"CKTP" and i386.unpack(data) == files
    log = ['garbage', json.dumps({"type": "result", "name": "t/ADD32rr/lat", "cycles": 1.0}),
           json.dumps({"type": "fault", "where": "benchmark t/DIV32r/tput", "name": "#DE"}),
           json.dumps({"type": "result", "name": "lat/add", "cycles": 1.0})]
    got = i386.records_from_log(log)
    assert set(got) == {("ADD32rr", "lat"), ("DIV32r", "tput")}


def test_qemu_command_has_the_i386_choice():
    cmd = measure.qemu_command("python3", "run-qemu", "x.iso", "i386", "pentium", icount=True)
    assert cmd[cmd.index("--qemu") + 1] == "i386" and cmd[cmd.index("--cpu") + 1] == "pentium"
    assert "--icount" in cmd
    with pytest.raises(ValueError):
        measure.qemu_command("python3", "run-qemu", "x.iso", "arm")


@needs_llvm
def test_forms_come_from_llvms_i386_description():
    t = tools()
    table = i386.gather(t, "pentium", lambda s: None, opcodes=["ADD32rr", "INC32r", "IMUL32rr", "DIV32r"])
    inc = table["INC32r"].tput
    # The i386 encoding of INC r32 (40+r), which exists in no 64-bit form.
    assert not inc.problem and all(len(i.code) == 1 and 0x40 <= i.code[0] <= 0x47 for i in inc.insns)
    assert all(i.att and i.att.startswith("incl") for i in inc.insns)
    for form in table.values():
        for b in (form.lat, form.tput):
            if b is not None and not b.problem:
                assert isinstance(b, i386.Body32)
                assert not any(i386.REG32_RE.search(i.text.split(None, 1)[-1]) for i in b.insns)
    # The divisor is set to 1 unless LLVM chose EDX itself (its registers vary by run).
    div = table["DIV32r"]
    divisors = {i.text.split()[1] for i in div.tput.insns}
    assert divisors == {"edx"} or any(i.text.endswith(",0x1") for i in div.tput.init), \
        [i.text for i in div.tput.init + div.tput.insns]


@needs_llvm
def test_from_log_writes_the_table(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    log = tmp_path / "run.log"
    recs = [_result("t/ADD32rr/lat", 1.0), _result("t/ADD32rr/tput", 2.0), _result("t/floor/nop", 16.0),
            _result("t/floor/add", 1.0)]
    log.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    p = subprocess.run([FRONT, "table", "--mode", "32", "--cpu", "pentium", "--opcodes", "ADD32rr",
                        "--from-log", str(log), "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    rows = [json.loads(x) for x in (out / "table.jsonl").read_text().splitlines()]
    assert rows[0]["type"] == "table_run" and rows[0]["mode"] == 32
    add = next(r for r in rows if r.get("opcode") == "ADD32rr")
    assert add["latency"] == 1.0 and add["latency_model"] == 1.0 and "pairing" in add
    assert (out / "table.csv").read_text().splitlines()[0].endswith(
        "pairing,pairing_model,pairing_detail,chain_insns_counted,set_insns_counted,counted,"
        "vpipe_per_copy,pairing_counted")
    # The log holds no pmu record: no counts, and the reason once in the run record.
    assert add["counted"] == "no counters" and rows[0]["counters"].startswith("no counters: ")
    assert (out / "index.html").exists()


def test_mode_32_arguments_are_checked():
    p = subprocess.run([FRONT, "table", "--mode", "64", "--from-log", "x.log", "-o", "/tmp"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "--from-log goes with --mode 32" in p.stderr
