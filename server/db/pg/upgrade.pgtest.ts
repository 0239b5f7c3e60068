/**
 * An existing PostgreSQL database upgraded in place when a newer release starts on it (upgrade.ts): a
 * database made by an older release (the schema of its migration list) gets the missing migrations, one
 * transaction each, under the start-up lock; a migration without a PG form stops the start before any change.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { registeredMigrations, schemaVersions, type Migration } from '../migrations.ts';
import { openPostgres } from './open.ts';
import { PgSyncDb, readCatalog } from './sync-db.ts';
import type { PgCatalog } from './translate.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from './test-db.ts';
import { migrationStatements, planUpgrade } from './upgrade.ts';
import { catalogOf, schemaModel } from './schema.ts';
import Database from 'better-sqlite3';
import { migrate } from '../migrations.ts';

const skip = pgSkipReason();
if (skip) console.warn(`upgrade.pgtest: skipped: ${skip}`);

const ALL = registeredMigrations();
const upTo = (v: number) => ALL.filter((m) => m.version <= v);
const versionsUpTo = (v: number) => new Set(upTo(v).map((m) => m.version));
/** The release after the latest one: a migration appended to the registry. */
const plus = (...extra: Migration[]) => [...ALL, ...extra];
const LATEST = Math.max(...schemaVersions());

