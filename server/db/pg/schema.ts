/**
 * The PostgreSQL schema, derived from the SQLite one: the SQLite migrations (server/db/migrations.ts) run
 * on an in-memory database and every table, key, index and foreign key is carried over. One source of
 * truth, so a new migration cannot leave PG behind; what cannot be carried mechanically fails here by name
 * (a trigger without a PG version below).
 *
 * Mapping: INTEGER → bigint (JT/T 808 status/alarm DWORDs overflow int4), REAL → double precision,
 * TEXT → text, BLOB → bytea. `INTEGER PRIMARY KEY` → identity. Tables with an implicit rowid get a real
 * `rowid` column (the code orders and pages by it). `positions` is partitioned by China day on gps_time
 * (partitions made on demand by PgSyncDb, see `partitionDdl`). Not carried: CHECK constraints (the code
 * validates before writing) and `COLLATE NOCASE` (an index on lower(col) instead). A copy of SQLite's
 * `sqlite_master` rows is kept as a table of that name.
 */
import Database from 'better-sqlite3';
import { migrate, registeredMigrations, type Migration } from '../migrations.ts';
import { DAY_PARTITIONED } from './partitions.ts';
import { translate, type PgCatalog } from './translate.ts';

type Col = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

function pgType(declared: string): string {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'bigint';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t.includes('BLOB')) return 'bytea';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'double precision';
  if (t === '') return 'text';
  return 'double precision';
}

/** Hand-written PG versions of the SQLite triggers, by name. */
const TRIGGERS: Record<string, string> = {
  alarm_driver: `
    CREATE FUNCTION alarm_driver() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM vehicle_driver d WHERE d.vehicle_id = NEW.vehicle_id AND d.sign_in_time <= NEW.start_time) THEN
        UPDATE alarm SET driver_cert = (SELECT d.driver_cert FROM vehicle_driver d WHERE d.vehicle_id = NEW.vehicle_id),
                         driver_name = (SELECT d.driver_name FROM vehicle_driver d WHERE d.vehicle_id = NEW.vehicle_id)
        WHERE id = NEW.id;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER alarm_driver AFTER INSERT ON alarm FOR EACH ROW EXECUTE FUNCTION alarm_driver()`,
  audit_log_append_only: `
    CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`,
};

/** One table of the PG schema, as derived from the SQLite one. */
export interface TableModel {
  readonly name: string;
  /** SQLite's text of it (sqlite_master.sql): the same text is the same table. */
  readonly source: string;
  /** CREATE SEQUENCE (a partitioned table's rowid) and CREATE TABLE. */
  readonly create: readonly string[];
  /** Its columns in order with their PG definitions (an INTEGER PRIMARY KEY as identity; not the added `rowid`). */
  readonly columns: readonly { readonly name: string; readonly def: string }[];
  /** Everything else CREATE TABLE fixes: the added `rowid`, primary key, UNIQUE constraints, partitioning. */
  readonly shape: string;
  /** `ALTER TABLE … ADD FOREIGN KEY …`, one per SQLite foreign key. */
  readonly foreignKeys: readonly string[];
  readonly primaryKey: readonly string[];
  readonly hasRowid: boolean;
  readonly partitionKey: string | undefined;
}

/** The PG schema of one state of the SQLite schema, by object (upgrade.ts compares two of them). */
export interface SchemaModel {
  /** In SQLite's creation order (sqlite_master rowid). */
  readonly tables: ReadonlyMap<string, TableModel>;
  /** Index name → table and PG DDL (the PostgreSQL-only ones included, last). */
  readonly indexes: ReadonlyMap<string, { readonly table: string; readonly sql: string }>;
  /** Trigger name → table and PG DDL (function and trigger). */
  readonly triggers: ReadonlyMap<string, { readonly table: string; readonly sql: string }>;
  /** SQLite's own catalogue rows, kept in the PG table `sqlite_master`. */
  readonly master: readonly { type: string; name: string; tbl_name: string; sql: string | null }[];
}

/**
 * PostgreSQL-only indexes, made with their table. Position retention drops whole day partitions
 * (server/retention/pg-partitions.ts) after finding the few rows of a day that arrived after the boundary; a
 * BRIN summary of received_at per block range answers that without reading a day whose rows arrived that day
 * (a few pages per partition, cheap to keep).
 */
export const PG_ONLY_INDEXES: readonly { readonly name: string; readonly table: string; readonly sql: string }[] = [
  { name: 'positions_received_brin', table: 'positions', sql: 'CREATE INDEX positions_received_brin ON positions USING brin (received_at)' },
];

