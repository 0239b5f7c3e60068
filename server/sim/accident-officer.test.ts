/**
 * The demo's safety officer against a real server: a collision alarm of a vehicle is filed as an accident
 * through the API with that alarm linked, once; a second collision inside the gap is left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { startAccidentOfficer } from './accident-officer.ts';

let server: TestServer;
let db: SqliteStorage['db'];
beforeAll(async () => { server = await startServer(); db = (server.app.storage as SqliteStorage).db; }, 60_000);
afterAll(() => server?.close());

describe('demo accident officer', () => {
  it('files a simulated vehicle’s collision alarm as an accident through the API, one per gap', async () => {
    const v = db.prepare('SELECT id, device_no, company_id FROM vehicle ORDER BY id LIMIT 1').get() as { id: number; device_no: string; company_id: number };
    const now = Date.now();
    const raise = (at: number, type: number) => Number(db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source, start_time, last_time, lng, lat, speed, risk_level, create_time)
      VALUES (?, ?, ?, ?, 'adas', ?, ?, 113.26, 23.13, 57, 'high', ?)`).run(v.id, v.device_no, v.company_id, type, at, at, at).lastInsertRowid);
    raise(now - 10 * 60_000, 12001); // an overspeed: not a collision
    const collision = raise(now - 5 * 60_000, 10006);
    const officer = startAccidentOfficer({ apiUrl: server.url, username: 'safety', password: 'safety123', intervalMs: 3_600_000 });
    try {
      const id = await officer.tick();
      expect(id).not.toBeNull();
      const row = db.prepare('SELECT vehicle_id, state, type, created_by_name FROM accident WHERE id = ?').get(id) as Record<string, unknown>;
      expect(row).toEqual({ vehicle_id: v.id, state: 'investigating', type: 'collision', created_by_name: '刘安全' });
      expect(db.prepare('SELECT alarm_id FROM accident_alarm WHERE accident_id = ?').all(id)).toEqual([{ alarm_id: collision }]);
      raise(now - 60_000, 10006);
      expect(await officer.tick()).toBeNull();
      expect((db.prepare('SELECT count(*) AS n FROM accident').get() as { n: number }).n).toBe(1);
    } finally {
      officer.stop();
    }
  });

  it('after a restart (a new officer, no memory) it does not file an alarm already filed again', async () => {
    const before = (db.prepare('SELECT count(*) AS n FROM accident').get() as { n: number }).n;
    expect(before).toBeGreaterThan(0);
    // Every collision alarm of the last hour is linked to an accident already (the previous test's, and the one inside its gap).
    const unfiled = db.prepare('SELECT count(*) AS n FROM alarm WHERE alarm_type IN (10006, 10009, 18005) AND id NOT IN (SELECT alarm_id FROM accident_alarm)').get() as { n: number };
    if (unfiled.n > 0) {
      const restarted = startAccidentOfficer({ apiUrl: server.url, username: 'safety', password: 'safety123', intervalMs: 3_600_000 });
      try { expect(await restarted.tick()).not.toBeNull(); } finally { restarted.stop(); }
    }
    const count = (db.prepare('SELECT count(*) AS n FROM accident').get() as { n: number }).n;
    const again = startAccidentOfficer({ apiUrl: server.url, username: 'safety', password: 'safety123', intervalMs: 3_600_000 });
    try {
      expect(await again.tick()).toBeNull();
      expect((db.prepare('SELECT count(*) AS n FROM accident').get() as { n: number }).n).toBe(count);
      // Each alarm is linked to one accident at most.
      expect(db.prepare('SELECT alarm_id, count(*) AS n FROM accident_alarm GROUP BY alarm_id HAVING count(*) > 1').all()).toEqual([]);
    } finally {
      again.stop();
    }
  });
});
