/**
 * The SQLite → PostgreSQL translator on statements taken from the code (file named in each case). Runs
 * without PostgreSQL (pure text); sync-db.pgtest.ts runs translated statements on a real server.
 */
import { describe, expect, it } from 'vitest';
import { ALL_COMPANIES, scopeCondition } from '../scope.ts';
import { splitStatements, translate, type PgCatalog } from './translate.ts';

const catalog: PgCatalog = {
  idTables: new Set(['user', 'company', 'notice']),
  primaryKeys: new Map([['track_block', ['vehicle_id', 'day']], ['user_role', ['user_id', 'role_id']]]),
};

describe('translate', () => {
  it('numbers positional parameters and leaves a ? inside a literal alone (users.ts usernameTaken)', () => {
    const t = translate("SELECT 1 FROM user WHERE username = ? AND id IS NOT ? AND remark <> '?'", catalog);
    expect(t.text).toBe(`SELECT 1 FROM "user" WHERE username = $1 AND id IS DISTINCT FROM $2 AND remark <> '?'`);
    expect(t.params).toEqual([0, 1]);
    expect(t.reader).toBe(true);
  });

  it('gives one named parameter one number, however often it appears (alarms.ts patchUserPop)', () => {
    const t = translate(`INSERT INTO user_alarm_pop_setting (user_id, popup, voice, voice_url, update_time)
                     VALUES (@u, coalesce(@popup, 1), coalesce(@voice, 1), coalesce(@url, ''), @now)
                     ON CONFLICT (user_id) DO UPDATE SET popup = coalesce(@popup, popup), voice = coalesce(@voice, voice),
                       voice_url = coalesce(@url, voice_url), update_time = @now`, catalog);
    expect(t.params).toEqual(['u', 'popup', 'voice', 'url', 'now']);
    expect(t.text).toContain('VALUES ($1, coalesce($2, 1), coalesce($3, 1), coalesce($4, \'\'), $5)');
    expect(t.text).toContain('popup = coalesce($2, popup)');
    expect(t.text).toContain('update_time = $5');
    expect(t.reader).toBe(false);
  });

  it('gives a FROM-list subquery without an alias one (audit/writer.ts insertAudit: PG 15 refuses it bare)', () => {
    const t = translate(`INSERT INTO audit_log (time, user_id) SELECT ?, u.id
      FROM (SELECT 1) LEFT JOIN user u ON u.id = COALESCE(?, (SELECT id FROM user WHERE username = ?))`, catalog);
    expect(t.text).toContain('FROM (SELECT 1) AS _sub0 LEFT JOIN "user" u ON u.id = COALESCE($2, (SELECT id FROM "user" WHERE username = $3))');
    // One with an alias, one nested inside another, one at the end of the statement.
    expect(translate('SELECT n FROM (SELECT count(*) n FROM vehicle) v').text).toBe('SELECT n FROM (SELECT count(*) n FROM vehicle) v');
    expect(translate('SELECT x FROM (SELECT a AS x FROM (SELECT 1 AS a) AS q) JOIN t ON TRUE').text)
      .toBe('SELECT x FROM (SELECT a AS x FROM (SELECT 1 AS a) AS q) AS _sub0 JOIN t ON TRUE');
    expect(translate('SELECT * FROM (SELECT 1)').text).toBe('SELECT * FROM (SELECT 1) AS _sub0');
    expect(translate('SELECT * FROM t WHERE id IN (SELECT id FROM u)').text).toBe('SELECT * FROM t WHERE id IN (SELECT id FROM u)');
  });

  it('reads rowid of a table whose INTEGER PRIMARY KEY is id as id (test/db-fingerprint.ts), and leaves real rowid columns alone', () => {
    const withRowid: PgCatalog = {
      ...catalog,
      idTables: new Set(['vehicle']),
      primaryKeys: new Map([['vehicle', ['id']], ['vehicle_state', ['vehicle_id']], ['user_role', ['user_id', 'role_id']], ['track_block', ['vehicle_id', 'day']]]),
      rowidTables: new Set(['positions', 'user_role']),
    };
    expect(translate('SELECT * FROM "vehicle" ORDER BY rowid', withRowid).text).toBe('SELECT * FROM "vehicle" ORDER BY "id"');
    expect(translate('SELECT * FROM "vehicle_state" ORDER BY rowid', withRowid).text).toBe('SELECT * FROM "vehicle_state" ORDER BY "vehicle_id"');
    expect(translate('DELETE FROM vehicle WHERE rowid IN (SELECT rowid FROM vehicle WHERE create_time < ? LIMIT ?)', withRowid).text)
      .toBe('DELETE FROM vehicle WHERE "id" IN (SELECT "id" FROM vehicle WHERE create_time < $1 LIMIT $2)');
    expect(translate('SELECT * FROM "user_role" ORDER BY rowid', withRowid).text).toBe('SELECT * FROM "user_role" ORDER BY rowid');
    expect(translate('SELECT rowid AS id FROM positions ORDER BY gps_time, rowid', withRowid).text).toBe('SELECT rowid AS id FROM positions ORDER BY gps_time, rowid');
    // A join, or a qualified rowid: left as written.
    expect(translate('SELECT v.rowid FROM vehicle v JOIN company c ON c.id = v.company_id', withRowid).text).toContain('v.rowid');
  });

  it('sums a condition as 0/1, as SQLite does (vehicles.ts statusCounts), and leaves a sum of values alone', () => {
    const t = translate(`SELECT count(*) total, coalesce(sum(v.status = 1), 0) in_service, coalesce(sum(v.device_no IS NOT NULL), 0) bound,
        coalesce(sum(v.insurance_expire >= ? AND v.insurance_expire < ?), 0) ins_soon FROM vehicle v`);
    expect(t.text).toContain('coalesce(sum((v.status = 1)::int), 0) in_service');
    expect(t.text).toContain('coalesce(sum((v.device_no IS NOT NULL)::int), 0) bound');
    expect(t.text).toContain('coalesce(sum((v.insurance_expire >= $1 AND v.insurance_expire < $2)::int), 0) ins_soon');
    expect(translate('SELECT sum(mileage) m, sum(CASE WHEN speed > 0 THEN mileage END) moving, sum(a * (b - 1)) x FROM t').text)
      .toBe('SELECT sum(mileage) m, sum(CASE WHEN speed > 0 THEN mileage END) moving, sum(a * (b - 1)) x FROM t');
    // SQLite's table hints are dropped (PostgreSQL has none).
    expect(translate('SELECT count(*) n FROM change_log l NOT INDEXED WHERE l.resource = ?').text).toBe('SELECT count(*) n FROM change_log l WHERE l.resource = $1');
    expect(translate('SELECT * FROM positions INDEXED BY positions_vehicle_time WHERE vehicle_id = ?').text).toBe('SELECT * FROM positions WHERE vehicle_id = $1');
    // A condition in its own parentheses (ops-check's handled count, from domain/alarms/handling.ts) is one too.
    expect(translate('SELECT sum((a.deal_status <> 0)) h, sum((a) + (b)) s FROM alarm a').text).toBe('SELECT sum(((a.deal_status <> 0))::int) h, sum((a) + (b)) s FROM alarm a');
  });

  it("writes date(…, 'unixepoch') and strftime('%Y-%m', …, 'unixepoch') as UTC to_char (obd/reports.ts, cab-supervision/portrait.ts)", () => {
    expect(translate("SELECT date((h.time + 28800000) / 1000, 'unixepoch') AS day FROM obd_history h").text)
      .toBe("SELECT to_char(to_timestamp((h.time + 28800000) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM obd_history h");
    expect(translate("SELECT strftime('%Y-%m', (a.start_time + 28800000) / 1000, 'unixepoch') AS mon FROM alarm a").text)
      .toBe("SELECT to_char(to_timestamp((a.start_time + 28800000) / 1000) AT TIME ZONE 'UTC', 'YYYY-MM') AS mon FROM alarm a");
    // Other modifiers and formats stay as written (and fail on PG by name).
    expect(translate("SELECT strftime('%W', t, 'unixepoch'), date('now') FROM x").text).toBe("SELECT strftime('%W', t, 'unixepoch'), date('now') FROM x");
  });

  it('compares COLLATE NOCASE through lower() (device-types.ts, lines.ts name checks)', () => {
    expect(translate('SELECT 1 FROM device_type WHERE company_id = ? AND name = ? COLLATE NOCASE AND id != ?').text)
      .toBe('SELECT 1 FROM device_type WHERE company_id = $1 AND lower(name) = lower($2) AND id != $3');
    expect(translate("SELECT name FROM line WHERE l.code <> 'A' COLLATE NOCASE ORDER BY name COLLATE NOCASE").text)
      .toBe("SELECT name FROM line WHERE lower(l.code) <> lower('A') ORDER BY lower(name)");
  });

  it('rewrites group_concat and quotes the table user (users.ts SELECT)', () => {
    const t = translate(`SELECT u.*, c.name AS company_name,
  (SELECT group_concat(role_id) FROM user_role ur WHERE ur.user_id = u.id) AS role_ids
  FROM user u JOIN company c ON c.id = u.company_id`, catalog);
    expect(t.text).toContain("(SELECT string_agg((role_id)::text, ',') FROM user_role ur WHERE ur.user_id = u.id) AS role_ids");
    expect(t.text).toContain('FROM "user" u JOIN company c');
  });

  it('makes the whole-forest scope a boolean and IS ? a null-safe comparison (companies.ts children)', () => {
    const s = scopeCondition(ALL_COMPANIES, 'c');
    const t = translate(`SELECT * FROM company c WHERE c.pid IS ? AND ${s.sql} ORDER BY c.name, c.id`, catalog);
    expect(t.text).toBe('SELECT * FROM company c WHERE c.pid IS NOT DISTINCT FROM $1 AND TRUE ORDER BY c.name, c.id');
    expect(translate('SELECT 1 FROM t WHERE 1').text).toBe('SELECT 1 FROM t WHERE TRUE');
    // A 1 that is a value stays a value.
    expect(translate('INSERT INTO t (a) VALUES (1)').text).toBe('INSERT INTO t (a) VALUES (1)');
    expect(translate('SELECT a FROM t WHERE b = 1 AND c = 0').text).toBe('SELECT a FROM t WHERE b = 1 AND c = 0');
  });

  it('quotes camelCase aliases and turns scalar MAX(a, b) into GREATEST (audit/routes.ts sessions)', () => {
    const t = translate(`SELECT s.user_id AS userId, u.username AS userName, s.create_time AS start,
        COALESCE(s.revoked_time, MAX(s.last_seen, COALESCE((SELECT MAX(time) FROM audit_log a WHERE a.session_id = s.id), 0))) AS end
        FROM session s JOIN user u ON u.id = s.user_id`);
    expect(t.text).toContain('s.user_id AS "userId", u.username AS "userName"');
    expect(t.text).toContain('greatest(s.last_seen, COALESCE((SELECT MAX(time) FROM audit_log a WHERE a.session_id = s.id), 0))');
    expect(t.text).toContain('JOIN "user" u');
  });

  it('turns LIKE into ILIKE, instr into strpos and a JSON path into ->> (terminal-held, voice)', () => {
    expect(translate('SELECT id FROM t a WHERE instr(a.name, ?) > 0').text).toBe('SELECT id FROM t a WHERE strpos(a.name, $1) > 0');
    const t = translate("SELECT id FROM voice_task t WHERE json_extract(t.message, '$.text') LIKE ? ESCAPE '\\'");
    expect(t.text).toBe("SELECT id FROM voice_task t WHERE ((t.message)::json->>'text') ILIKE $1 ESCAPE '\\'");
    expect(translate('SELECT 1 WHERE a NOT LIKE ?').text).toBe('SELECT 1 WHERE a NOT ILIKE $1');
  });

  it('turns INSERT OR IGNORE into ON CONFLICT DO NOTHING (users.ts setRoles)', () => {
    const t = translate('INSERT OR IGNORE INTO user_role (user_id, role_id) VALUES (?, ?)', catalog);
    expect(t.text).toBe('INSERT INTO user_role (user_id, role_id) VALUES ($1, $2) ON CONFLICT DO NOTHING');
    expect(t.returningId).toBe(false);
  });

  it('turns INSERT OR REPLACE into an upsert on the primary key (tracks.ts keepBlock)', () => {
    const t = translate('INSERT OR REPLACE INTO track_block (vehicle_id, day, points, data, built_at) VALUES (?, ?, ?, ?, ?)', catalog);
    expect(t.text).toBe('INSERT INTO track_block (vehicle_id, day, points, data, built_at) VALUES ($1, $2, $3, $4, $5) '
      + 'ON CONFLICT (vehicle_id, day) DO UPDATE SET points = excluded.points, data = excluded.data, built_at = excluded.built_at');
    expect(() => translate('INSERT OR REPLACE INTO unknown_table (a) VALUES (?)', catalog)).toThrow(/primary key/);
  });

  it('adds RETURNING id to an INSERT into a table with an id, not one the source already returns from', () => {
    expect(translate("INSERT INTO notice (title) VALUES (?)", catalog)).toMatchObject({ text: 'INSERT INTO notice (title) VALUES ($1) RETURNING id', returningId: true });
    expect(translate('INSERT INTO "user" (username) VALUES (?)', catalog).returningId).toBe(true);
    expect(translate('INSERT INTO notice (title) VALUES (?) RETURNING id, title', catalog)).toMatchObject({ returningId: false, reader: true });
    expect(translate('INSERT INTO user_role (user_id, role_id) VALUES (?, ?)', catalog).returningId).toBe(false);
  });

  it('keeps the positions keyset query as it is apart from parameters (tracks.ts pageAfter)', () => {
    const t = translate('SELECT rowid AS id, * FROM positions WHERE vehicle_id = ? AND gps_time >= ? AND gps_time < ? AND (gps_time, rowid) > (?, ?) ORDER BY gps_time, rowid LIMIT ?');
    expect(t.text).toBe('SELECT rowid AS id, * FROM positions WHERE vehicle_id = $1 AND gps_time >= $2 AND gps_time < $3 AND (gps_time, rowid) > ($4, $5) ORDER BY gps_time, rowid LIMIT $6');
  });

  it('maps BEGIN IMMEDIATE to BEGIN with a write lock, refuses PRAGMA, drops comments', () => {
    expect(translate('BEGIN IMMEDIATE')).toMatchObject({ text: 'BEGIN', beginWrite: true });
    expect(translate('BEGIN')).toMatchObject({ text: 'BEGIN', beginWrite: false });
    expect(() => translate('PRAGMA foreign_keys = ON')).toThrow(/PRAGMA/);
    expect(translate("SELECT a -- the 'first' column?\nFROM t /* why? */ WHERE b = ?").text).toBe('SELECT a  \nFROM t   WHERE b = $1');
  });

  it('reads a JSON array IN list with json_array_elements_text (drivers.ts, terminals.ts)', () => {
    expect(translate('DELETE FROM driver_vehicle WHERE driver_id = ? AND vehicle_id NOT IN (SELECT value FROM json_each(?))').text)
      .toBe('DELETE FROM driver_vehicle WHERE driver_id = $1 AND vehicle_id::text NOT IN (SELECT value FROM json_array_elements_text($2::json))');
  });

  it('splits a script on semicolons outside literals', () => {
    expect(splitStatements("INSERT INTO t VALUES ('a;b'); DELETE FROM t;\n")).toEqual(["INSERT INTO t VALUES ('a;b')", 'DELETE FROM t']);
  });
});
