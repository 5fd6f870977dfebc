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


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(request, tmp_path_factory):
    """A fresh, empty database of each kind (as the --db argument), shared by
    the tests of this file: the twenty logs are imported once into each."""
    if request.param == "sqlite":
        return str(tmp_path_factory.mktemp("sqlite") / "results.db")
    url, top = request.getfixturevalue("postgres")
    from sqlalchemy import create_engine, text
    name = "cyclekit_test"
    admin = create_engine(url.replace("postgresql://", "postgresql+psycopg2://"), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        c.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return f"postgresql://ck@/{name}?host={top}"


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
    rows = p.stdout.splitlines()[1:]
    assert len(rows) == 20
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
    rows = p.stdout.splitlines()[1:]
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
        run_id, results = row.split()[1], int(row.split()[5])
        assert run_id == log.run
        assert results == len([r for r in log.records if r["type"] in ("result", "skip", "fault")])
        assert os.path.splitext(os.path.basename(path))[0] in row


def test_compare_two_runs(loaded):
    db, _ = loaded     # runs 1 and 2: pentium k = 0 and k = 1 (values x 1.01)
    p = ck(db, "compare", "1", "2")
    assert p.returncode == 0, p.stderr
    line = next(l for l in p.stdout.splitlines() if l.startswith("mem/chase/64M "))
    base = [r for r in logsynth.records("pentium") if r.get("type") == "result" and r.get("name") == "mem/chase/64M"][0]["cycles"]
    cols = line.split()
    assert cols[1] == "cycles"
    assert float(cols[2]) == base and float(cols[3]) == round(base * 1.01, 2)
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
