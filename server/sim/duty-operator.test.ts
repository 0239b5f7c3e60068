/**
 * The simulated duty operator handles its own company's unprocessed alarms through the alarm calls
 * and leaves every other company's alone (what makes one branch pass and the others miss the ops check).
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { startDutyOperator } from './duty-operator.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(() => server?.close());

it('handles the unprocessed alarms of its company only', async () => {
  const db = (server.app.storage as SqliteStorage).db;
  const east = (db.prepare("SELECT id, path FROM company WHERE name = '华东分公司'").get() as { id: number; path: string });
  const west = (db.prepare('SELECT id, path FROM company WHERE pid = 1 AND id <> ? ORDER BY id LIMIT 1').get(east.id) as { id: number; path: string });
  const vehicleUnder = (path: string) => db.prepare(`SELECT v.id, v.company_id, coalesce(v.device_no, '') AS device_no FROM vehicle v JOIN company c ON c.id = v.company_id
    WHERE c.path LIKE ? || '%' ORDER BY v.id LIMIT 1`).get(path) as { id: number; company_id: number; device_no: string };
  const t = Date.now() - 600_000;
  const insert = (v: { id: number; company_id: number; device_no: string }) => Number(db.prepare(`INSERT INTO alarm (vehicle_id, device_no, company_id, alarm_type, source,
    start_time, last_time, lng, lat, speed, risk_level, create_time) VALUES (?, ?, ?, 1, 'bit', ?, ?, 120, 30, 10, 'high', ?)`).run(v.id, v.device_no, v.company_id, t, t, t).lastInsertRowid);
  const eastAlarm = insert(vehicleUnder(east.path));
  const westAlarm = insert(vehicleUnder(west.path));
  const op = startDutyOperator({ baseUrl: server.url, username: 'safety', password: 'safety123', companyId: east.id, everyMs: 200 });
  try {
    const status = (id: number) => (db.prepare('SELECT deal_status, deal_username FROM alarm WHERE id = ?').get(id) as { deal_status: number; deal_username: string });
    for (let i = 0; i < 100 && op.handled() === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(status(eastAlarm)).toMatchObject({ deal_status: 2, deal_username: '刘安全' });
    expect(status(westAlarm).deal_status).toBe(0);
    expect(op.handled()).toBeGreaterThanOrEqual(1);
  } finally {
    op.stop();
  }
}, 60_000);

it('a call the server never answers is abandoned after its timeout, so the next round runs', async () => {
  // Accepts the request and never answers (a hung upstream).
  const hung = createServer(() => undefined);
  await new Promise<void>((r) => hung.listen(0, '127.0.0.1', () => r()));
  const port = (hung.address() as { port: number }).port;
  const logs: string[] = [];
  const op = startDutyOperator({ baseUrl: `http://127.0.0.1:${port}`, username: 'safety', password: 'safety123', companyId: 1, everyMs: 100, timeoutMs: 300, log: (m) => logs.push(m) });
  try {
    for (let i = 0; i < 50 && logs.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    // Two abandoned rounds: the first did not hold the operator busy for ever.
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(logs[0]).toMatch(/duty operator: .*(timeout|aborted)/i);
  } finally {
    op.stop();
    hung.closeAllConnections();
    hung.close();
  }
}, 30_000);
