"""Instruction tables (`cyclekit table`'s table.jsonl) in the results database.

Two tables of their own beside the runs' (results.schema), on the same
metadata so one `create_all` builds them on SQLite and PostgreSQL:

  instruction_tables  one row per imported table.jsonl: its checksum (a file
                      is stored once), the CPU, LLVM's model and version, the
                      counts, the seconds it took
  instruction_forms   one row per form: the `table` record's fields
                      (docs/table.md), measured value, spread and LLVM's
                      model value for latency and throughput, the chain's
                      and the set's text, the upper-bound mark, the
                      variants and checks as JSON (issue 29), the counters'
                      columns and a P5 table's pairing (issue 30)

Columns added since a database was made are added when a table is stored or
read (migrate.add_missing_columns: nullable, no new schema version).

read(path) -> (run, rows)          the table_run record and the table records
is_table(path) -> bool             a table.jsonl (or a folder holding one)
import_table(engine, path)         ("stored"|"duplicate"|"refused", message, id)
stored_tables(engine) -> [dict]    the stored tables, newest last
"""
import datetime
import hashlib
import json
import os

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, Text, select
from sqlalchemy.exc import IntegrityError

from cyclekit.results.schema import metadata

instruction_tables = Table(
    "instruction_tables", metadata,
    Column("id", Integer, primary_key=True),
    Column("checksum", String(64), nullable=False, unique=True),
    Column("label", Text, nullable=False),
    Column("cpu_name", Text), Column("cpu_brand", Text), Column("model_cpu", Text), Column("llvm", Text),
    Column("note", Text), Column("forms", Integer), Column("measured", Integer), Column("seconds", Float),
    Column("skipped", Text),            # {reason: forms} as JSON
    Column("imported", Text, nullable=False),
    Column("floors", Text),             # {"nop_throughput": x, "add_latency": y} as JSON (issue 29)
    Column("cycles_source", Text),
    # The counters (docs/table.md): what was counted or why nothing, the events as JSON,
    # and how many rows counted exactly their bodies' instructions or differ.
    Column("counters", Text), Column("counter_events", Text),
    Column("counted_exact", Integer), Column("counted_differs", Integer),
)

FORM_TEXT = ("opcode", "isa", "asm", "latency_status", "latency_chain", "operand_latency",
             "throughput_status", "disagree", "model_cpu",
             "latency_bound", "chain_asm", "operand_pair", "throughput_set", "set_asm", "cycles_source",
             # the counters' verdict, and a P5 table's pairing columns (issue 30)
             "counted", "pairing", "pairing_model", "pairing_detail", "pairing_counted")
FORM_JSON = ("variants", "checks", "vpipe_per_copy")    # dicts and lists as JSON
FORM_NUMBERS = ("latency", "latency_spread", "latency_model", "throughput", "throughput_spread",
                "throughput_model", "chain_insns_counted", "set_insns_counted")
FORM_COUNTS = ("chain_insns", "set_insns")

instruction_forms = Table(
    "instruction_forms", metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Integer, ForeignKey("instruction_tables.id", ondelete="CASCADE"), nullable=False,
           index=True),
    *[Column(k, Text, index=(k == "opcode")) for k in FORM_TEXT],
    *[Column(k, Float) for k in FORM_NUMBERS],
    *[Column(k, Integer) for k in FORM_COUNTS],
    *[Column(k, Text) for k in FORM_JSON],
)
TABLES = (instruction_tables, instruction_forms)


def _ensure(engine):
    """The two tables, and the columns a database made by an older cyclekit lacks."""
    from cyclekit.results import migrate
    metadata.create_all(engine, tables=list(TABLES))
    migrate.add_missing_columns(engine, TABLES)


def table_file(path):
    """The table.jsonl a path names (the file, or the folder `cyclekit table -o` wrote)."""
    return os.path.join(path, "table.jsonl") if os.path.isdir(path) else path


def is_table(path):
    """Does the path hold an instruction table (its first record a table_run)?"""
    try:
        with open(table_file(path), encoding="utf-8") as f:
            first = f.readline()
        return json.loads(first).get("type") == "table_run"
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        return False


