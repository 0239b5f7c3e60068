/**
 * Dictionary and system parameters (issue 19): validation in the caller's language, platform-only
 * changes, company scoping of the report thresholds (written where the report engine reads them), the
 * push notice to open consoles, and the live-video daily limit following the parameter without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParamKeys } from '../../../domain/system-config/params.ts';
import { connectPush } from '../../push/test-client.ts';
import { startServer, seededSignIns, type TestServer } from '../../test/harness.ts';
import { createUserWithRole, permissionId } from '../../test/users.ts';

let server: TestServer;
let admin: string;
let branchCompany: number;
let analyst: string;

interface ParamNode { id: number; paramKey: string; value: string | null; effective: string | null; editable: boolean; children?: ParamNode[] }
const flat = (nodes: ParamNode[]): ParamNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
async function param(token: string, key: string, companyId?: number): Promise<ParamNode> {
  const r = await server.call<{ tree: ParamNode[] }>('GET', `/service-priv/paramconfig/system/findAll${companyId ? `?companyId=${companyId}` : ''}`, { token });
  expect(r.code).toBe(200);
  return flat(r.data.tree).find((n) => n.paramKey === key)!;
}

beforeAll(async () => {
  server = await startServer();
  admin = (await seededSignIns(server)).admin;
  branchCompany = (await server.app.storage.users.findByUsername('branch'))!.companyId;
  // A company analyst: sees the parameter page and may change values, but is no platform administrator.
  analyst = await createUserWithRole(server, 'analyst19', branchCompany, [permissionId('/system'), permissionId('/system/param'), permissionId('/system/param:update'),
    permissionId('/system/dictionary'), permissionId('/system/dictionary:create')]);
});

afterAll(async () => {
  await server?.close();
});

describe('system parameters', () => {
  it('refuses an out-of-range value with the field named, in the caller\'s language, and writes nothing', async () => {
    const p = await param(admin, ParamKeys.videoAutoStopMinutes);
    const zh = await server.call<unknown>('POST', '/service-priv/paramconfig/system/update', { token: admin, body: { id: p.id, value: '121' }, lang: 'zh' });
    expect(zh.status).toBe(400);
    expect(zh.msg).toContain('不能大于 120');
    const en = await server.call<unknown>('POST', '/service-priv/paramconfig/system/update', { token: admin, body: { id: p.id, value: 'ten' }, lang: 'en' });
    expect(en.status).toBe(400);
    expect(en.msg).toContain('value');
    expect(en.msg).toContain('integer');
    expect((await param(admin, ParamKeys.videoAutoStopMinutes)).effective).toBe('5');
  });

  it('lets only a platform administrator change a platform parameter; the value is read at once and pushed to open consoles', async () => {
    const p = await param(analyst, ParamKeys.videoAutoStopMinutes);
    expect(p.editable).toBe(false);
    const refused = await server.call('POST', '/service-priv/paramconfig/system/update', { token: analyst, body: { id: p.id, value: '10' }, lang: 'en' });
    expect(refused.status).toBe(403);
    expect(refused.msg).toContain('platform administrator');

    const push = await connectPush(server.url, analyst, { format: 'json' });
    try {
      const done = await server.call('POST', '/service-priv/paramconfig/system/update', { token: admin, body: { id: p.id, value: '12' } });
      expect(done.code).toBe(200);
      const notice = await push.waitFor(() => {
        // Any command the test client does not know by name (configChanged among them) comes back as kind 'alarm'.
        for (const m of push.received) if (m.kind === 'alarm' && m.headers.mutation === 'CONFIG_CHANGED') return m;
        return undefined;
      });
      expect(notice.data).toMatchObject({ topic: 'params' });
    } finally {
      push.close();
    }
    expect(server.app.systemConfig.number(ParamKeys.videoAutoStopMinutes, 5)).toBe(12);
    const values = await server.call<{ values: Record<string, string> }>('GET', '/service-priv/paramconfig/system/values', { token: analyst });
    expect(values.data.values[ParamKeys.videoAutoStopMinutes]).toBe('12');
  });

  it('keeps report thresholds per company, inside the caller\'s subtree, where the report engine reads them', async () => {
    const key = 'fuel.refuelMinL';
    const p = await param(analyst, key);
    expect(p.editable).toBe(true);
    const set = await server.call('POST', '/service-priv/paramconfig/system/update', { token: analyst, body: { id: p.id, value: '25' } });
    expect(set.code).toBe(200);
    expect(await server.app.reportEngine.settings(branchCompany)).toMatchObject({ [key]: 25 });
    // Another company (the root, outside the analyst's subtree) keeps the default.
    expect((await param(admin, key, 1)).effective).toBe('10');
    const outside = await server.call('POST', '/service-priv/paramconfig/system/update', { token: analyst, body: { id: p.id, value: '30', companyId: 1 } });
    expect(outside.status).toBe(403);
    expect((await server.app.reportEngine.settings(1))[key]).toBeUndefined();
    // Above its limit (500 L): refused.
    const tooBig = await server.call('POST', '/service-priv/paramconfig/system/update', { token: analyst, body: { id: p.id, value: '501' }, lang: 'en' });
    expect(tooBig.status).toBe(400);
    expect(tooBig.msg).toContain('at most 500');
    // Back to the default.
    expect((await server.call('POST', '/service-priv/paramconfig/system/update', { token: analyst, body: { id: p.id, value: null } })).code).toBe(200);
    expect((await server.app.reportEngine.settings(branchCompany))[key]).toBeUndefined();
  });

  it('adds, validates and removes custom enum parameters; built-in ones cannot be removed', async () => {
    const created = await server.call<{ id: number }>('POST', '/service-priv/paramconfig/system/save', {
      token: admin, body: { paramKey: 'custom.mode', paramName: '模式', kind: 'enum', options: [{ value: 'a', zh: '甲' }, { value: 'b', zh: '乙' }], value: 'a' },
    });
    expect(created.code).toBe(200);
    const bad = await server.call('POST', '/service-priv/paramconfig/system/update', { token: admin, body: { id: created.data.id, value: 'c' }, lang: 'en' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('one of a, b');
    const builtin = await param(admin, ParamKeys.videoDailyLimit);
    const refuse = await server.call('GET', `/service-priv/paramconfig/system/remove?ids=${builtin.id}`, { token: admin, lang: 'en' });
    expect(refuse.status).toBe(400);
    expect((await server.call('GET', `/service-priv/paramconfig/system/remove?ids=${created.data.id}`, { token: admin })).code).toBe(200);
  });
});

describe('dictionary', () => {
  interface Kind { id: number; code: string; codeCnname: string; children: { id: number; code: string; codeCnname: string; builtin: boolean }[] }
  it('serves the seeded kinds to any console and lets only a platform administrator change them', async () => {
    const tree = await server.call<{ tree: Kind[] }>('GET', '/service-priv/dictionary/getTreeDictionaries?kind=plateColor', { token: analyst });
    expect(tree.code).toBe(200);
    const plate = tree.data.tree[0]!;
    expect(plate.children.map((c) => c.codeCnname)).toContain('黄色');

    const before = server.count('dictionary');
    const refused = await server.call('POST', '/service-priv/dictionary/save', { token: analyst, body: { parentId: plate.id, code: '7', codeCnname: '渐变绿' }, lang: 'zh' });
    expect(refused.status).toBe(403);
    expect(refused.msg).toContain('平台管理员');
    expect(server.count('dictionary')).toBe(before);

    const taken = await server.call('POST', '/service-priv/dictionary/save', { token: admin, body: { parentId: plate.id, code: '2', codeCnname: '黄' }, lang: 'en' });
    expect(taken.status).toBe(400);
    expect(taken.msg).toContain('taken');
    const added = await server.call<{ id: number }>('POST', '/service-priv/dictionary/save', { token: admin, body: { parentId: plate.id, code: '7', codeCnname: '渐变绿', codeEnname: 'Gradient green' } });
    expect(added.code).toBe(200);
    const yellow = plate.children.find((c) => c.code === '2')!;
    const del = await server.call('POST', '/service-priv/dictionary/delete', { token: admin, body: { ids: [yellow.id] }, lang: 'en' });
    expect(del.status).toBe(400);
    expect((await server.call('POST', '/service-priv/dictionary/delete', { token: admin, body: { ids: [added.data.id] } })).code).toBe(200);
  });
});
