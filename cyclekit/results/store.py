"""The results database: import logs, and the queries of `cyclekit db`.

Every statement is built with SQLAlchemy Core (results.schema), so the same
code runs on SQLite (the default, a file) and PostgreSQL (a lab's shared
server, `postgresql://...`, through psycopg2). Only complete logs are
stored (a truncated log's numbers cannot be told from a finished run's),
each once: a log is known by its end record's checksum with its run id.

The `sample` and `cycles` records (where the samples fall inside a body,
sample= and cycles=) are not stored: they hold one body's bytes and the
samples per byte offset, which mean something only beside that body's
disassembly, and `report` reads them from the log itself. Importing a log
that has them stores its results as for any other log.
"""
import datetime
import fnmatch
import hashlib
import json
import os

from sqlalchemy import and_, case, create_engine, func, select
from sqlalchemy.exc import IntegrityError

from cyclekit import trust
from cyclekit.results import migrate, runlog
from cyclekit.results.schema import machines, results, runs, samples

MACHINE_FIELDS = ("vendor", "cpu_name", "brand", "family", "model", "stepping", "microcode", "hypervisor",
                  "system_manufacturer", "system_product", "board_manufacturer", "board_product",
                  "bios_vendor", "bios_version", "bios_date")
RESULT_FIELDS = ("ticks", "cycles", "cycles_unit", "ns", "time_unit", "stddev", "stable", "expect_uarch", "expect_cycles",
                 "expect_tolerance", "verdict", "reason", "unroll", "loops")
TRUST_FIELDS = ("judgement", "flags", "marks", "trust", "marks_derived")     # a result's, from trust.Marks
BIGINT_MAX = (1 << 63) - 1


def default_path():
    """$XDG_DATA_HOME/cyclekit/results.db, else ~/.local/share/cyclekit/results.db
    (XDG Base Directory Specification, specifications.freedesktop.org/basedir-spec)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "cyclekit", "results.db")


def url_of(db):
    """A database URL: a URL as given (postgresql://..., sqlite:///...), a path as SQLite."""
    if db and "://" in db:
        if db.startswith("postgresql://"):
            return "postgresql+psycopg2://" + db[len("postgresql://"):]
        return db
    path = os.path.abspath(db or default_path())
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return "sqlite:///" + path


def open_db(db):
    """An engine on the database, its tables created if missing and an older schema brought up to
    date (results/migrate.py: raises migrate.NewerSchema for a newer one)."""
    engine = create_engine(url_of(db), future=True)
    try:
        migrate.upgrade(engine)
    except Exception:
        engine.dispose()
        raise
    return engine


def identity_of(machine):
    return hashlib.sha256(json.dumps(machine, sort_keys=True).encode()).hexdigest()


def _machine_id(conn, run):
    m = run.machine()
    ident = identity_of(m)
    found = conn.execute(select(machines.c.id).where(machines.c.identity == ident)).scalar()
    if found is not None:
        return found
    row = {k: m[k] for k in MACHINE_FIELDS}
    return conn.execute(machines.insert().values(identity=ident, label=run.machine_label(), **row)) \
        .inserted_primary_key[0]


def _bigint(v):
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= BIGINT_MAX else None


def _trust_row(res):
    m = res.marks
    if m is None:
        return {k: None for k in TRUST_FIELDS}
    return dict(judgement=m.judgement, flags=",".join(m.flags), marks=m.marks, trust=trust.level(m.marks),
                marks_derived=m.derived, reason=res.reason or m.reason or None)


def _store_results(conn, run_id, run):
    for res in run.results:
        row = {k: getattr(res, k) for k in RESULT_FIELDS}
        row.update(_trust_row(res))
        row["unroll"] = int(res.unroll) if res.unroll is not None else None
        row["loops"] = int(res.loops) if res.loops is not None else None
        rid = conn.execute(results.insert().values(run_id=run_id, name=res.name, kind=res.kind, **row)) \
            .inserted_primary_key[0]
        s = res.samples or {}
        cols = [s.get(k) if isinstance(s.get(k), list) else [] for k in ("t0", "tU", "t2U")]
        rows = [{"result_id": rid, "idx": i, "t0": _bigint(a), "tu": _bigint(b), "t2u": _bigint(c)}
                for i, (a, b, c) in enumerate(zip(*cols))]
        if rows:
            conn.execute(samples.insert(), rows)


def import_log(engine, path):
    """Store the log at path: ("stored", message, id), ("duplicate", message, id)
    or ("refused", reason, None)."""
    try:
        run = runlog.load(path)
    except OSError as e:
        return "refused", f"cannot read it: {e.strerror}", None
    if not run.complete:
        return "refused", "incomplete log: " + "; ".join(run.problems), None
    key = and_(runs.c.checksum == run.checksum, runs.c.run == (run.run_id or "-"))
    try:
        with engine.begin() as conn:
            found = conn.execute(select(runs.c.id).where(key)).scalar()
            if found is not None:
                return "duplicate", f"already stored as run {found} (checksum {run.checksum})", found
            values = dict(checksum=run.checksum, run=run.run_id or "-", machine_id=_machine_id(conn, run),
                          label=run.label, version=run.version, built=run.built, compiler=run.compiler,
                          platform=run.platform_kind, cmdline=run.cmdline,
                          status=run.status if isinstance(run.status, int) else None,
                          records=len(run.log.records), trusted=run.trusted,
                          cpu_kind=run.trust_state.platform, hypervisor=run.trust_state.hypervisor,
                          trust=run.trust_verdict,
                          flagged=trust.flagged_count(run.trust_state, run.all_marks()),
                          imported=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))
            run_id = conn.execute(runs.insert().values(**values)).inserted_primary_key[0]
            _store_results(conn, run_id, run)
    except IntegrityError:
        # Another importer stored the same log (or machine) between our look-up and insert.
        with engine.connect() as conn:
            found = conn.execute(select(runs.c.id).where(key)).scalar()
        if found is None:
            raise
        return "duplicate", f"already stored as run {found} (checksum {run.checksum})", found
    return "stored", f"stored as run {run_id} ({run.count_text()})", run_id