/**
 * The PG DDL of the schema the SQLite migrations build (statements, PG dialect), and the schema_version
 * rows it stands for. `migrations`: the registry unless given (tests: a database as an older release made it).
 */
export function pgSchema(migrations: readonly Migration[] = registeredMigrations()): { statements: string[]; versions: { version: number; name: string }[] } {
  const lite = new Database(':memory:');
  try {
    migrate(lite, Number.MAX_SAFE_INTEGER, migrations);
    const versions = lite.prepare('SELECT version, name FROM schema_version ORDER BY version').all() as { version: number; name: string }[];
    return { statements: schemaStatements(schemaModel(lite)), versions };
  } finally {
    lite.close();
  }
}

/** The statements that create `model` in an empty database: tables, then foreign keys, indexes, triggers, `sqlite_master`. */
function schemaStatements(model: SchemaModel): string[] {
  const out: string[] = [];
  for (const t of model.tables.values()) out.push(...t.create);
  // Foreign keys after every table: SQLite resolves them lazily, so a table may reference a later one.
  for (const t of model.tables.values()) out.push(...t.foreignKeys);
  for (const ix of model.indexes.values()) out.push(ix.sql);
  for (const t of model.triggers.values()) out.push(t.sql);
  out.push('CREATE TABLE sqlite_master (type text NOT NULL, name text NOT NULL, tbl_name text NOT NULL, sql text)');
  out.push(masterInsert(model));
  return out;
}

const lit = (v: string | null) => (v === null ? 'NULL' : `'${v.replaceAll("'", "''")}'`);

/**
 * SQLite's own catalogue, as the migrations left it: code that lists the tables through it (the test
 * fingerprint of server/test/db-fingerprint.ts, which also reads WITHOUT ROWID from `sql`) reads the same
 * rows here. Rewritten by nothing but a new schema or an upgrade (upgrade.ts): no code creates tables at run time.
 */
export function masterInsert(model: SchemaModel): string {
  return `INSERT INTO sqlite_master (type, name, tbl_name, sql) VALUES ${model.master.map((m) => `(${lit(m.type)}, ${lit(m.name)}, ${lit(m.tbl_name)}, ${lit(m.sql)})`).join(', ')}`;
}

/** Table models by SQLite text: an upgrade reads the schema after each statement, and most tables stay as they were. */
const tableCache = new Map<string, TableModel>();

/** The PG schema of the SQLite database `lite` (fails by name on a trigger without a PG version, or a view). */
export function schemaModel(lite: Database.Database): SchemaModel {
  const rows = lite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as { name: string; sql: string }[];
  const tables = new Map<string, TableModel>();
  for (const { name, sql } of rows) {
    const key = `${name}\u0000${sql}`;
    let t = tableCache.get(key);
    if (!t) {
      t = tableModel(lite, name, sql);
      tableCache.set(key, t);
    }
    tables.set(name, t);
  }

  const indexes = new Map<string, { table: string; sql: string }>();
  const ixRows = lite.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid").all() as { name: string; tbl_name: string; sql: string }[];
  for (const ix of ixRows) {
    // `col COLLATE NOCASE` → `lower(col)`: the PG statements compare lower(x) = lower(?) (CONTEXT.md).
    const sql = ix.sql.replace(/(\w+)\s+COLLATE\s+NOCASE/gi, 'lower($1)')
      .replace(/^CREATE\s+(UNIQUE\s+)?INDEX\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)\s+ON\b/i, 'CREATE $1INDEX "$2" ON'); // names like session_user are reserved in PG
    indexes.set(ix.name, { table: ix.tbl_name, sql: translate(sql).text });
  }
  for (const ix of PG_ONLY_INDEXES) if (tables.has(ix.table)) indexes.set(ix.name, { table: ix.table, sql: ix.sql });

  const triggers = new Map<string, { table: string; sql: string }>();
  const trRows = lite.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid").all() as { name: string; tbl_name: string }[];
  for (const t of trRows) {
    const pgVersion = TRIGGERS[t.name];
    if (!pgVersion) throw new Error(`SQLite trigger ${t.name} has no PostgreSQL version: add one to server/db/pg/schema.ts TRIGGERS`);
    triggers.set(t.name, { table: t.tbl_name, sql: pgVersion.trim() });
  }
  const views = lite.prepare("SELECT name FROM sqlite_master WHERE type = 'view'").all() as { name: string }[];
  if (views.length > 0) throw new Error(`SQLite views have no PostgreSQL version yet: ${views.map((v) => v.name).join(', ')}`);

  const master = lite.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid').all() as { type: string; name: string; tbl_name: string; sql: string | null }[];
  return { tables, indexes, triggers, master };
}

