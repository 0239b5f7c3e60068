/**
 * Issue 19's done-when test: EVERY state-changing route of app.routeTable (so routes added later are
 * walked too) refused for a caller without its permission answers 403, writes exactly one audit row
 * (result refused, the route's page and button) and nothing else; real successful calls of a
 * representative set write one row each with the right page, button and targets. Plus the screens'
 * reads: by page, by button, by device, page visits and online duration, company-scoped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vinCheckDigit } from '../../../domain/fleet/vin.ts';
import type { RouteRecord } from '../../http/route.ts';
import { changedTables, fingerprint } from '../../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { pageAndButton } from './hook.ts';

let server: TestServer;
let admin: string;
let nobody: string;
const db = () => (server.app.storage as SqliteStorage).db;

interface AuditDb { id: number; user_name: string; method: string; route: string; page: string; button: string; result: string; status: number; targets: string; company_path: string }
const lastRows = (afterId: number) => db().prepare('SELECT * FROM audit_log WHERE id > ? ORDER BY id').all(afterId) as AuditDb[];
const maxId = () => (db().prepare('SELECT COALESCE(MAX(id), 0) AS n FROM audit_log').get() as { n: number }).n;

function vin(seq: number): string {
  const stem = `LFV2A21K${String(seq).padStart(8, '0')}`;
  const draft = `${stem.slice(0, 8)}0${stem.slice(8)}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

/** A concrete URL of a route pattern: each `:param` becomes 1, a wildcard `x`. */
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, '1').replace(/\*/g, 'x');

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  // A signed-in user of the root company with no permission at all: every keyed route refuses them.
  nobody = await createUserWithRole(server, 'audit_nobody', 1, []);
  await server.app.audit.flush();
}, 120_000);
afterAll(async () => server?.close());

