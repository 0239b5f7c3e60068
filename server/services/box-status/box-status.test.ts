import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBoxItem, BOX_ITEM_ID, type BoxState } from '../../../domain/box/status.ts';
import { chinaDate } from '../../../domain/track/days.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { location, TestTerminal } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';

let server: LiveTestServer;
let admin: string;
let truck: { vehicleId: number; deviceNo: string; vehiidno: string };
let terminal: TestTerminal;

const box = (s: Partial<BoxState>): { id: number; data: Uint8Array }[] =>
  [{ id: BOX_ITEM_ID, data: encodeBoxItem({ lifted: false, sealed: true, loaded: false, loadT: null, ...s }) }];

interface PageRow { vehicleId: number; vehiidno: string; online: boolean; box: (BoxState & { since: number; speed: number }) | null }

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 4 });
  // The tests start at the next 12:00 China time (04:00 UTC), outside the rush-hour windows of 70008:
  // a loaded truck moving below raises only the alarm its test is about, whatever the hour the suite runs
  // (run at 18:30 China time, the earlier tests used to leave a 70008 behind).
  const day = 86_400_000;
  const noonUtc = 4 * 3_600_000;
  const start = server.clock.now();
  server.clock.advance(Math.floor((start - noonUtc) / day) * day + noonUtc + day - start);
  admin = await server.login('admin', 'admin123');
  const db = (server.app.storage as unknown as SqliteStorage).db;
  const v = (await server.app.storage.terminals.allVehicles())[0]!;
  // The seed's slag trucks are vehicles of type 'muck'; make this one of them.
  db.prepare("UPDATE vehicle SET vehicle_type = 'muck' WHERE id = ?").run(v.vehicleId);
  db.prepare("UPDATE vehicle SET vehicle_type = 'car' WHERE id <> ?").run(v.vehicleId);
  truck = { vehicleId: v.vehicleId, deviceNo: v.deviceNo, vehiidno: (db.prepare('SELECT vehiidno FROM vehicle WHERE id = ?').get(v.vehicleId) as { vehiidno: string }).vehiidno };
  // The demo seed registers sites of the branches (server/seed/box-sites.ts): they are checked, then
  // removed, so the tests below start from "no site" and add their own.
  expect((db.prepare('SELECT count(*) AS n FROM box_site').get() as { n: number }).n).toBeGreaterThanOrEqual(3);
  db.prepare('DELETE FROM box_site').run();
  server.app.boxStatus.reloadSites();
  terminal = await TestTerminal.connect(server.gatewayPort, truck.deviceNo);
  await terminal.login();
});
afterAll(async () => {
  await terminal?.close();
  await server?.close();
});

async function report(speed: number, state: Partial<BoxState>, at = { lng: 121.5, lat: 31.2 }): Promise<number> {
  server.clock.advance(10_000);
  const time = Math.floor(server.clock.now() / 1000) * 1000;
  const reply = await terminal.request({ msgId: 0x0200, ...location({ ...at, time, speed, extras: box(state) }) } as never);
  expect(reply).toMatchObject({ msgId: 0x8001, replyId: 0x0200, result: 0 });
  return time;
}

const openAlarms = (code: number) => {
  const db = (server.app.storage as unknown as SqliteStorage).db;
  return db.prepare('SELECT count(*) AS n, sum(end_time IS NULL) AS open FROM alarm WHERE vehicle_id = ? AND alarm_type = ?').get(truck.vehicleId, code) as { n: number; open: number | null };
};