def machine_rows(engine):
    q = (select(machines.c.id, machines.c.label, machines.c.microcode, func.count(runs.c.id).label("runs"))
         .select_from(machines.outerjoin(runs, runs.c.machine_id == machines.c.id))
         .group_by(machines.c.id, machines.c.label, machines.c.microcode).order_by(machines.c.id))
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(q)]


def names_matching(engine, pattern):
    """The stored benchmark names that the glob matches (fnmatch: * ? [...], case
    kept; the same on SQLite and PostgreSQL, whose LIKE differ in case)."""
    if not any(c in pattern for c in "*?["):
        return [pattern]
    with engine.connect() as conn:
        names = [r[0] for r in conn.execute(select(results.c.name).distinct())]
    return sorted(n for n in names if fnmatch.fnmatchcase(n, pattern))


def _count_of(kind):
    return func.sum(case((results.c.kind == kind, 1), else_=0))


def run_rows(engine, level=None):
    """Every stored run with its machine and how many results, skips and faults it holds (counted
    as runlog.Run.counts and the report count them); level (trust.LEVELS) keeps the runs of that
    verdict (ok: trusted)."""
    q = (select(runs.c.id, runs.c.run, runs.c.machine_id, runs.c.platform, runs.c.status, runs.c.version,
                runs.c.imported, runs.c.label, runs.c.cmdline, runs.c.cpu_kind, runs.c.hypervisor,
                runs.c.trust, runs.c.flagged, _count_of("result").label("results"),
                _count_of("skip").label("skipped"), _count_of("fault").label("faulted"))
         .select_from(runs.outerjoin(results, results.c.run_id == runs.c.id))
         .group_by(runs.c.id).order_by(runs.c.id))
    if level:
        q = q.where(runs.c.trust == trust.RUN_VERDICTS[level])
    with engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(q)]
    for r in rows:          # SUM over no row (a run of nothing) is NULL
        for k in ("results", "skipped", "faulted"):
            r[k] = int(r[k] or 0)
    return rows


def show_rows(engine, names, level=None):
    """Those benchmarks in every stored run, grouped by name, then machine; level
    (trust.LEVELS) keeps the results of that trust (and drops skips and faults)."""
    q = (select(results.c.name, machines.c.id.label("machine"), machines.c.label.label("machine_label"),
                runs.c.id.label("run"),
                runs.c.run.label("run_code"), runs.c.platform, runs.c.cpu_kind, results.c.kind, results.c.ticks,
                results.c.cycles, results.c.cycles_unit, results.c.stddev, results.c.verdict, results.c.reason,
                results.c.marks, results.c.trust, results.c.judgement, results.c.flags)
         .select_from(results.join(runs, results.c.run_id == runs.c.id)
                      .join(machines, runs.c.machine_id == machines.c.id))
         .where(results.c.name.in_(names)).order_by(results.c.name, machines.c.id, runs.c.id))
    if level:
        q = q.where(results.c.trust == level)
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(q)]