function tableModel(lite: Database.Database, name: string, sql: string): TableModel {
  const cols = lite.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as Col[];
  const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  const integerPk = pk.length === 1 && pk[0]!.type.toUpperCase() === 'INTEGER';
  const withoutRowid = /\bWITHOUT\s+ROWID\b/i.test(sql);
  const partitionKey = DAY_PARTITIONED.get(name);
  const create: string[] = [];
  const columns: { name: string; def: string }[] = [];
  for (const c of cols) {
    if (integerPk && c.pk === 1) {
      columns.push({ name: c.name, def: `${q(c.name)} bigint GENERATED BY DEFAULT AS IDENTITY` });
      continue;
    }
    let def = `${q(c.name)} ${pgType(c.type)}`;
    if (c.notnull) def += ' NOT NULL';
    if (c.dflt_value !== null) def += ` DEFAULT ${c.dflt_value}`;
    columns.push({ name: c.name, def });
  }
  const rest: string[] = [];
  const hasRowid = !withoutRowid && !integerPk;
  if (hasRowid) {
    // PG 15 allows no identity column on a partitioned table: a plain sequence there.
    rest.push(partitionKey ? `rowid bigint NOT NULL DEFAULT nextval('${name}_rowid_seq')` : 'rowid bigint GENERATED BY DEFAULT AS IDENTITY');
    if (partitionKey) create.push(`CREATE SEQUENCE ${name}_rowid_seq`);
  }
  if (pk.length > 0) rest.push(`PRIMARY KEY (${pk.map((c) => q(c.name)).join(', ')})`);
  const indexes = lite.prepare('SELECT name, "unique", origin, partial FROM pragma_index_list(?)').all(name) as { name: string; unique: number; origin: string; partial: number }[];
  for (const ix of indexes) {
    if (ix.origin !== 'u') continue;
    const ixCols = (lite.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(ix.name) as { name: string }[]).map((r) => q(r.name));
    rest.push(`UNIQUE (${ixCols.join(', ')})`);
  }
  const tail = partitionKey ? ` PARTITION BY RANGE (${q(partitionKey)})` : '';
  create.push(`CREATE TABLE ${q(name)} (\n  ${[...columns.map((c) => c.def), ...rest].join(',\n  ')}\n)${tail}`);

  const fkRows = lite.prepare('SELECT id, "table", "from", "to", on_delete, on_update FROM pragma_foreign_key_list(?) ORDER BY id, seq').all(name) as
    { id: number; table: string; from: string; to: string | null; on_delete: string; on_update: string }[];
  const byId = new Map<number, typeof fkRows>();
  for (const r of fkRows) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
  const foreignKeys: string[] = [];
  for (const group of byId.values()) {
    const first = group[0]!;
    const to = group.every((r) => r.to !== null) ? ` (${group.map((r) => q(r.to!)).join(', ')})` : '';
    const action = (what: string, a: string) => (a && a !== 'NO ACTION' ? ` ON ${what} ${a}` : '');
    foreignKeys.push(`ALTER TABLE ${q(name)} ADD FOREIGN KEY (${group.map((r) => q(r.from)).join(', ')}) REFERENCES ${q(first.table)}${to}`
      + `${action('DELETE', first.on_delete)}${action('UPDATE', first.on_update)}`);
  }
  return {
    name, source: sql, create, columns, shape: `${rest.join(', ')}${tail}`, foreignKeys,
    primaryKey: pk.map((c) => c.name), hasRowid, partitionKey,
  };
}

/** What the translator needs to know about the schema of `model` (as `readCatalog` reads it from the server). */
export function catalogOf(model: SchemaModel): PgCatalog {
  const idTables = new Set<string>();
  const primaryKeys = new Map<string, string[]>();
  const partitioned = new Map<string, string>();
  const rowidTables = new Set<string>();
  for (const t of model.tables.values()) {
    if (t.columns.some((c) => c.name === 'id')) idTables.add(t.name);
    if (t.primaryKey.length > 0) primaryKeys.set(t.name, [...t.primaryKey]);
    if (t.partitionKey) partitioned.set(t.name, t.partitionKey);
    if (t.hasRowid) rowidTables.add(t.name);
  }
  return { idTables, primaryKeys, partitioned, rowidTables };
}