describe('cargo box status (0x0200 item 0xE1 → /service-monitor/box/…, group 70 alarms)', () => {
  it('lists the slag truck with its box state now and raises 70001 while it drives loaded and unsealed, ending it once sealed', async () => {
    await report(0, { loaded: false, sealed: true });
    const loadedAt = await report(30, { loaded: true, sealed: false, loadT: 18 });
    await server.app.alarms.idle();
    await new Promise((r) => setImmediate(r));
    await server.app.alarms.idle();
    expect(openAlarms(70001)).toEqual({ n: 1, open: 1 });

    const page = await server.call<{ total: number; records: PageRow[] }>('GET', '/service-monitor/box/page?current=1&size=10', { token: admin });
    expect(page.code).toBe(200);
    expect(page.data.total).toBe(1);
    expect(page.data.records[0]).toMatchObject({ vehicleId: truck.vehicleId, vehiidno: truck.vehiidno, online: true, box: { loaded: true, sealed: false, lifted: false, loadT: 18, since: loadedAt, speed: 30 } });
    // Filters: an unsealed truck is found by 'unsealed', not by 'empty'; online=0 finds nothing.
    expect((await server.call<{ total: number }>('GET', '/service-monitor/box/page?state=unsealed', { token: admin })).data.total).toBe(1);
    expect((await server.call<{ total: number }>('GET', '/service-monitor/box/page?state=empty', { token: admin })).data.total).toBe(0);
    expect((await server.call<{ total: number }>('GET', '/service-monitor/box/page?online=0', { token: admin })).data.total).toBe(0);

    await report(30, { loaded: true, sealed: true, loadT: 18 });
    await server.app.alarms.idle();
    await new Promise((r) => setImmediate(r));
    await server.app.alarms.idle();
    expect(openAlarms(70001)).toEqual({ n: 1, open: 0 });
  });

  it('raises 70002 for a lift while moving, 70005 loaded over 60 km/h, 70004 for unloading outside the approved sites but not inside one', async () => {
    await report(20, { loaded: true, sealed: true, lifted: true });
    await report(75, { loaded: true, sealed: true });
    // No approved site defined yet: unloading anywhere is not 'outside a site'.
    await report(0, { loaded: true, sealed: true, lifted: true });
    await report(0, { loaded: false, sealed: true });
    await server.app.alarms.idle();
    expect(openAlarms(70004).n).toBe(0);
    const site = await server.call<{ id: number }>('POST', '/service-monitor/box/site/save', { token: admin, body: { name: '江湾消纳场', lng: 121.6, lat: 31.3, radiusM: 500 } });
    expect(site.code).toBe(200);
    await report(0, { loaded: true, sealed: true, lifted: true }, { lng: 121.5, lat: 31.2 }); // far from the site
    await report(0, { loaded: false, sealed: true }, { lng: 121.5, lat: 31.2 });
    await report(0, { loaded: true, sealed: true, lifted: true }, { lng: 121.6005, lat: 31.3 }); // inside
    await server.app.alarms.idle();
    await new Promise((r) => setImmediate(r));
    await server.app.alarms.idle();
    expect(openAlarms(70002).n).toBe(1);
    expect(openAlarms(70005).n).toBe(1);
    expect(openAlarms(70004)).toEqual({ n: 1, open: 0 });
  });

  it('answers a day of state changes, 400 naming a bad day, 404 outside the scope, 403 without the history button', async () => {
    await server.app.boxStatus.flush();
    const day = chinaDate(server.clock.now());
    const h = await server.call<{ changes: { time: number; loaded: boolean; sealed: boolean; lifted: boolean }[] }>('GET', `/service-monitor/box/history?vehicleId=${truck.vehicleId}&day=${day}`, { token: admin });
    expect(h.code).toBe(200);
    expect(h.data.changes.length).toBeGreaterThanOrEqual(6);
    expect(h.data.changes[1]).toMatchObject({ loaded: true, sealed: false, lifted: false });
    const bad = await server.call('GET', `/service-monitor/box/history?vehicleId=${truck.vehicleId}&day=2026-13-45`, { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.msg).toMatch(/day/);
    expect((await server.call('GET', `/service-monitor/box/history?vehicleId=999999&day=${day}`, { token: admin })).status).toBe(404);
    expect((await server.call('GET', `/service-monitor/box/page?state=broken`, { token: admin })).status).toBe(400);
    const operator = await server.login('operator', 'operator123');
    expect((await server.call('GET', `/service-monitor/box/history?vehicleId=${truck.vehicleId}&day=${day}`, { token: operator })).status).toBe(403);
  });

  it('raises 70003 when the load leaves the truck outside every site (not inside one), 70009 above the rated load, 70010 when a fitted load sensor goes silent', async () => {
    const settle = async () => {
      await server.app.alarms.idle();
      await new Promise((r) => setImmediate(r));
      await server.app.alarms.idle();
    };
    // The previous test unloaded far from 江湾消纳场 (the only site) with no load in the item: this truck's
    // sensor has reported loads, so a silent sensor that reads "empty" is 70010, not a dump.
    expect(openAlarms(70003)).toEqual({ n: 0, open: null });
    // Loaded 20 t, then 14 t two reports later on the roadside: 6 t tipped outside every site.
    await report(20, { loaded: true, sealed: true, loadT: 20 }, { lng: 121.45, lat: 31.25 });
    await report(3, { loaded: true, sealed: true, loadT: 14 }, { lng: 121.45, lat: 31.25 });
    await settle();
    // Open again (a repeat this soon may merge into the earlier alarm row: the alarm service's merging).
    expect(openAlarms(70003).open).toBe(1);
    const dumps = openAlarms(70003).n;
    // The act is over on the next report.
    await report(20, { loaded: true, sealed: true, loadT: 14 }, { lng: 121.46, lat: 31.25 });
    await settle();
    expect(openAlarms(70003)).toEqual({ n: dumps, open: 0 });
    // Unloading inside the site is lawful.
    await report(0, { loaded: false, sealed: true, loadT: 0 }, { lng: 121.6005, lat: 31.3 });
    await settle();
    expect(openAlarms(70003)).toEqual({ n: dumps, open: 0 });

    // 40 t on a 31 t truck (tolerance 5 %): 70009 while it lasts.
    await report(0, { loaded: true, sealed: true, loadT: 40 }, { lng: 121.6005, lat: 31.3 });
    await settle();
    expect(openAlarms(70009)).toEqual({ n: 1, open: 1 });
    await report(0, { loaded: true, sealed: true, loadT: 30 }, { lng: 121.6005, lat: 31.3 });
    await settle();
    expect(openAlarms(70009)).toEqual({ n: 1, open: 0 });

    // This truck has reported loads: its sensor now gives none (0xFF) → 70010, ended when a load comes back.
    await report(0, { loaded: true, sealed: true, loadT: null }, { lng: 121.6005, lat: 31.3 });
    await settle();
    expect(openAlarms(70010).open).toBe(1);
    await report(0, { loaded: true, sealed: true, loadT: 30 }, { lng: 121.6005, lat: 31.3 });
    await settle();
    expect(openAlarms(70010).open).toBe(0);
  });

  it('raises 70008 for a loaded truck moving in the morning rush hour (07:00–09:00 China time), not once it has passed', async () => {
    // Step the test clock to the next 07:30 China time (23:30 UTC).
    const now = server.clock.now();
    const day = 86_400_000;
    const target = Math.floor((now - 23.5 * 3_600_000) / day) * day + 23.5 * 3_600_000 + day;
    server.clock.advance(target - now - 10_000);
    await report(30, { loaded: true, sealed: true, loadT: 20 });
    await server.app.alarms.idle();
    await new Promise((r) => setImmediate(r));
    await server.app.alarms.idle();
    expect(openAlarms(70008)).toEqual({ n: 1, open: 1 });
    server.clock.advance(2 * 3_600_000); // 09:30
    await report(30, { loaded: true, sealed: true, loadT: 20 });
    await server.app.alarms.idle();
    await new Promise((r) => setImmediate(r));
    await server.app.alarms.idle();
    expect(openAlarms(70008)).toEqual({ n: 1, open: 0 });
  });
});