def similar_names(engine, bench, limit=8, more=()):
    """The stored names nearest to bench, nearest first (difflib's ratio, as the kernel's
    options and the verbs suggest: lat64/imull gives lat64/imul), then names with its first
    part (lat64/...); more: other names to choose from (a table's opcodes)."""
    import difflib
    with engine.connect() as conn:
        names = [r[0] for r in conn.execute(select(results.c.name).distinct())] + list(more)
    near = difflib.get_close_matches(bench, names, n=limit, cutoff=0.6)
    stem = bench.split("/")[0] + "/"
    near += sorted((n for n in names if n.startswith(stem) and n not in near), key=runlog.size_key)
    return near[:limit]


def find_run(engine, key):
    """The runs row a user means by key: its number in the database, its run id
    (0x...), or a unique prefix of the run id. LookupError says why not."""
    with engine.connect() as conn:
        if key.isdigit():
            row = conn.execute(select(runs).where(runs.c.id == int(key))).first()
            if row is None:
                raise LookupError(f"no run {key} in the database")
            return dict(row._mapping)
        found = conn.execute(select(runs).where(runs.c.run.like(key.lower() + "%"))).fetchall()
    if len(found) != 1:
        raise LookupError(f"run id {key!r} matches {len(found)} stored runs (give more digits or the run number)"
                          if found else f"no stored run has run id {key!r}")
    return dict(found[0]._mapping)


class StoredRun:
    """A stored run with the interface results.compare needs (label, measured(), result())."""

    def __init__(self, engine, run_row):
        self.label = f'run {run_row["id"]}'
        self.row = run_row
        with engine.connect() as conn:
            rows = conn.execute(select(results).where(results.c.run_id == run_row["id"])
                                .order_by(results.c.id)).fetchall()
        self._results = [self._result(dict(r._mapping)) for r in rows]

    @staticmethod
    def _result(row):
        rec = {"type": row["kind"], "name": row["name"], "stats": {"stddev": row["stddev"]}}
        rec.update({k: row[k] for k in RESULT_FIELDS if row[k] is not None and not k.startswith("expect")})
        if row["marks"] is not None:        # the stored verdict, as the kernel's fields
            rec.update(judgement=row["judgement"], marks=row["marks"],
                       flags=[f for f in (row["flags"] or "").split(",") if f])
        return runlog.Result(rec)

    def measured(self):
        return [r for r in self._results if r.kind == "result"]

    def result(self, name):
        return next((r for r in self._results if r.name == name), None)


EXPORT_COLUMNS = (
    [("machine", machines.c.id), ("machine_label", machines.c.label)]
    + [(k, machines.c[k]) for k in MACHINE_FIELDS]
    + [("run", runs.c.id), ("run_id", runs.c.run), ("checksum", runs.c.checksum), ("log", runs.c.label),
       ("version", runs.c.version), ("built", runs.c.built), ("platform", runs.c.platform),
       ("cmdline", runs.c.cmdline), ("status", runs.c.status), ("trusted", runs.c.trusted),
       ("cpu_kind", runs.c.cpu_kind), ("run_hypervisor", runs.c.hypervisor), ("run_trust", runs.c.trust),
       ("run_flagged", runs.c.flagged), ("benchmark", results.c.name), ("kind", results.c.kind)]
    + [(k, results.c[k]) for k in RESULT_FIELDS + TRUST_FIELDS])


def export_rows(engine):
    """(header, rows): every stored result with its run and machine."""
    q = (select(*[col.label(name) for name, col in EXPORT_COLUMNS])
         .select_from(results.join(runs, results.c.run_id == runs.c.id)
                      .join(machines, runs.c.machine_id == machines.c.id))
         .order_by(runs.c.id, results.c.id))
    with engine.connect() as conn:
        return [name for name, _ in EXPORT_COLUMNS], [tuple(r) for r in conn.execute(q)]