describe('planning an upgrade (SQLite on :memory:, no database touched)', () => {
  it('derives every migration after 40 (the last table rebuild) and refuses the rebuilds by name', () => {
    for (const from of [40, 45, 50, 53, LATEST - 1]) {
      const steps = planUpgrade(versionsUpTo(from), ALL);
      expect(steps.map((s) => s.version)).toEqual(schemaVersions().filter((v) => v > from));
    }
    expect(() => planUpgrade(versionsUpTo(38), ALL)).toThrow(/^migration 40 \(routes: .*\) cannot be applied .*: it renames table upgrade_task_vehicle_v40 to upgrade_task_vehicle \(a table rebuild.*stays at version 38/);
    expect(() => planUpgrade(versionsUpTo(21), ALL)).toThrow(/^migration 22 .* renames table vehicle_rebuilt to vehicle/);
    expect(planUpgrade(new Set(schemaVersions()), ALL)).toEqual([]);
  });

  it('makes a new day-partitioned table with its rowid sequence and PG-only index', () => {
    const [two] = planUpgrade(versionsUpTo(1), upTo(2));
    expect(two!.statements.filter((x) => /positions/.test(x) && !x.startsWith('INSERT INTO sqlite_master')).map((x) => x.replace(/\s+/g, ' '))).toEqual([
      'CREATE SEQUENCE positions_rowid_seq',
      expect.stringMatching(/^CREATE TABLE "positions" \( "vehicle_id" bigint NOT NULL, .* rowid bigint NOT NULL DEFAULT nextval\('positions_rowid_seq'\) \) PARTITION BY RANGE \("gps_time"\)$/),
      // With its table (PostgreSQL-only), then the statement that makes the SQLite index.
      'CREATE INDEX positions_received_brin ON positions USING brin (received_at)',
      'CREATE INDEX "positions_vehicle_time" ON positions(vehicle_id, gps_time)',
    ]);
  });

  it('keeps a trigger body one statement, and places data statements between the DDL around them', () => {
    expect(migrationStatements(`CREATE TABLE a (x INTEGER);\n-- c\nCREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 1; DELETE FROM a; END;\nINSERT INTO a VALUES ('x;y') -- z; w\n;;`))
      .toEqual(['CREATE TABLE a (x INTEGER)', 'CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 1; DELETE FROM a; END', "INSERT INTO a VALUES ('x;y') -- z; w"]);
    // Migration 53: duplicates deleted before the unique index replaces the plain one.
    const dedupe = planUpgrade(versionsUpTo(52), ALL)[0]!;
    const at = (re: RegExp) => dedupe.statements.findIndex((s) => re.test(s));
    expect(at(/^DELETE FROM positions WHERE rowid IN/)).toBeGreaterThan(at(/^CREATE TEMP TABLE position_dup/));
    expect(at(/^DROP INDEX "positions_vehicle_time"/)).toBeGreaterThan(at(/^DELETE FROM track_block/));
    expect(at(/^CREATE UNIQUE INDEX "positions_vehicle_time"/)).toBeGreaterThan(at(/^DROP INDEX "positions_vehicle_time"/));
  });

  it('refuses a dropped column, a table made from a query and a PRAGMA before anything runs; carries a drop-and-create as such; takes a hand-written version', () => {
    const drop: Migration = { version: 9001, name: 'drop a column', sql: 'ALTER TABLE node_presence DROP COLUMN seen_at' };
    expect(() => planUpgrade(new Set(schemaVersions()), plus(drop))).toThrow(/^migration 9001 \(drop a column\) .*: it drops column node_presence.seen_at\. Nothing was changed: the database stays at version \d+/);
    const retype: Migration = { version: 9001, name: 'retype', sql: 'DROP TABLE node_presence; CREATE TABLE node_presence (node TEXT PRIMARY KEY, started_at TEXT NOT NULL, seen_at INTEGER NOT NULL)' };
    // Dropped then made again: PG would lose the rows SQLite loses too, so that is carried as such.
    expect(planUpgrade(new Set(schemaVersions()), plus(retype))[0]!.statements.slice(0, 2)).toEqual(['DROP TABLE "node_presence"', expect.stringMatching(/^CREATE TABLE "node_presence"/)]);
    const pragma: Migration = { version: 9001, name: 'pragma', sql: 'PRAGMA user_version = 3' };
    expect(() => planUpgrade(new Set(schemaVersions()), plus(pragma))).toThrow(/it has a statement without a PostgreSQL form: PRAGMA user_version/);
    // A hand-written PG version takes the place of the derived statements.
    const rebuild: Migration = { version: 9001, name: 'rebuild', sql: 'CREATE TABLE np2 (node TEXT PRIMARY KEY); DROP TABLE node_presence; ALTER TABLE np2 RENAME TO node_presence' };
    const [hand] = planUpgrade(new Set(schemaVersions()), plus(rebuild), { 9001: ['ALTER TABLE node_presence DROP COLUMN started_at', 'ALTER TABLE node_presence DROP COLUMN seen_at'] });
    expect(hand!.statements.slice(0, 3)).toEqual(['ALTER TABLE node_presence DROP COLUMN started_at', 'ALTER TABLE node_presence DROP COLUMN seen_at', 'DELETE FROM sqlite_master']);
    expect(hand!.statements[3]).toContain("('table', 'node_presence', 'node_presence', 'CREATE TABLE \"node_presence\" (node TEXT PRIMARY KEY)')");
    const ctas: Migration = { version: 9001, name: 'copy', sql: 'CREATE TABLE np_copy AS SELECT * FROM node_presence' };
    expect(() => planUpgrade(new Set(schemaVersions()), plus(ctas))).toThrow(/it creates table np_copy from a query/);
    const newer = new Set([...schemaVersions(), 9999]);
    expect(() => planUpgrade(newer, plus(drop))).toThrow(/migrations this release does not know \(9999: a newer release upgraded it\) and lacks 9001/);
  });
});

/** The schema of a PG database as sets of facts (column order aside: PG appends an added column after `rowid`). */
function fingerprint(db: PgSyncDb): Record<string, string[]> {
  const list = (sql: string) => (db.query(sql).rows as Record<string, unknown>[]).map((r) => Object.values(r).join(' | ')).sort();
  return {
    columns: list(`SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, ''), is_identity FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT LIKE 'positions_p%'`),
    indexes: list(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename NOT LIKE 'positions_p%'`),
    constraints: list(`SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
                       WHERE n.nspname = 'public' AND c.conrelid::regclass::text NOT LIKE 'positions_p%'`),
    triggers: list(`SELECT tgname, tgrelid::regclass::text FROM pg_trigger WHERE NOT tgisinternal`),
    functions: list(`SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`),
    master: list('SELECT type, name, tbl_name, sql FROM sqlite_master'),
  };
}

/** A catalogue without the day partitions (readCatalog lists them as tables with a rowid). */
function ownTables(c: PgCatalog): PgCatalog {
  const own = (t: string) => !/^positions_p\d{8}$/.test(t);
  return {
    idTables: new Set([...c.idTables].filter(own)),
    primaryKeys: new Map([...c.primaryKeys].filter(([t]) => own(t))),
    partitioned: c.partitioned,
    rowidTables: new Set([...(c.rowidTables ?? [])].filter(own)),
  };
}

describe.skipIf(skip !== '')('starting a newer release on a PostgreSQL database an older one made', () => {
  const dbs: TestDatabase[] = [];
  const newDb = async () => {
    const t = await createTestDatabase();
    dbs.push(t);
    return t;
  };
  const quiet: string[] = [];
  afterAll(async () => {
    for (const t of dbs) await t.drop();
  });

  const open = (url: string, migrations: readonly Migration[], log: string[] = quiet) => {
    const o = openPostgres(url, { migrations, log: (line) => log.push(line) });
    o.started();
    return o;
  };

  it('upgrades from version 40 across the real migrations: new tables, columns, indexes, data migrations; old rows kept; as a new database', { timeout: 120_000 }, async () => {
    const tdb = await newDb();
    const old = open(tdb.url, upTo(40));
    const at40 = old.db.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all();
    expect(at40).toEqual([...versionsUpTo(40)]);
    const t0 = Date.UTC(2026, 10, 20, 4, 0); // 2026-11-20 12:00 China time: China day 20412
    const day = Math.floor((t0 + 28_800_000) / 86_400_000);
    try {
      const db = old.db;
      db.prepare("INSERT INTO company (id, pid, name, path, create_time, update_time) VALUES (1, NULL, '老集团', '/1/', 1, 1)").run();
      db.prepare(`INSERT INTO recording_upload (user_id, vehicle_id, device_no, channel, start_time, end_time, media_type, stream_type, storage_type, state, ftp_user, created_at, updated_at)
                  VALUES (1, 7, '013800000007', 1, 0, 1, 0, 0, 0, 'done', 'u', 5, 5)`).run();
      const pos = db.prepare('INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at) VALUES (?, ?, ?, 39.9, 0, 0, 0, 0, 0, NULL, ?)');
      // Vehicle 7 reported t0 three times (resends before migration 53 made positions unique), and t0 + 10 s once.
      pos.run(7, t0, 116.1, t0 + 1);
      pos.run(7, t0, 116.2, t0 + 2);
      pos.run(7, t0 + 10_000, 116.3, t0 + 3);
      pos.run(7, t0, 116.4, t0 + 4);
      pos.run(8, t0, 117, t0 + 5);
      const block = db.prepare('INSERT INTO track_block (vehicle_id, day, points, data, built_at) VALUES (?, ?, 1, ?, 1)');
      block.run(7, day, Buffer.from([1])); // built from the duplicated rows: dropped by 53
      block.run(7, day - 1, Buffer.from([2])); // another day: kept
      block.run(8, day, Buffer.from([3])); // no duplicates: kept
      db.prepare('DROP INDEX positions_received_brin').run(); // as a database made before that PG-only index existed
    } finally {
      old.db.close();
    }

    const log: string[] = [];
    const upgraded = open(tdb.url, ALL, log);
    try {
      const db = upgraded.db;
      expect(upgraded.applied).toEqual(schemaVersions().filter((v) => v > 40));
      expect(db.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all()).toEqual(schemaVersions());
      expect(log[0]).toBe(`PostgreSQL: upgrading the schema from version 40: migrations ${upgraded.applied.join(', ')}`);
      expect(log.slice(1, -1).every((l) => /^PostgreSQL: migration \d+ \(.+\) applied in \d+\.\d s$/.test(l))).toBe(true);
      expect(log.at(-1)).toBe('PostgreSQL: creating index positions_received_brin (PostgreSQL-only, missing from this database)');
      // Old rows as they were; the column of 57 with its default; the table of 57 usable.
      expect(db.prepare('SELECT name FROM company WHERE id = 1').pluck().get()).toBe('老集团');
      expect(db.prepare('SELECT device_no, state, node FROM recording_upload').all()).toEqual([{ device_no: '013800000007', state: 'done', node: '' }]);
      db.prepare('INSERT INTO node_presence (node, started_at, seen_at) VALUES (?, ?, ?)').run('a', 1, 2);
      // 53: the first stored row of each (vehicle, time) kept, the track block of that day dropped, the index unique.
      expect(db.prepare('SELECT vehicle_id, gps_time, lng FROM positions ORDER BY vehicle_id, gps_time').raw().all())
        .toEqual([[7, t0, 116.1], [7, t0 + 10_000, 116.3], [8, t0, 117]]);
      expect(db.prepare('SELECT vehicle_id, day FROM track_block ORDER BY 1, 2').raw().all()).toEqual([[7, day - 1], [8, day]]);
      expect(() => db.prepare('INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, received_at) VALUES (8, ?, 1, 1, 0, 0, 0, 0, 0, 1)').run(t0))
        .toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_UNIQUE' }));
      // 43's trigger, in its PG version.
      expect(db.prepare("SELECT count(*) FROM pg_trigger WHERE tgname = 'audit_log_append_only'").pluck().get()).toBe(1);
      // The same schema a new database of this release gets (and the translator's catalogue of it).
      const fresh = open((await newDb()).url, ALL);
      try {
        const a = fingerprint(db);
        const b = fingerprint(fresh.db);
        for (const k of Object.keys(b)) expect(a[k], k).toEqual(b[k]);
        // The translator's catalogue: as the new database's, and as the planner derives it for data statements.
        expect(ownTables(readCatalog(db))).toEqual(ownTables(readCatalog(fresh.db)));
        const lite = new Database(':memory:');
        migrate(lite);
        const derived = catalogOf(schemaModel(lite));
        lite.close();
        expect(derived).toEqual(ownTables(readCatalog(fresh.db)));
      } finally {
        fresh.db.close();
      }
    } finally {
      upgraded.db.close();
    }

    // A second start finds nothing to do.
    const again: string[] = [];
    const second = open(tdb.url, ALL, again);
    second.db.close();
    expect(second.applied).toEqual([]);
    expect(again).toEqual([]);
  });

  it('upgrades from version 1 to 21 (a partitioned table, a seed, a trigger, appended columns, a backfill) as a new database of 21 is made', { timeout: 120_000 }, async () => {
    const tdb = await newDb();
    const old = open(tdb.url, upTo(1));
    old.db.close();
    const upgraded = open(tdb.url, upTo(21));
    const fresh = open((await newDb()).url, upTo(21));
    try {
      expect(upgraded.applied).toEqual([...versionsUpTo(21)].filter((v) => v > 1));
      const a = fingerprint(upgraded.db);
      const b = fingerprint(fresh.db);
      for (const k of Object.keys(b)) expect(a[k], k).toEqual(b[k]);
      // Migration 5's seed ran as a data statement (a new database gets the catalogue from the start-up sync).
      expect(upgraded.db.prepare('SELECT count(*) FROM alarm_type').pluck().get()).toBeGreaterThan(50);
    } finally {
      upgraded.db.close();
      fresh.db.close();
    }
  });

  it('stops on a migration without a PG form before any change, and rolls back a migration PostgreSQL fails, keeping the ones before', { timeout: 120_000 }, async () => {
    const tdb = await newDb();
    const before = open(tdb.url, ALL);
    before.db.prepare("INSERT INTO node_presence (node, started_at, seen_at) VALUES ('n1', 1, 2)").run();
    before.db.close();
    const versions = (url: string) => {
      const db = new PgSyncDb(url);
      try {
        return {
          versions: db.prepare('SELECT max(version) AS top, count(*) AS n FROM schema_version').get(),
          tables: db.prepare("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'zz_%' ORDER BY 1").pluck().all(),
          columns: db.prepare("SELECT column_name FROM information_schema.columns WHERE table_name = 'node_presence' ORDER BY 1").pluck().all(),
          rows: db.prepare('SELECT node FROM node_presence').pluck().all(),
        };
      } finally {
        db.close();
      }
    };
    const start = versions(tdb.url);
    expect(start.versions).toEqual({ top: LATEST, n: schemaVersions().length });

    const fine: Migration = { version: 9001, name: 'a table', sql: 'CREATE TABLE zz_a (id INTEGER PRIMARY KEY, note TEXT NOT NULL DEFAULT \'\'); CREATE INDEX zz_a_note ON zz_a(note)' };
    const rebuild: Migration = {
      version: 9002, name: 'node presence rebuilt', foreignKeysOff: true,
      sql: `CREATE TABLE zz_np (node TEXT PRIMARY KEY, started_at INTEGER NOT NULL, seen_at INTEGER NOT NULL, zone TEXT NOT NULL DEFAULT '');
            INSERT INTO zz_np (node, started_at, seen_at) SELECT node, started_at, seen_at FROM node_presence;
            DROP TABLE node_presence;
            ALTER TABLE zz_np RENAME TO node_presence;`,
    };
    const log: string[] = [];
    expect(() => openPostgres(tdb.url, { migrations: plus(fine, rebuild), log: (l) => log.push(l) }))
      .toThrow(`migration 9002 (node presence rebuilt) cannot be applied to an existing PostgreSQL database: it renames table zz_np to node_presence (a table rebuild: create, copy, drop, rename). Nothing was changed: the database stays at version ${LATEST}`);
    // Refused while planning: not even 9001, which could be applied, was.
    expect(versions(tdb.url)).toEqual(start);
    expect(log).toEqual([]);

    // Plans, but fails on PostgreSQL half-way (a SQLite function PG lacks): its column and index are undone.
    const failing: Migration = {
      version: 9002, name: 'zone backfill',
      sql: `ALTER TABLE node_presence ADD COLUMN zone TEXT NOT NULL DEFAULT '';
            CREATE INDEX node_presence_zone ON node_presence(zone);
            UPDATE node_presence SET zone = printf('%d', started_at);`,
    };
    let err: Error | undefined;
    try {
      openPostgres(tdb.url, { migrations: plus(fine, failing), log: (l) => log.push(l) });
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toMatch(new RegExp(`^migration 9002 \\(zone backfill\\) failed on PostgreSQL and was rolled back: function printf\\(unknown, bigint\\) does not exist.*; at: UPDATE node_presence SET zone = printf.*The database stays at version 9001 \\(this start applied 9001\\)$`, 's'));
    const after = versions(tdb.url);
    expect(after).toEqual({ ...start, versions: { top: 9001, n: schemaVersions().length + 1 }, tables: ['zz_a'] });
    expect(after.columns).not.toContain('zone');
    expect(log).toEqual([`PostgreSQL: upgrading the schema from version ${LATEST}: migrations 9001, 9002`, expect.stringMatching(/^PostgreSQL: migration 9001 \(a table\) applied in/)]);

    // The release that fixes it (the statement rewritten) goes on from 9001.
    const fixed: Migration = { ...failing, sql: failing.sql.replace("printf('%d', started_at)", 'CAST(started_at AS TEXT)') };
    const done = open(tdb.url, plus(fine, fixed));
    try {
      expect(done.applied).toEqual([9002]);
      expect(done.db.prepare('SELECT node, zone FROM node_presence').all()).toEqual([{ node: 'n1', zone: '1' }]);
      expect(done.db.prepare("SELECT count(*) FROM pg_indexes WHERE indexname = 'node_presence_zone'").pluck().get()).toBe(1);
    } finally {
      done.db.close();
    }
  });
});

describe.skipIf(skip !== '')('two nodes of the newer release started together on an older database', () => {
  let tdb: TestDatabase | undefined;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await tdb?.drop();
  });

  /** A node process that opens the database when told to (a line on stdin) and prints what it applied. */
  const node = (url: string) => {
    const code = `
      import { createInterface } from 'node:readline';
      import { openPostgres } from ${JSON.stringify(new URL('./open.ts', import.meta.url).href)};
      process.stdout.write('ready\\n');
      createInterface({ input: process.stdin }).once('line', () => {
        const o = openPostgres(${JSON.stringify(url)}, { log: () => {} });
        o.started();
        o.db.close();
        process.stdout.write(JSON.stringify(o.applied) + '\\n');
        process.exit(0);
      });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(child);
    const lines: string[] = [];
    let buf = '';
    const waiters: (() => void)[] = [];
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
        for (const w of waiters.splice(0)) w();
      }
    });
    // A node that fails (e.g. both migrating at once) answers its exit instead of hanging the test.
    child.on('exit', (code) => {
      lines.push(`exited with ${code}`);
      for (const w of waiters.splice(0)) w();
    });
    const line = async (n: number) => {
      while (lines.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
      return lines[n - 1]!;
    };
    return { child, line };
  };

  it('one upgrades, the other waits for the start-up lock and finds nothing missing', { timeout: 120_000 }, async () => {
    tdb = await createTestDatabase();
    const old = openPostgres(tdb.url, { migrations: upTo(50), log: () => {} });
    old.started();
    old.db.close();
    const a = node(tdb.url);
    const b = node(tdb.url);
    expect([await a.line(1), await b.line(1)]).toEqual(['ready', 'ready']);
    a.child.stdin!.write('go\n');
    b.child.stdin!.write('go\n');
    const outs = [await a.line(2), await b.line(2)];
    expect(outs.every((o) => o.startsWith('['))).toBe(true);
    const applied = outs.map((o) => JSON.parse(o) as number[]).sort((x, y) => y.length - x.length);
    expect(applied).toEqual([schemaVersions().filter((v) => v > 50), []]);
    const db = new PgSyncDb(tdb.url);
    try {
      expect(db.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all()).toEqual(schemaVersions());
    } finally {
      db.close();
    }
  });
});