def read(path):
    """(table_run record, [table records]); ValueError names the first bad line."""
    run, rows = None, []
    with open(table_file(path), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as e:
                raise ValueError(f"line {n} is not JSON ({e})") from e
            kind = rec.get("type") if isinstance(rec, dict) else None
            if kind == "table_run" and run is None:
                run = rec
            elif kind == "table":
                rows.append(rec)
            else:
                raise ValueError(f"line {n}: a {kind!r} record where a table record belongs")
    if run is None:
        raise ValueError("no table_run record: not a `cyclekit table` output")
    return run, rows


def _number(v, kind):
    return kind(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _text(v):
    return None if v is None else str(v)


def _json(v):
    return None if v is None else json.dumps(v, ensure_ascii=False)


def _form_row(table_id, rec):
    row = {"table_id": table_id}
    row.update({k: _text(rec.get(k)) for k in FORM_TEXT})
    row.update({k: _number(rec.get(k), float) for k in FORM_NUMBERS})
    row.update({k: _number(rec.get(k), int) for k in FORM_COUNTS})
    row.update({k: _json(rec.get(k)) for k in FORM_JSON})
    return row


def import_table(engine, path):
    """Store one table: ("stored", message, id), ("duplicate", message, id) or
    ("refused", reason, None)."""
    _ensure(engine)
    try:
        with open(table_file(path), "rb") as f:
            checksum = hashlib.sha256(f.read()).hexdigest()
        run, recs = read(path)
    except OSError as e:
        return "refused", f"cannot read it: {e.strerror}", None
    except (ValueError, UnicodeDecodeError) as e:
        return "refused", f"not an instruction table: {e}", None
    found = _stored_id(engine, checksum)
    if found is not None:
        return "duplicate", f"instruction table already stored as table {found}", found
    values = {k: _text(run.get(k)) for k in ("cpu_name", "cpu_brand", "model_cpu", "llvm", "note",
                                             "cycles_source")}
    values.update(counters=_text(run.get("counters")), counter_events=_json(run.get("counter_events")),
                  counted_exact=_number(run.get("counted_exact"), int),
                  counted_differs=_number(run.get("counted_differs"), int))
    values.update(forms=_number(run.get("forms"), int), measured=_number(run.get("measured"), int),
                  seconds=_number(run.get("seconds"), float), skipped=json.dumps(run.get("skipped") or {}),
                  floors=_json(run.get("floors")), checksum=checksum, label=os.path.abspath(table_file(path)),
                  imported=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))
    try:
        with engine.begin() as conn:
            table_id = conn.execute(instruction_tables.insert().values(**values)).inserted_primary_key[0]
            if recs:
                conn.execute(instruction_forms.insert(), [_form_row(table_id, r) for r in recs])
    except IntegrityError:
        found = _stored_id(engine, checksum)      # another importer stored it meanwhile
        if found is None:
            raise
        return "duplicate", f"instruction table already stored as table {found}", found
    return "stored", f"stored as instruction table {table_id} ({len(recs)} forms)", table_id


def _stored_id(engine, checksum):
    with engine.connect() as conn:
        return conn.execute(select(instruction_tables.c.id)
                            .where(instruction_tables.c.checksum == checksum)).scalar()


def stored_tables(engine):
    _ensure(engine)
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(select(instruction_tables)
                                                       .order_by(instruction_tables.c.id))]


def table_opcodes(engine):
    """Every stored form's opcode, once each."""
    _ensure(engine)
    with engine.connect() as conn:
        return [r[0] for r in conn.execute(select(instruction_forms.c.opcode).distinct())
                if r[0] is not None]


def opcodes_matching(engine, pattern):
    """The stored opcodes a name or glob names (fnmatch, case kept, as results' names)."""
    import fnmatch
    return sorted(op for op in table_opcodes(engine) if fnmatch.fnmatchcase(op, pattern))


def form_rows(engine, opcodes):
    """Those forms in every stored table, by opcode then table: each form's fields with its
    table's number (`table`), its CPU and LLVM's model."""
    if not opcodes:
        return []
    _ensure(engine)
    q = (select(instruction_forms, instruction_tables.c.cpu_name.label("table_cpu"),
                instruction_tables.c.cpu_brand, instruction_tables.c.model_cpu.label("table_model"),
                instruction_tables.c.label.label("table_label"))
         .select_from(instruction_forms.join(instruction_tables,
                                             instruction_forms.c.table_id == instruction_tables.c.id))
         .where(instruction_forms.c.opcode.in_(list(opcodes)))
         .order_by(instruction_forms.c.opcode, instruction_tables.c.id, instruction_forms.c.id))
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(q)]


def stored_table(engine, key):
    """(table row, [form rows as dicts]) of the stored table numbered key; LookupError says why not."""
    _ensure(engine)
    with engine.connect() as conn:
        row = conn.execute(select(instruction_tables).where(instruction_tables.c.id == int(key))).first() \
            if str(key).isdigit() else None
        if row is None:
            raise LookupError(f"no instruction table {key} in the database (`cyclekit db tables` lists them)")
        forms = conn.execute(select(instruction_forms).where(instruction_forms.c.table_id == row.id)
                             .order_by(instruction_forms.c.id)).fetchall()
    return dict(row._mapping), [dict(f._mapping) for f in forms]
