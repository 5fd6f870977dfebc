"""The results database's schema version and the way up from an older one.

The version lives in the `meta` table (key "schema"). A database made before
the version was kept (schema 1: no meta table) lacks the trust columns: they
are added (ALTER TABLE ... ADD COLUMN, the one change both SQLite and
PostgreSQL make in place) and filled from what the old rows hold: a run's
timer verdict (`runs.trusted`) and its machine's hypervisor give the run's
cpu_kind; a result's `stable` and `verdict` with its run's give its marks
(cyclekit/trust.py, marks_derived true). Every step checks what is there
before it acts, so an upgrade cut short, or two importers upgrading at
once, ends in the same database.

The instruction tables (results/table_rows.py, made when the first table is
imported) gain nullable columns without a new version: issue 29's
latency_bound, chain_asm, set_asm, operand_pair, throughput_set, variants,
checks and cycles_source per form, floors and cycles_source per table.
table_rows adds the ones a database lacks before it writes or reads
(add_missing_columns), whatever the schema's version; a cyclekit that does
not know them still reads and writes those tables (the columns stay null).
"""
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from cyclekit import trust
from cyclekit.results.schema import SCHEMA_VERSION, machines, meta, metadata, results, runs


class NewerSchema(Exception):
    """The database was written by a newer cyclekit."""


def version(conn):
    found = conn.execute(select(meta.c.value).where(meta.c.key == "schema")).scalar()
    return int(found) if found is not None and str(found).isdigit() else 1


def add_missing_columns(engine, tables):
    """ALTER TABLE ADD COLUMN for each column of the tables' definitions a table in the
    database lacks (a nullable column: every added one is); the names added."""
    added = []
    for table in tables:
        have = {c["name"] for c in inspect(engine).get_columns(table.name)}
        for col in table.columns:
            if col.name in have:
                continue
            kind = col.type.compile(dialect=engine.dialect)
            try:
                with engine.begin() as conn:
                    conn.execute(text(f'ALTER TABLE {table.name} ADD COLUMN "{col.name}" {kind}'))
            except DBAPIError:
                # Another process added it between the look and the ALTER: fine if it is there now.
                if col.name not in {c["name"] for c in inspect(engine).get_columns(table.name)}:
                    raise
            added.append(f"{table.name}.{col.name}")
    return added


def _fill_run(conn, row):
    """Trust of one run stored before schema 2, from its stored fields."""
    kind = trust.platform_of(hypervisor_name=row.hypervisor, vendor_string=row.vendor)
    run = trust.RunTrust(row.trusted, kind, row.hypervisor, None, None, None)
    all_marks = []
    for res in conn.execute(select(results.c.id, results.c.stable, results.c.verdict)
                            .where(results.c.run_id == row.id, results.c.kind == "result")):
        m = trust.result_marks({"type": "result", "stable": res.stable, "verdict": res.verdict}, run)
        all_marks.append(m.marks)
        conn.execute(results.update().where(results.c.id == res.id).values(
            judgement=m.judgement, flags=",".join(m.flags), marks=m.marks, trust=trust.level(m.marks),
            marks_derived=True))
    conn.execute(runs.update().where(runs.c.id == row.id).values(
        cpu_kind=kind, hypervisor=row.hypervisor, trust=trust.run_verdict(run, all_marks),
        flagged=trust.flagged_count(run, all_marks)))


def _fill_old_rows(conn):
    q = (select(runs.c.id, runs.c.trusted, machines.c.hypervisor, machines.c.vendor)
         .select_from(runs.join(machines, runs.c.machine_id == machines.c.id))
         .where(runs.c.trust.is_(None)))
    for row in conn.execute(q).fetchall():
        _fill_run(conn, row)


def upgrade(engine):
    """Create what is missing and bring an older schema up to SCHEMA_VERSION; returns the
    columns added (empty for a current or a new database). NewerSchema when the database
    is ahead of this cyclekit."""
    metadata.create_all(engine)
    with engine.connect() as conn:
        found = version(conn)
    if found > SCHEMA_VERSION:
        raise NewerSchema(f"the database has schema {found}, newer than this cyclekit's "
                          f"{SCHEMA_VERSION}: update cyclekit")
    if found == SCHEMA_VERSION:
        return []
    added = add_missing_columns(engine, (runs, results))
    try:
        with engine.begin() as conn:
            _fill_old_rows(conn)
            if conn.execute(select(meta.c.key).where(meta.c.key == "schema")).first():
                conn.execute(meta.update().where(meta.c.key == "schema").values(value=str(SCHEMA_VERSION)))
            else:
                conn.execute(meta.insert().values(key="schema", value=str(SCHEMA_VERSION)))
    except IntegrityError:
        with engine.connect() as conn:      # another process finished the upgrade first
            if version(conn) != SCHEMA_VERSION:
                raise
    return added
