/**
 * Issue 20, failure test: the real server process (`server/main.ts`, as `npm run dev` starts it) is
 * killed with SIGKILL while terminals report over real TCP, then started again on the same DATA_DIR.
 * Every position whose 0x8001 reached its terminal, and the alarm handling the API answered 200, must
 * be in the database. This is what group commit (server/live/history.ts) promises: a report is
 * acknowledged only after the transaction holding it committed, and a committed WAL transaction
 * survives the death of the process.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MSG } from '../gateway/jt808/index.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startCrashServer } from './crash-harness.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-crash-'));
const dbFile = path.join(dataDir, 'fleet.sqlite');
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const startServer = () => startCrashServer(dataDir, children);

async function api<T>(apiUrl: string, method: string, callPath: string, body?: unknown, token?: string): Promise<{ code: number; data: T }> {
  const headers: Record<string, string> = { 'x-lang': 'en' };
  if (token) headers['x-jwt'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(new URL(callPath, apiUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = (await r.json()) as { code?: number; data: T };
  return { code: parsed.code ?? r.status, data: parsed.data };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('crash: a process killed under load loses no acknowledged report', () => {
  it('keeps every acknowledged position (0x0200 and 0x0704) and the alarm handling answered 200 after SIGKILL and restart', { timeout: 300_000 }, async () => {
    const first = await startServer();
    const devices = (() => {
      const db = new Database(dbFile, { readonly: true });
      try {
        return db.prepare('SELECT id, device_no AS deviceNo FROM vehicle WHERE device_no IS NOT NULL ORDER BY id LIMIT 9').all() as { id: number; deviceNo: string }[];
      } finally {
        db.close();
      }
    })();
    expect(devices.length).toBe(9);
    const terminals = await Promise.all(devices.map(async (d) => {
      const t = await TestTerminal.connect(first.gatewayPort, d.deviceNo);
      await t.login();
      return { t, vehicleId: d.id };
    }));

    // An alarm raised by a terminal report, handled through the API (answered 200).
    const now = Math.floor(Date.now() / 1000) * 1000;
    const alarmVehicle = terminals[8]!;
    expect((await alarmVehicle.t.report(location({ lng: 121.5, lat: 31.2, time: now, speed: 50, alarm: 1 << 7 }))).result).toBe(0);
    const safety = await api<{ token: string }>(first.apiUrl, 'POST', '/service-priv/login', { username: 'safety', password: 'safety123', loginType: 'default' });
    expect(safety.code).toBe(200);
    let alarmId: number | undefined;
    for (let i = 0; i < 100 && alarmId === undefined; i++) {
      const page = await api<{ records: { id: number }[] }>(first.apiUrl, 'POST', '/service-safe/alarmInfo', {
        startTime: now - 86_400_000, endTime: now + 86_400_000, vehicleIds: [alarmVehicle.vehicleId], size: 10,
      }, safety.data.token);
      alarmId = page.data.records[0]?.id;
      if (alarmId === undefined) await sleep(100);
    }
    expect(alarmId).toBeDefined();
    const handled = await api(first.apiUrl, 'PUT', '/service-safe/alarmInfo/handle_status', { ids: [alarmId], dealType: 2, dealContent: 'crash test' }, safety.data.token);
    expect(handled.code).toBe(200);

    // Load: 8 terminals keep 16 reports each in flight; every report has its own GPS second, and a
    // report counts as acknowledged only when its 0x8001 (result 0) arrived. One of them also sends
    // 0x0704 batches of 5.
    const acked = new Map<number, Set<number>>();
    let running = true;
    let sent = 0;
    const base = now - 3 * 3600_000;
    const loops = terminals.slice(0, 8).map(async ({ t, vehicleId }, n) => {
      const mine = new Set<number>();
      acked.set(vehicleId, mine);
      let k = 0;
      const one = async (): Promise<void> => {
        while (running) {
          const batch = n === 0 && k % 10 === 0;
          const times = batch ? [0, 1, 2, 3, 4].map(() => base + 1000 * k++) : [base + 1000 * k++];
          sent += times.length;
          const message = batch
            ? { msgId: MSG.BATCH_LOCATION, type: 0, items: times.map((time) => ({ msgId: MSG.LOCATION, ...location({ lng: 121.4, lat: 31.2, time }) })) }
            : { msgId: MSG.LOCATION, ...location({ lng: 121.4, lat: 31.2, time: times[0]! }) };
          try {
            const reply = await t.request(message as Parameters<TestTerminal['request']>[0], 5000);
            if (reply.msgId === MSG.PLATFORM_RESPONSE && reply.result === 0) for (const time of times) mine.add(time);
          } catch {
            return; // no reply: the server died with it in flight (not acknowledged)
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, one));
    });
    // Kill in the middle of the load, once reports are flowing.
    const ackedSoFar = () => [...acked.values()].reduce((s, x) => s + x.size, 0);
    for (let i = 0; i < 600 && ackedSoFar() < 2000; i++) await sleep(50);
    await sleep(137); // not aligned with a flush interval
    const exited = new Promise((r) => first.proc.once('exit', r));
    first.proc.kill('SIGKILL');
    await exited;
    const ackedAtKill = new Map([...acked].map(([v, s]) => [v, new Set(s)]));
    running = false;
    await Promise.all(loops);
    for (const { t } of terminals) t.socket.destroy();
    const total = [...ackedAtKill.values()].reduce((s, x) => s + x.size, 0);
    expect(total).toBeGreaterThanOrEqual(2000);

    // Restart on the same data dir: it opens the database (WAL recovery) and serves again.
    const second = await startServer();
    try {
      const db = new Database(dbFile, { readonly: true });
      try {
        const stored = db.prepare('SELECT gps_time AS t FROM positions WHERE vehicle_id = ? AND gps_time >= ?');
        const missing: string[] = [];
        for (const [vehicleId, times] of ackedAtKill) {
          const have = new Set((stored.all(vehicleId, base) as { t: number }[]).map((r) => r.t));
          for (const time of times) if (!have.has(time)) missing.push(`vehicle ${vehicleId} @ ${new Date(time).toISOString()}`);
        }
        expect(missing.slice(0, 10), `${missing.length} of ${total} acknowledged positions lost (${sent} sent)`).toEqual([]);
        const alarm = db.prepare('SELECT deal_status AS s, deal_content AS c FROM alarm WHERE id = ?').get(alarmId) as { s: number; c: string } | undefined;
        expect(alarm).toEqual({ s: 2, c: 'crash test' }); // DealStatus.Manual
        const log = db.prepare("SELECT count(*) AS n FROM alarm_deal_log WHERE alarm_id = ? AND action = 'handle'").get(alarmId) as { n: number };
        expect(log.n).toBe(1);
      } finally {
        db.close();
      }
      // The restarted server answers the API on the same database.
      const again = await api(second.apiUrl, 'POST', '/service-priv/login', { username: 'safety', password: 'safety123', loginType: 'default' });
      expect(again.code).toBe(200);
    } finally {
      const gone = new Promise((r) => second.proc.once('exit', r));
      second.proc.kill('SIGTERM');
      await gone;
    }
  });
});