describe('the audit hook over every state-changing route', () => {
  it('refuses each keyed write of a user without its bit with 403, one refused row and nothing else written', async () => {
    // Audited as the hook decided it at registration (app.auditTable): a route declaring `audit: false` is left out here
    // and walked by the read test below instead.
    const audited = new Set(server.app.auditTable.filter((a) => a.audited && a.method !== 'HEAD').map((a) => `${a.method} ${a.url}`));
    const writes = server.app.routeTable.filter((r: RouteRecord) => audited.has(`${r.method} ${r.url}`)
      && r.permission !== 'public' && r.permission !== 'session');
    // The walk covers the whole server, not a list: every module's writes are here.
    expect(writes.length).toBeGreaterThan(100);
    const before = fingerprint(server.app);
    const problems: string[] = [];
    for (const r of writes) {
      const from = maxId();
      // A GET that declares audit: true (it changes state) is walked too, without a body.
      const res = await fetch(server.url + concrete(r.url), r.method === 'GET' ? { headers: { 'x-jwt': nobody } }
        : { method: r.method, headers: { 'x-jwt': nobody, 'content-type': 'application/json' }, body: '{}' });
      await server.app.audit.flush();
      const rows = lastRows(from);
      const keys = typeof r.permission === 'string' ? [r.permission] : r.permission;
      const expected = pageAndButton(keys[0]!);
      if (res.status !== 403) problems.push(`${r.method} ${r.url}: ${res.status}, expected 403`);
      if (rows.length !== 1) problems.push(`${r.method} ${r.url}: ${rows.length} audit rows`);
      else {
        const row = rows[0]!;
        if (row.result !== 'refused' || row.user_name !== 'audit_nobody' || row.route !== r.url || row.method !== r.method
          || row.page !== expected.page || row.button !== expected.button || row.company_path !== '/1/') {
          problems.push(`${r.method} ${r.url}: row ${JSON.stringify(row)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  }, 600_000);

  it('a real vehicle create, update and delete, a command send and a role change write one row each with page, button and targets', async () => {
    let from = maxId();
    const created = await server.call<{ id: number }>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '审A·00001', vin: vin(901) } });
    expect(created.code).toBe(200);
    const vid = created.data.id;
    const upd = await server.call('PUT', '/service-priv/vehicle', { token: admin, body: { id: vid, remark: '审计' } });
    expect(upd.code).toBe(200);
    // A command goes to a seeded vehicle with a terminal (offline here: the task is stored and waits).
    const sid = (db().prepare('SELECT id FROM vehicle WHERE device_no IS NOT NULL ORDER BY id LIMIT 1').get() as { id: number }).id;
    const task = await server.call('POST', '/service-command/params/task', { token: admin, body: { vehicleIds: [sid], params: [{ id: 0x0055, value: 90 }] } });
    expect([task.status, task.msg]).toEqual([200, expect.any(String)]);
    const role = await server.call<{ id: number }>('POST', '/service-priv/role', { token: admin, body: { name: '审计角色' } });
    const grant = await server.call('POST', '/service-priv/role/role_permissions', { token: admin, body: { roleId: role.data.id, permissionIds: [permissionId('/system/user_operate/operateByPage')] } });
    expect(grant.code).toBe(200);
    const del = await server.call('DELETE', '/service-priv/vehicle', { token: admin, body: { ids: [vid] } });
    expect(del.code).toBe(200);
    await server.app.audit.flush();
    const rows = lastRows(from).map((r) => [r.method, r.route, r.page, r.button, r.result, r.targets]);
    expect(rows).toEqual([
      ['POST', '/service-priv/vehicle', '/information/vehicle', '/information/vehicle:create', 'ok', `vehicle:${vid}`],
      ['PUT', '/service-priv/vehicle', '/information/vehicle', '/information/vehicle:update', 'ok', `vehicle:${vid}`],
      ['POST', '/service-command/params/task', '/information/params/baseParam', '/information/params/baseParam:set', 'ok', `vehicle:${sid}`],
      ['POST', '/service-priv/role', '/system/role', '/system/role:create', 'ok', `record:${role.data.id}`],
      ['POST', '/service-priv/role/role_permissions', '/system/role', '/system/role:update', 'ok', `role:${role.data.id},permission:${permissionId('/system/user_operate/operateByPage')}`],
      ['DELETE', '/service-priv/vehicle', '/information/vehicle', '/information/vehicle:delete', 'ok', `vehicle:${vid}`],
    ]);

    // An invalid call is recorded as invalid, a sign-in and a sign-out with their user.
    from = maxId();
    expect((await server.call('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '' } })).status).toBe(400);
    const t = await server.login('admin', 'admin123');
    await server.call('POST', '/service-priv/logout', { token: t });
    await server.app.audit.flush();
    expect(lastRows(from).map((r) => [r.route, r.result, r.user_name])).toEqual([
      ['/service-priv/vehicle', 'invalid', 'admin'], ['/service-priv/login', 'ok', 'admin'], ['/service-priv/logout', 'ok', 'admin'],
    ]);

    // The screens read it: by page, by button, by device and the rows of one vehicle.
    const byPage = await server.call<Array<{ key: string; total: number; ok: number }>>('GET', '/service-priv/useroperate/byPage', { token: admin });
    expect(byPage.data.find((x) => x.key === '/information/vehicle')).toMatchObject({ ok: 3 });
    const byButton = await server.call<Array<{ key: string; total: number }>>('GET', '/service-priv/useroperate/byButton', { token: admin, lang: 'zh' });
    expect(byButton.data.find((x) => x.key === '/information/vehicle:delete')).toMatchObject({ total: 2, ok: 1, refused: 1, name: '车辆管理 / 删除' }); // the walk's refused call and the real one
    const byDevice = await server.call<Array<{ kind: string; id: number; total: number }>>('GET', '/service-priv/useroperate/byDevice', { token: admin });
    expect(byDevice.data.find((x) => x.kind === 'vehicle' && x.id === vid)).toMatchObject({ total: 3 });
    const list = await server.call<{ total: number; records: Array<{ button: string }> }>('GET', `/service-priv/useroperate/page?vehicleId=${vid}`, { token: admin });
    expect(list.data.total).toBe(3);
    expect(list.data.records[0]!.button).toBe('/information/vehicle:delete');
  }, 120_000);

  it('no call updates or deletes the trail, and the table refuses an update', () => {
    const touching = server.app.routeTable.filter((r) => /useroperate|pageview|useraction/.test(r.url) && r.method !== 'GET' && r.method !== 'HEAD');
    expect(touching.map((r) => r.url)).toEqual(['/service-priv/pageview/add']);
    expect(() => db().prepare("UPDATE audit_log SET result = 'ok'").run()).toThrow(/append-only/);
  });
});

describe("a list row's calls (the row drawer's section)", () => {
  it("lists the calls that named a driver row, as its own id or as driverId elsewhere, and not another company's caller's calls", async () => {
    const d = await server.call<{ id: number }>('POST', '/service-priv/driver', { token: admin, body: { name: '审计司机' } });
    expect(d.code).toBe(200);
    const other = await server.call<{ id: number }>('POST', '/service-priv/driver', { token: admin, body: { name: '别的司机' } });
    expect((await server.call('PUT', '/service-priv/driver', { token: admin, body: { id: d.data.id, remark: '改' } })).code).toBe(200);
    expect((await server.call('PUT', '/service-priv/driver', { token: admin, body: { id: other.data.id, remark: '改' } })).code).toBe(200);
    // A refused call on the row is in its trail too.
    // (The refusal comes before the body is read: the query names the row, as the delete calls of the lists do.)
    expect((await server.call('DELETE', `/service-priv/driver?ids=${d.data.id}`, { token: nobody })).status).toBe(403);
    // The same number as another screen's record is not this row's call.
    await server.call('PUT', '/service-priv/role', { token: admin, body: { id: d.data.id, name: 'x' } });
    await server.app.audit.flush();
    type Calls = { total: number; records: Array<{ button: string; result: string; userName: string }> };
    const q = `/service-priv/useroperate/page?recordPage=${encodeURIComponent('/information/driver')}&recordId=${d.data.id}`;
    const mine = await server.call<Calls>('GET', q, { token: admin });
    expect(mine.data.records.map((r) => [r.button, r.result, r.userName])).toEqual([
      ['/information/driver:delete', 'refused', 'audit_nobody'],
      ['/information/driver:update', 'ok', 'admin'],
      ['/information/driver:create', 'ok', 'admin'],
    ]);
    // Attack: a reader of the audit trail in company 2 asks for a root-company row's calls: none of them shows.
    const reader = await createUserWithRole(server, 'audit_reader2', 2, ['/system', '/system/user_operate', '/system/user_operate/operateByPage'].map(permissionId));
    const foreign = await server.call<Calls>('GET', q, { token: reader });
    expect([foreign.status, foreign.data.total]).toEqual([200, 0]);
    // Without an audit screen's bit the row's calls are refused.
    expect((await server.call('GET', q, { token: nobody })).status).toBe(403);
  });
});

describe('reads sent as POST are not in the trail', () => {
  it('every route declaring audit: false is a read: an administrator calling it writes nothing and no audit row (a write that declared it would fail here)', async () => {
    const declaredOff = server.app.auditTable.filter((a) => a.declared === false);
    // page/list/query/search calls of the reports, monitor, notices, resources, …: the sweep found them all.
    expect(declaredOff.length).toBeGreaterThan(30);
    expect(declaredOff.map((a) => `${a.method} ${a.url}`)).toContain('POST /service-priv/notice/user/page');
    const problems: string[] = [];
    for (const a of declaredOff) {
      if (a.url === '/service-priv/pageview/add') continue; // a visit: its own record, in page_view
      // A write verb in the path cannot be a read, whatever the call answers.
      if (/^(add|save|update|modify|delete|remove|create|import|upload|send|publish|withdraw|enable|disable|bind|unbind|read|cancel|do[A-Z])/.test(a.url.split('/').pop()!)) {
        problems.push(`${a.method} ${a.url}: named as a write`);
      }
      const before = fingerprint(server.app);
      const from = maxId();
      const res = await fetch(server.url + concrete(a.url), { method: a.method, headers: { 'x-jwt': admin, 'content-type': 'application/json' }, body: '{}' });
      // Read the answer to its end: the server's onResponse (where the hook records) fires once it is sent.
      await res.arrayBuffer();
      await server.app.audit.flush();
      if (res.status >= 500) problems.push(`${a.method} ${a.url}: ${res.status}`);
      const changed = changedTables(before, fingerprint(server.app));
      if (changed.length) problems.push(`${a.method} ${a.url} wrote ${changed.join(', ')}`);
      // This route's own rows: a row of another call landing in the same window (a CI run once saw one beside
      // batchrealtime) says nothing about this route.
      if (lastRows(from).some((r) => r.route === a.url && r.method === a.method)) problems.push(`${a.method} ${a.url}: audited`);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('a user reading their notices leaves no row; marking one read does', async () => {
    const from = maxId();
    expect((await server.call('POST', '/service-priv/notice/user/page', { token: admin, body: {} })).code).toBe(200);
    expect((await server.call('POST', '/service-priv/notice/user/read', { token: admin, body: { all: true } })).status).toBeLessThan(500);
    await server.app.audit.flush();
    expect(lastRows(from).map((r) => r.route)).toEqual(['/service-priv/notice/user/read']);
  });
});

describe('HEAD on a GET that changes state (review finding)', () => {
  it('attack: HEAD on a GET that deletes (audit: true) answers 405 and deletes nothing; the GET itself still deletes and is recorded', async () => {
    const id = Number(db().prepare("INSERT INTO sys_param (param_key, param_name, kind) VALUES ('audit_head_probe', 'HEAD 探测', 'text')").run().lastInsertRowid);
    const exists = () => db().prepare('SELECT 1 FROM sys_param WHERE id = ?').get(id) !== undefined;
    const from = maxId();
    const head = await fetch(`${server.url}/service-priv/paramconfig/system/remove?ids=${id}`, { method: 'HEAD', headers: { 'x-jwt': admin } });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
    expect(exists()).toBe(true);
    await server.app.audit.flush();
    expect(lastRows(from)).toEqual([]);
    const removed = await server.call('GET', `/service-priv/paramconfig/system/remove?ids=${id}`, { token: admin });
    expect(removed.code).toBe(200);
    expect(exists()).toBe(false);
    await server.app.audit.flush();
    expect(lastRows(from).map((r) => `${r.method} ${r.route}`)).toEqual(['GET /service-priv/paramconfig/system/remove']);
  });
});

describe('page visits and online duration', () => {
  it('records visits of registry pages, lists them company-scoped, and sums sessions per user and day', async () => {
    const viewer = await createUserWithRole(server, 'audit_viewer', 2, ['/system', '/system/user_action', '/system/user_action/detail', '/system/user_action/online_duration'].map(permissionId));
    expect((await server.call('POST', '/service-priv/pageview/add', { token: viewer, body: { page: '/information/vehicle' } })).code).toBe(200);
    const bad = await server.call('POST', '/service-priv/pageview/add', { token: viewer, lang: 'en', body: { page: '/no/such' } });
    expect([bad.status, bad.msg]).toEqual([400, 'No such page']);
    await server.call('POST', '/service-priv/pageview/add', { token: admin, body: { page: '/system/user' } });
    await server.app.audit.flush();
    const mine = await server.call<{ records: Array<{ userName: string; page: string; pageName: string }> }>('GET', '/service-priv/pageview/page', { token: viewer, lang: 'zh' });
    expect([mine.status, mine.msg]).toEqual([200, expect.any(String)]);
    // The viewer's company (2) sees its own visit, not the administrator's of the root company.
    expect(mine.data.records.map((r) => [r.userName, r.page, r.pageName])).toEqual([['audit_viewer', '/information/vehicle', '车辆管理']]);
    const all = await server.call<{ records: Array<{ userName: string }> }>('GET', '/service-priv/pageview/page', { token: admin });
    expect(all.data.records.map((r) => r.userName)).toEqual(expect.arrayContaining(['admin', 'audit_viewer']));
    const online = await server.call<{ records: Array<{ userName: string; seconds: number; sessions: number }> }>('GET', '/service-priv/useraction/onlineDuration', { token: admin });
    expect(online.data.records.find((r) => r.userName === 'audit_viewer')).toMatchObject({ sessions: 1 });
    // The by-page screen needs its own bit.
    expect((await server.call('GET', '/service-priv/useroperate/byPage', { token: viewer })).status).toBe(403);
  });
});
