/**
 * Authority holes of issue 12 §3, tried as the seeded sub-tree administrator `branch` (华东分公司)
 * would: naming a foreign parent company, and changing the global permission catalogue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COMPANIES } from '../../db/scope.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { permissionId } from '../../test/users.ts';

interface CompanyRec { id: number; pid: number; name: string }
interface PermissionRec { id: number; pid: number; name: string; nameEn: string; sort: number }

const idOf = permissionId;

let server: TestServer;
let admin: string;
let branch: string;
/** A company of the branch administrator's subtree, and one outside it (another branch). */
let own: CompanyRec;
let foreign: CompanyRec;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  branch = await server.login('branch', 'branch123');
  const all = (await server.call<CompanyRec[]>('GET', '/service-priv/company/tree', { token: admin })).data;
  const mine = (await server.call<CompanyRec[]>('GET', '/service-priv/company/tree', { token: branch })).data;
  own = mine.find((c) => c.name === '华东分公司')!;
  foreign = all.find((c) => c.pid !== 0 && !mine.some((m) => m.id === c.id))!;
  expect(own).toBeDefined();
  expect(foreign).toBeDefined();
});
afterAll(() => server.close());

const companyNames = async () => (await server.app.storage.companies.listAll(ALL_COMPANIES)).map((c) => c.name);

describe('a sub-tree administrator naming a company outside its subtree', () => {
  it('is refused with 403 when the new company\'s parent is foreign (attack: planting a company in another branch)', async () => {
    const before = server.count('company');
    const r = await server.call('POST', '/service-priv/company', { token: branch, lang: 'en', body: { pid: foreign.id, name: '越权车队' } });
    expect(r.status).toBe(403);
    expect(r.msg).toBe('You have no access to that company');
    expect(server.count('company')).toBe(before);
    expect(await companyNames()).not.toContain('越权车队');
  });

  it('is refused with 403 when the selected companyId is foreign, even with an own parent (no silent re-parenting)', async () => {
    const before = server.count('company');
    const r = await server.call('POST', '/service-priv/company', { token: branch, body: { pid: own.id, companyId: foreign.id, name: '换父车队' } });
    expect(r.status).toBe(403);
    expect(r.msg).toBe('无权访问该公司的数据');
    expect(server.count('company')).toBe(before);
  });

  it('cannot tell a foreign company from a missing one (attack: probing company ids)', async () => {
    const r = await server.call('POST', '/service-priv/company', { token: branch, lang: 'en', body: { pid: 9_999_999, name: '探测' } });
    expect(r.status).toBe(403);
    expect(r.msg).toBe('You have no access to that company');
  });

  it('is refused with 403 when moving an own company under a foreign parent', async () => {
    const made = await server.call<{ id: number }>('POST', '/service-priv/company', { token: branch, body: { pid: own.id, companyId: own.id, name: '本部车队' } });
    expect(made.status).toBe(200);
    const r = await server.call('PUT', '/service-priv/company', { token: branch, lang: 'en', body: { id: made.data.id, pid: foreign.id } });
    expect(r.status).toBe(403);
    expect(r.msg).toBe('You have no access to that company');
    const viaCompanyId = await server.call('PUT', '/service-priv/company', { token: branch, body: { id: made.data.id, companyId: foreign.id, name: '改名' } });
    expect(viaCompanyId.status).toBe(403);
    const stored = await server.app.storage.companies.get(ALL_COMPANIES, made.data.id);
    expect(stored?.pid).toBe(own.id);
    expect(stored?.name).toBe('本部车队');
  });
});

describe('the permission catalogue belongs to the super administrator', () => {
  beforeAll(async () => {
    // Give the branch role the catalogue bits: the refusal must come from the level rule, not a missing bit.
    const role = (await server.app.storage.roles.list(ALL_COMPANIES)).find((r) => r.name === '分公司管理员')!;
    await server.app.storage.transaction((tx) => tx.roles.addPermissions(role.id, [idOf('/system'), idOf('/system/privilege'), idOf('/system/privilege:update')]));
  });

  const permission = async (id: number) => (await server.call<PermissionRec[]>('GET', '/service-priv/permissions', { token: admin })).data.find((p) => p.id === id)!;

  it('refuses a sub-tree administrator renaming a global node, with 403 and nothing changed', async () => {
    const home = idOf('/home');
    const before = await permission(home);
    const r = await server.call('POST', '/service-priv/permissions', { token: branch, lang: 'en', body: { id: home, name: '被改名', nameEn: 'Renamed' } });
    expect(r.status).toBe(403);
    expect(r.msg).toBe('Only a super administrator can change the permission catalogue');
    expect(await permission(home)).toEqual(before);
  });

  it('refuses a sub-tree administrator moving a global node, with 403 and the order unchanged', async () => {
    const monitor = idOf('/monitor');
    const order = (await server.call<PermissionRec[]>('GET', '/service-priv/permissions', { token: admin })).data.map((p) => [p.id, p.sort]);
    const r = await server.call('GET', `/service-priv/permissions/move?id=${monitor}&direction=up`, { token: branch });
    expect(r.status).toBe(403);
    expect(r.msg).toBe('只有超级管理员可以修改权限目录');
    expect((await server.call<PermissionRec[]>('GET', '/service-priv/permissions', { token: admin })).data.map((p) => [p.id, p.sort])).toEqual(order);
  });

  it('still lets the super administrator rename a node', async () => {
    const r = await server.call<PermissionRec>('POST', '/service-priv/permissions', { token: admin, body: { id: idOf('/home'), name: '首页' } });
    expect(r.status).toBe(200);
    expect(r.data.name).toBe('首页');
  });
});
