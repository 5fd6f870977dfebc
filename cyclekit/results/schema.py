"""The results database's tables, in SQLAlchemy Core: one schema for SQLite and PostgreSQL.

  machines  one row per machine identity (CPU vendor, name, brand,
            family/model/stepping, microcode, hypervisor, SMBIOS system,
            board and BIOS); `identity` is a digest of those fields
  runs      one row per stored log: its checksum and run id (together
            unique: importing a log again stores nothing), the build, the
            options, the status, the machine, and its trust: the timer's
            verdict (`trusted`), what ran it (`cpu_kind`: emulator or
            silicon), the hypervisor, the run's verdict (`trust`: trusted,
            flagged, untrusted) and how many results are `flagged`
  results   one row per benchmark of a run: a result (ticks, cycles, ns,
            spread, expectation, verdict; its judgement, flags, marks and
            `trust`: ok, flagged, untrusted) or a skip/fault with its reason
  samples   the raw samples of a result (`raw` option): t(0), t(U), t(2U)
            of each sample, in ticks of the whole sample
  meta      the schema's version (`schema`), for results/migrate.py

Only portable types (Integer, BigInteger, Float, String, Text, Boolean), so
`metadata.create_all` builds the same tables on either database.
"""
from sqlalchemy import (BigInteger, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table,
                        Text, UniqueConstraint)

metadata = MetaData()
SCHEMA_VERSION = 2      # 1: before trust was stored (no meta table); 2: trust per run and result

machines = Table(
    "machines", metadata,
    Column("id", Integer, primary_key=True),
    Column("identity", String(64), nullable=False, unique=True),
    Column("label", Text, nullable=False),
    Column("vendor", Text), Column("cpu_name", Text), Column("brand", Text),
    Column("family", Integer), Column("model", Integer), Column("stepping", Integer),
    Column("microcode", Text), Column("hypervisor", Text),
    Column("system_manufacturer", Text), Column("system_product", Text),
    Column("board_manufacturer", Text), Column("board_product", Text),
    Column("bios_vendor", Text), Column("bios_version", Text), Column("bios_date", Text),
)

runs = Table(
    "runs", metadata,
    Column("id", Integer, primary_key=True),
    Column("checksum", String(16), nullable=False),
    Column("run", String(24), nullable=False),
    Column("machine_id", Integer, ForeignKey("machines.id"), nullable=False),
    Column("label", Text, nullable=False),
    Column("version", Text), Column("built", Text), Column("compiler", Text),
    Column("platform", Text), Column("cmdline", Text),
    Column("status", Integer), Column("records", Integer), Column("trusted", Boolean),
    Column("imported", Text, nullable=False),
    Column("cpu_kind", Text), Column("hypervisor", Text), Column("trust", Text), Column("flagged", Integer),
    UniqueConstraint("checksum", "run", name="runs_log_once"),
)

results = Table(
    "results", metadata,
    Column("id", Integer, primary_key=True),
    Column("run_id", Integer, ForeignKey("runs.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("name", Text, nullable=False, index=True),
    Column("kind", String(8), nullable=False),
    Column("ticks", Float), Column("cycles", Float), Column("cycles_unit", Text), Column("ns", Float),
    Column("time_unit", Text),
    Column("stddev", Float), Column("stable", Boolean),
    Column("expect_uarch", Text), Column("expect_cycles", Float), Column("expect_tolerance", Float),
    Column("verdict", Text), Column("reason", Text),
    Column("unroll", Integer), Column("loops", Integer),
    Column("judgement", Text), Column("flags", Text), Column("marks", Text), Column("trust", Text),
    Column("marks_derived", Boolean),
)

samples = Table(
    "samples", metadata,
    Column("result_id", Integer, ForeignKey("results.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("t0", BigInteger), Column("tu", BigInteger), Column("t2u", BigInteger),
)

meta = Table(
    "meta", metadata,
    Column("key", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)
