"""`cyclekit db` on SQLite and on a real PostgreSQL server: twenty logs
imported, each once; a truncated log refused with the reason; the queries
(machines, show, compare, export) against the numbers in the logs."""
import contextlib
import csv
import fnmatch
import io
import os
import subprocess

import pytest

from cyclekit import cli

import logsynth
import pgserver



@pytest.fixture(scope="module")
def postgres():
    """A PostgreSQL server of our own (pgserver.py), as the server's own
    account when the tests run as root."""
    pytest.importorskip("psycopg2", reason="python3-psycopg2 is not installed (scripts/deps installs it)")
    with contextlib.ExitStack() as stack:
        try:
            url_and_dir = stack.enter_context(pgserver.running())
        except pgserver.Unavailable as e:
            pytest.skip(f"no PostgreSQL server can be started here: {e}")
        yield url_and_dir


def fresh_db(request, tmp_path_factory, kind, name):
    """A fresh, empty database of that kind, as the --db argument."""
    if kind == "sqlite":
        return str(tmp_path_factory.mktemp("sqlite") / f"{name}.db")
    url, top = request.getfixturevalue("postgres")
    from sqlalchemy import create_engine, text
    admin = create_engine(url.replace("postgresql://", "postgresql+psycopg2://"), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        c.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return f"postgresql://ck@/{name}?host={top}"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(request, tmp_path_factory):
    """A fresh, empty database of each kind (as the --db argument), shared by
    the tests of this file: the twenty logs are imported once into each."""
    return fresh_db(request, tmp_path_factory, request.param, "cyclekit_test")


@pytest.fixture(scope="module")
def twenty(tmp_path_factory):
    """Twenty distinct complete logs: five runs of each committed log."""
    d = tmp_path_factory.mktemp("twenty")
    return [logsynth.variant(name, k, str(d / f"{name}-{k}.log")) for name in logsynth.NAMES for k in range(5)]


@pytest.fixture(scope="module")
def loaded(db, twenty):
    """db with the twenty logs imported: (db, the import's output)."""
    return db, ck(db, "import", *twenty)


def ck(db, *args):
    """`cyclekit db --db DB ARGS...`, in this process (quicker than a new
    interpreter loading SQLAlchemy each time): returncode, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["db", "--db", db] + list(args))
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def stored(db):
    p = ck(db, "export", "--csv")
    assert p.returncode == 0, p.stderr
    return list(csv.DictReader(io.StringIO(p.stdout)))


def test_twenty_logs_stored_once_each(loaded, twenty):
    db, first = loaded
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[-1] == "20 stored, 0 already there, 0 refused"
    again = ck(db, "import", *twenty[:3], twenty[0])
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[-1] == "0 stored, 4 already there, 0 refused"
    assert again.stdout.splitlines()[0] == f"{twenty[0]}: already stored as run 1 (checksum " \
        f"{logsynth.logfile.parse_file(twenty[0]).end['checksum']})"
    rows = stored(db)
    expected = sum(len([r for r in logsynth.records(n) if r["type"] in ("result", "skip", "fault")])
                   for n in logsynth.NAMES) * 5
    assert len(rows) == expected
    assert len({r["run"] for r in rows}) == 20


def test_machines_are_the_cpu_models(loaded):
    db, _ = loaded
    p = ck(db, "machines")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()[1:]
    # pentium, 486, and one K7 (QEMU's max model) shared by the bare and hosted runs.
    assert len(lines) == 3
    runs = {line.split(None, 3)[3]: int(line.split()[1]) for line in lines}
    assert runs[next(k for k in runs if k.startswith("Pentium MMX (P55C)"))] == 5
    assert runs[next(k for k in runs if k.startswith("i486DX4"))] == 5
    assert runs[next(k for k in runs if k.startswith("K7 (Palomino)"))] == 10


def test_truncated_log_is_refused_with_the_reason(loaded, tmp_path):
    db, _ = loaded
    before = len(stored(db))
    text = open(logsynth.path("max"), "rb").read()
    cut = tmp_path / "cut.log"
    cut.write_bytes(text[: len(text) // 2])
    p = ck(db, "import", str(cut))
    assert p.returncode == 1
    assert "refused: incomplete log" in p.stderr and "truncated" in p.stderr
    assert p.stdout.splitlines()[-1] == "0 stored, 0 already there, 1 refused"
    assert len(stored(db)) == before


def test_show_gives_the_benchmark_on_every_machine(loaded):
    db, _ = loaded
    p = ck(db, "show", "lat/imul")
    assert p.returncode == 0, p.stderr
    rows, legend = p.stdout.splitlines()[1:-1], p.stdout.splitlines()[-1]
    assert len(rows) == 20
    assert legend.startswith("marks: U untrusted timer"), "every committed log is a QEMU TCG run"
    # The k = 0 run of each log holds the log's own value.
    for value in {[r for r in logsynth.records(n) if r.get("type") == "result" and r.get("name") == "lat/imul"][0]["cycles"]
                  for n in logsynth.NAMES}:
        assert any(f" {value:.2f} " in row for row in rows), (value, rows)
    missing = ck(db, "show", "lat/nonesuch")
    assert missing.returncode == 1
    assert "no stored result named 'lat/nonesuch'" in missing.stderr and "lat/imul" in missing.stderr


def test_show_takes_a_glob(loaded):
    """'mem/chase/*' gives every stored benchmark it matches, each in every
    run that has it, named in the first column."""
    db, _ = loaded
    p = ck(db, "show", "mem/chase/*")
    assert p.returncode == 0, p.stderr
    kinds = ("result", "skip", "fault")
    want = sorted((r["name"], n) for n in logsynth.NAMES for r in logsynth.records(n)
                  if r["type"] in kinds and fnmatch.fnmatchcase(r["name"], "mem/chase/*"))
    assert len({name for name, _ in want}) > 1
    rows = p.stdout.splitlines()[1:-1]
    assert sorted(row.split()[0] for row in rows) == sorted(name for name, _ in want for _k in range(5))
    none = ck(db, "show", "mem/nonesuch/*")
    assert none.returncode == 1 and "no stored result named 'mem/nonesuch/*'" in none.stderr


def test_runs_lists_every_stored_run(loaded, twenty):
    db, _ = loaded
    p = ck(db, "runs")
    assert p.returncode == 0, p.stderr
    rows = p.stdout.splitlines()[1:]
    assert [int(row.split()[0]) for row in rows] == list(range(1, 21))
    for row, path in zip(rows, twenty):
        log = logsynth.logfile.parse_file(path)
        run_id, results = row.split()[1], int(row.split()[6])
        measured = len([r for r in log.records if r["type"] == "result"])
        skipped = len([r for r in log.records if r["type"] == "skip"])
        # Results and skips counted apart, as `db import` and the report count them.
        assert row.split()[4:10] == ["emulator", "0", str(measured), str(skipped), "untrusted", str(measured)]
        assert run_id == log.run
        assert results == measured
        assert os.path.splitext(os.path.basename(path))[0] in row


def test_compare_two_runs(loaded):
    db, _ = loaded     # runs 1 and 2: pentium k = 0 and k = 1 (values x 1.01)
    p = ck(db, "compare", "1", "2")
    assert p.returncode == 0, p.stderr
    line = next(l for l in p.stdout.splitlines() if l.startswith("mem/chase/64M "))
    base = [r for r in logsynth.records("pentium") if r.get("type") == "result" and r.get("name") == "mem/chase/64M"][0]["cycles"]
    cols = line.split()
    assert cols[1] == "cycles"
    marks = "[US]"      # the committed pentium log: QEMU TCG, and this result is not stable
    assert cols[2] == f"{base:.2f}{marks}" and cols[3] == f"{round(base * 1.01, 2):.2f}{marks}"
    assert p.stdout.splitlines()[-1].startswith("marks: U untrusted timer")
    assert cols[4] == f"{round(base * 1.01, 2) / base:.3f}"
    by_code = ck(db, "compare", "1", "0x000170")    # a unique run id prefix names run 2 as well
    assert by_code.stdout == p.stdout
    vague = ck(db, "compare", "1", "0x0001")       # k = 1 of all four logs
    assert vague.returncode == 1 and "matches 4 stored runs" in vague.stderr
    bad = ck(db, "compare", "1", "99")
    assert bad.returncode == 1 and "no run 99" in bad.stderr


def test_export_csv_holds_the_log_values(loaded, tmp_path):
    db, _ = loaded
    out = tmp_path / "all.csv"
    p = ck(db, "export", "--csv", "-o", str(out))
    assert p.returncode == 0, p.stderr
    rows = [r for r in csv.DictReader(open(out)) if r["run"] == "6"]   # max, k = 0: the log's own numbers
    recs = [r for r in logsynth.records("max") if r["type"] == "result"]
    assert len(rows) == len(recs)
    for rec, row in zip(recs, rows):
        assert row["benchmark"] == rec["name"]
        assert float(row["ticks"]) == rec["ticks"] and row["verdict"] == rec["verdict"]
        assert row["cpu_name"] == "K7 (Palomino)" and row["vendor"] == "AuthenticAMD"


def test_default_database_is_in_the_users_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["db", "import", logsynth.path("486")])
    assert code == 0, err.getvalue()
    assert os.path.getsize(tmp_path / "data" / "cyclekit" / "results.db") > 0
    assert out.getvalue().splitlines()[-1] == "1 stored, 0 already there, 0 refused"


# Trust per run and per result: the four small logs of logsynth.trust_records (silicon under KVM
# and QEMU TCG, each as an older kernel wrote it and with the kernel's own trust fields).
TRUST_LOGS = [("kvm", True), ("kvm", False), ("tcg", True), ("tcg", False)]
TRUST_NAMES = ["lat/add", "lat/imul", "calib/empty", "mem/chase/1K", "mem/chase/4K", "lat/smi"]
TRUST_MARKS = {
    ("kvm", True): ["ok", "S", "SN", "ok", "SM", "D"],
    ("kvm", False): ["ok", "S", "SN", "ok", "ok", "D"],
    ("tcg", True): ["U", "US", "USN", "U", "USM", "UD"],
    ("tcg", False): ["U", "US", "USN", "U", "U", "UD"],
}


def trust_logs(d):
    """The four logs, each with its own run id (runs 1-4 in TRUST_LOGS' order)."""
    out = []
    for k, (platform, new) in enumerate(TRUST_LOGS):
        recs, end = logsynth.trust_records(platform, new)
        recs[0]["run"] = f"0x{k + 1:016x}"
        out.append(logsynth.write(str(d / f"{platform}-{'new' if new else 'old'}.log"), recs, end_fields=end))
    return out


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def trust_db(request, tmp_path_factory):
    db = fresh_db(request, tmp_path_factory, request.param, "cyclekit_trust")
    p = ck(db, "import", *trust_logs(tmp_path_factory.mktemp("trust")))
    assert p.returncode == 0, p.stderr
    return db


def test_trust_is_stored_per_run_and_result(trust_db):
    rows = stored(trust_db)
    for k, (platform, new) in enumerate(TRUST_LOGS):
        mine = [r for r in rows if r["run"] == str(k + 1)]
        assert [r["benchmark"] for r in mine] == TRUST_NAMES
        assert [r["marks"] for r in mine] == TRUST_MARKS[platform, new]
        run = mine[0]
        assert (run["cpu_kind"], run["run_hypervisor"]) == (("emulator", "QEMU TCG") if platform == "tcg"
                                                            else ("silicon", "KVM"))
        assert run["run_trust"] == ("untrusted" if platform == "tcg" else "flagged")
        assert int(run["run_flagged"]) == sum(m != "ok" for m in TRUST_MARKS[platform, new])
        assert {r["marks_derived"] for r in mine} == {"False" if new else "True"}
    empty = next(r for r in rows if r["run"] == "2" and r["benchmark"] == "calib/empty")
    assert (empty["judgement"], empty["flags"], empty["trust"]) == ("unstable", "negatives", "flagged")
    assert empty["reason"] == "10 of 31 samples had fewer ticks with 16 copies than with 8"
    chase = next(r for r in rows if r["run"] == "3" and r["benchmark"] == "mem/chase/4K")
    assert (chase["flags"], chase["trust"]) == ("untrusted-timer,modes", "untrusted")


def test_show_prints_the_marks_and_filters_on_trust(trust_db):
    p = ck(trust_db, "show", "lat/imul")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].split()[:12] == ["benchmark", "machine", "run", "run", "id", "platform", "cpu", "cycles",
                                     "ticks", "±ticks", "trust", "verdict"]
    assert [(l.split()[2], l.split()[5], l.split()[9]) for l in lines[1:5]] == [
        ("1", "silicon", "S"), ("2", "silicon", "S"), ("3", "emulator", "US"), ("4", "emulator", "US")]
    assert lines[5] == "marks: U untrusted timer (an emulator, or the trust check failed); S unstable"
    want = {"ok": [("1", "lat/add"), ("1", "mem/chase/1K"), ("2", "lat/add"), ("2", "mem/chase/1K"),
                   ("2", "mem/chase/4K")],
            "flagged": [("1", "calib/empty"), ("1", "lat/imul"), ("1", "lat/smi"), ("1", "mem/chase/4K"),
                        ("2", "calib/empty"), ("2", "lat/imul"), ("2", "lat/smi")]}
    for level, rows in want.items():
        p = ck(trust_db, "show", "*", "--trust", level)
        assert p.returncode == 0, p.stderr
        body = [l for l in p.stdout.splitlines()[1:] if not l.startswith("marks: ")]
        assert sorted((l.split()[2], l.split()[0]) for l in body) == rows, level
        assert (p.stdout.splitlines()[-1].startswith("marks: ")) is (level == "flagged")
    p = ck(trust_db, "show", "*", "--trust", "untrusted")
    assert len(p.stdout.splitlines()) == 1 + 12 + 1 and all(
        l.split()[5] == "emulator" and "U" in l.split()[9] for l in p.stdout.splitlines()[1:-1])
    none = ck(trust_db, "show", "lat/add", "--trust", "flagged")
    assert none.returncode == 1 and none.stderr == "no stored result named 'lat/add' with trust flagged\n"


def test_runs_prints_the_trust_and_filters_on_it(trust_db):
    p = ck(trust_db, "runs")
    assert [l.split()[4] for l in p.stdout.splitlines()[1:]] == ["silicon", "silicon", "emulator", "emulator"]
    assert [l.split()[8:10] for l in p.stdout.splitlines()[1:]] == [
        ["flagged", "4"], ["flagged", "3"], ["untrusted", "6"], ["untrusted", "6"]]
    for level, want in (("flagged", ["1", "2"]), ("untrusted", ["3", "4"])):
        p = ck(trust_db, "runs", "--trust", level)
        assert [l.split()[0] for l in p.stdout.splitlines()[1:]] == want
    ok = ck(trust_db, "runs", "--trust", "ok")
    assert ok.returncode == 1 and ok.stderr == "no stored run with trust ok\n"


@pytest.mark.parametrize("cmd", ["runs", "show"])
def test_a_bad_trust_value_is_refused_with_the_choices(trust_db, cmd):
    p = subprocess.run([os.path.join(logsynth.ROOT, "scripts", "cyclekit"), "db", "--db", trust_db, cmd]
                       + (["lat/add"] if cmd == "show" else []) + ["--trust", "good"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == (f"cyclekit db {cmd}: argument --trust: invalid choice: 'good' (choose from 'ok', "
                        f"'flagged', 'untrusted') (see `cyclekit db {cmd} --help`)\n")


def make_schema_1(db, logs):
    """A database as cyclekit wrote it before trust was stored: the logs imported, then what
    schema 2 added taken away (its columns and the meta table)."""
    from cyclekit.results import store
    from sqlalchemy import text
    assert ck(db, "import", *logs).returncode == 0
    engine = store.open_db(db)
    with engine.begin() as conn:
        for table, cols in (("runs", ("cpu_kind", "hypervisor", "trust", "flagged")),
                            ("results", ("judgement", "flags", "marks", "trust", "marks_derived"))):
            for col in cols:
                conn.execute(text(f'ALTER TABLE {table} DROP COLUMN "{col}"'))
        conn.execute(text("DROP TABLE meta"))
    engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_older_database_is_brought_up_to_date(request, tmp_path_factory, kind):
    """The trust columns are added and filled from the old rows: a run's timer verdict and its
    machine's hypervisor, a result's stable and verdict (negatives and SMIs were not stored,
    so they cannot mark a migrated row)."""
    from cyclekit.results import migrate, store
    from sqlalchemy import inspect
    db = fresh_db(request, tmp_path_factory, kind, "cyclekit_migrate")
    make_schema_1(db, trust_logs(tmp_path_factory.mktemp("old")))
    engine = store.create_engine(store.url_of(db), future=True)
    assert "marks" not in {c["name"] for c in inspect(engine).get_columns("results")}
    assert sorted(migrate.upgrade(engine)) == [
        "results.flags", "results.judgement", "results.marks", "results.marks_derived", "results.trust",
        "runs.cpu_kind", "runs.flagged", "runs.hypervisor", "runs.trust"]
    assert migrate.upgrade(engine) == []            # the second time there is nothing to do
    with engine.connect() as conn:
        assert migrate.version(conn) == 2
    engine.dispose()
    rows = stored(db)
    # A new kernel's record says stable: false for each unstable judgement; an old one's only where
    # its own test failed (lat/imul).
    migrated = {("kvm", True): ["ok", "S", "S", "ok", "S", "ok"], ("kvm", False): ["ok", "S", "ok", "ok", "ok", "ok"],
                ("tcg", True): ["U", "US", "US", "U", "US", "U"], ("tcg", False): ["U", "US", "U", "U", "U", "U"]}
    for k, key in enumerate(TRUST_LOGS):
        mine = [r for r in rows if r["run"] == str(k + 1)]
        assert [r["marks"] for r in mine] == migrated[key], key
        assert {r["marks_derived"] for r in mine} == {"True"}
        assert (mine[0]["cpu_kind"], mine[0]["run_trust"], mine[0]["run_flagged"]) == (
            ("emulator", "untrusted", "6") if key[0] == "tcg" else
            ("silicon", "flagged", str(sum(m != "ok" for m in migrated[key])))), key
    # A log imported after the upgrade is stored with the kernel's own marks.
    new = logsynth.write(str(tmp_path_factory.mktemp("after") / "after.log"),
                         *logsynth.trust_records("kvm", True)[:1], end_fields=logsynth.trust_records("kvm", True)[1])
    assert ck(db, "import", new).returncode == 0
    assert [r["marks"] for r in stored(db) if r["run"] == "5"] == TRUST_MARKS["kvm", True]


def test_a_newer_database_is_refused(tmp_path):
    from cyclekit.results import store
    from cyclekit.results.schema import meta
    db = str(tmp_path / "newer.db")
    engine = store.open_db(db)
    with engine.begin() as conn:
        conn.execute(meta.update().where(meta.c.key == "schema").values(value="3"))
    engine.dispose()
    p = ck(db, "runs")
    assert p.returncode == 2
    assert p.stderr == f"cyclekit db: {db}: the database has schema 3, newer than this cyclekit's 2: update cyclekit\n"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def tables_db(request, tmp_path_factory):
    """Two machines' instruction tables (tables 1 and 2) and a hosted 64-bit run, in a fresh database."""
    db = fresh_db(request, tmp_path_factory, request.param, "cyclekit_tables")
    d = tmp_path_factory.mktemp("tables")
    p = ck(db, "import", logsynth.table_dir(str(d / "rocket"), "rocket"), logsynth.table_dir(str(d / "zen4"), "zen4"),
           logsynth.hosted64_log(str(d / "h64.log")))
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[:3] == [f"{d / 'rocket'}: stored as instruction table 1 (5 forms)",
                                         f"{d / 'zen4'}: stored as instruction table 2 (5 forms)",
                                         f"{d / 'h64.log'}: stored as run 1 (13 results, 2 skipped)"]
    return db


def test_show_queries_a_table_row_in_every_table(tables_db):
    p = ck(tables_db, "show", "ADD64rr")
    assert p.returncode == 0, p.stderr
    head, *rows = p.stdout.splitlines()
    assert head.split()[:4] == ["form", "table", "cpu", "model"]
    # Each table's measured value with its spread, and LLVM's model value beside it.
    assert [r.split()[:2] + r.split()[-6:-3] for r in rows] == [
        ["ADD64rr", "1", "1.00±0.01", "1.00", "0.25±0.01"], ["ADD64rr", "2", "1.02±0.02", "1.02", "0.25±0.01"]]
    assert "Rocket Lake" in rows[0] and "Zen 4" in rows[1] and rows[0].endswith("add rax,rbx")
    p = ck(tables_db, "show", "*64r*")       # a glob over the opcodes: every table's rows of each
    assert [(r.split()[0], r.split()[1]) for r in p.stdout.splitlines()[1:]] == [
        ("ADD64rr", "1"), ("ADD64rr", "2"), ("DIV64r", "1"), ("DIV64r", "2"), ("IMUL64rr", "1"), ("IMUL64rr", "2"),
        ("PDEP64rr", "2")]
    skipped = ck(tables_db, "show", "RDMSR")
    assert skipped.stdout.splitlines()[1].endswith("rdmsr (skipped: privileged)")
    near = ck(tables_db, "show", "ADD64r")
    assert near.returncode == 1 and "did you mean ADD64rr?" in near.stderr


def test_compare_two_tables_sorts_the_forms_that_differ(tables_db):
    p = ck(tables_db, "compare", "--tables", "1", "2")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("A: table 1, Rocket Lake") and lines[1].startswith("B: table 2, Zen 4")
    assert lines[2].startswith("4 forms measured in both; 2 differ (latency 1, throughput 1")
    assert lines[2].endswith("1 only in A, 1 only in B")
    # VPADDDZrr's throughput doubled (x2.00) before IMUL64rr's latency (x1.33); ADD64rr and DIV64r moved
    # within their spreads or by less than 5 %: not listed.
    body = lines[4:6]
    assert [l.split()[:2] for l in body] == [["VPADDDZrr", "avx512"], ["IMUL64rr", "gpr"]]
    assert body[0].split()[2:9] == ["1.00", "1.00", "1.00", "0.50", "1.00", "2.00", "*"]
    assert body[1].split()[2:9] == ["3.00", "4.00", "1.33", "*", "1.00", "1.00", "1.00"]
    assert lines[6:] == ["only in A: RDMSR", "only in B: PDEP64rr"]
    every = ck(tables_db, "compare", "--tables", "1", "2", "--all").stdout.splitlines()
    assert [l.split()[0] for l in every[4:8]] == ["VPADDDZrr", "IMUL64rr", "ADD64rr", "DIV64r"]
    bad = ck(tables_db, "compare", "--tables", "1", "9")
    assert bad.returncode == 1 and "no instruction table 9 in the database" in bad.stderr
    listed = ck(tables_db, "tables").stdout.splitlines()
    assert [l.split()[:5] for l in listed[1:]] == [["1", "5", "4", "Rocket", "Lake"], ["2", "5", "5", "Zen", "4"]]


def test_show_sorts_sizes_and_names_its_columns_apart(tables_db):
    p = ck(tables_db, "show", "mem64/chase/*")
    assert p.returncode == 0, p.stderr
    head, *rows = p.stdout.splitlines()
    assert [r.split()[0] for r in rows] == [f"mem64/chase/{label}" for label, _ in logsynth.HOSTED64_SIZES] + [
        "mem64/chase/4xLLC"]
    assert head.split().count("machine") == 1 and head.endswith("cpu and system")
    near = ck(tables_db, "show", "lat64/imull")
    assert near.returncode == 1
    assert near.stderr.startswith("no stored result named 'lat64/imull', nor a table form; did you mean lat64/imul?")
