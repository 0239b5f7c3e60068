import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import { startServer, type TestServer } from '../../test/harness.ts';
import { permissionId } from '../../test/users.ts';

const idOf = permissionId;

interface CompanyRec { id: number; pid: number; name: string; childCount: number; vehicleCount: number }
interface TreeNode { id: string; name: string; nodeType: 'C' | 'V' | 'L'; companyId: number; hasChildren: boolean; vehicleCount: number; deviceNo?: string }
interface Page<T> { records: T[]; total: number; current: number; size: number }

let server: TestServer;
let admin: string;
let branch: string;
let companies: CompanyRec[];
const byName = (name: string) => {
  const c = companies.find((x) => x.name === name);
  if (!c) throw new Error(`no company ${name}`);
  return c;
};

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  branch = await server.login('branch', 'branch123');
  companies = (await server.call<CompanyRec[]>('GET', '/service-priv/company/tree', { token: admin })).data;
});
afterAll(() => server.close());

describe('the permission guard', () => {
  it('answers 403 when the caller lacks the bit: a branch administrator deleting a user', async () => {
    const own = await server.call<Page<{ id: number; username: string }>>('GET', '/service-priv/user/page', { token: branch });
    const created = await server.call<{ id: number }>('POST', '/service-priv/user', {
      token: branch, body: { username: 'east_clerk', password: 'secret123', userLevel: 2, companyId: byName('华东分公司').id },
    });
    expect(created.code).toBe(200);
    const before = server.count('user');
    const r = await server.call('DELETE', `/service-priv/user?ids=${created.data.id}`, { token: branch, lang: 'en' });
    expect(r.status).toBe(403);
    expect(r.msg).toBe('Access denied');
    expect(server.count('user')).toBe(before);
    expect(own.code).toBe(200);
    // Addresses are on for a user created without the setting (issue 13).
    const listed = await server.call<Page<{ id: number; geoInverse: boolean }>>('GET', '/service-priv/user/page?size=500', { token: branch });
    expect(listed.data.records.find((u) => u.id === created.data.id)?.geoInverse).toBe(true);
  });

  it('answers 403 to a monitor-only operator opening the user list', async () => {
    const op = await server.login('operator', 'operator123');
    expect((await server.call('GET', '/service-priv/user/page', { token: op })).status).toBe(403);
    // Calls that only need a session still work.
    expect((await server.call('GET', '/service-priv/company/treeStruct', { token: op })).code).toBe(200);
  });

  it('lets an administrator through without any role', async () => {
    const r = await server.call('DELETE', '/service-priv/role?ids=999999', { token: admin });
    expect(r.status).toBe(404);
  });
});

describe('company scoping for a branch administrator', () => {
  it('lists only users of its own subtree', async () => {
    const page = await server.call<Page<{ companyId: number }>>('GET', '/service-priv/user/page?size=500', { token: branch });
    const east = byName('华东分公司').id;
    const eastIds = new Set(companies.filter((c) => c.id === east || c.pid === east).map((c) => c.id));
    expect(page.data.total).toBeGreaterThan(0);
    for (const u of page.data.records) expect(eastIds.has(u.companyId)).toBe(true);
  });

  it('cannot read or change a user of another branch: 404 as if it did not exist', async () => {
    const north = await server.call<{ id: number }>('POST', '/service-priv/user', {
      token: admin, body: { username: 'north_clerk', password: 'secret123', userLevel: 2, companyId: byName('华北分公司').id },
    });
    const put = await server.call('PUT', '/service-priv/user', { token: branch, body: { id: north.data.id, realName: 'hijacked' } });
    expect(put.status).toBe(404);
    const revoke = await server.call('POST', '/service-priv/user/revokeSessions', { token: branch, body: { id: north.data.id } });
    expect(revoke.status).toBe(404);
    const check = await server.call<Page<{ id: number; realName: string }>>('GET', '/service-priv/user/page?keyword=north_clerk', { token: admin });
    expect(check.data.records[0]?.realName).toBe('');
  });

  it('cannot read or change a company of another branch: 404', async () => {
    const north = byName('华北分公司');
    expect((await server.call('GET', `/service-priv/company/${north.id}`, { token: branch })).status).toBe(404);
    expect((await server.call('PUT', '/service-priv/company', { token: branch, body: { id: north.id, name: '改名' } })).status).toBe(404);
    expect((await server.call('GET', `/service-priv/company/${byName('华东分公司').id}`, { token: branch })).code).toBe(200);
  });

  it('answers 403 to a companyId filter outside its subtree', async () => {
    const r = await server.call('GET', `/service-priv/user/page?companyId=${byName('华南分公司').id}`, { token: branch });
    expect(r.status).toBe(403);
    const create = await server.call('POST', '/service-priv/user', {
      token: branch, body: { username: 'south_spy', password: 'secret123', userLevel: 2, companyId: byName('华南分公司').id },
    });
    expect(create.status).toBe(403);
  });

  it('can save its own user record with a role held from headquarters unchanged', async () => {
    const me = (await server.call<{ user: { id: number; roleIds: number[] } }>('GET', '/service-priv/user/current', { token: branch })).data.user;
    const r = await server.call<{ roleIds: number[] }>('PUT', '/service-priv/user', { token: branch, body: { id: me.id, realName: '赵分管', roleIds: me.roleIds } });
    expect(r.code).toBe(200);
    expect(r.data.roleIds).toEqual(me.roleIds);
  });

  it('cannot create a user above its own level', async () => {
    const r = await server.call('POST', '/service-priv/user', { token: branch, body: { username: 'east_admin', password: 'secret123', userLevel: 0 } });
    expect(r.status).toBe(403);
  });

  it('sees only its own subtree in the company tree', async () => {
    const tree = await server.call<CompanyRec[]>('GET', '/service-priv/company/tree', { token: branch });
    const east = byName('华东分公司');
    expect(tree.data.map((c) => c.id).sort()).toEqual(companies.filter((c) => c.id === east.id || c.pid === east.id).map((c) => c.id).sort());
  });
});

describe('malformed input', () => {
  const cases: [string, { raw?: string; body?: unknown }, string][] = [
    ['bad JSON', { raw: '{"username": "x", ' }, 'The request body is not valid JSON'],
    ['a missing field', { body: { password: 'secret123', userLevel: 2 } }, 'Field username is required'],
    ['an unknown field', { body: { username: 'okname', password: 'secret123', userLevel: 2, isRoot: true } }, 'Field isRoot is not allowed'],
    ['a wrong type', { body: { username: 'okname', password: 'secret123', userLevel: 'two' } }, 'Field userLevel is invalid: must be an integer'],
    ['a value out of range', { body: { username: 'okname', password: 'secret123', userLevel: 7 } }, 'Field userLevel is invalid: must be at most 2'],
    ['a wrong type inside a list', { body: { username: 'okname', password: 'secret123', userLevel: 2, roleIds: [1, 'x'] } }, 'Field roleIds[1] is invalid: must be an integer'],
  ];

  it.each(cases)('answers 400 naming the problem for %s, and writes nothing', async (_name, input, msg) => {
    const before = { user: server.count('user'), userRole: server.count('user_role') };
    const r = await server.call('POST', '/service-priv/user', { token: admin, lang: 'en', ...input });
    expect(r.status).toBe(400);
    expect(r.code).toBe(400);
    expect(r.msg).toBe(msg);
    expect({ user: server.count('user'), userRole: server.count('user_role') }).toEqual(before);
  });

  it('answers in Chinese by default', async () => {
    const r = await server.call('POST', '/service-priv/role', { token: admin, body: { remark: 'x' } });
    expect(r.msg).toBe('字段 name 不能为空');
  });

  it('writes nothing when a later check of a multi-row write fails', async () => {
    const before = server.count('role_permission');
    const role = (await server.call<{ id: number }[]>('GET', '/service-priv/role/list', { token: admin })).data[0];
    const r = await server.call('POST', '/service-priv/role/role_permissions', { token: admin, body: { roleId: role?.id, permissionIds: [1, 2, 99999] } });
    expect(r.status).toBe(400);
    expect(r.msg).toContain('permissionIds');
    expect(server.count('role_permission')).toBe(before);
  });

  it('answers 404 in the envelope for an unknown call', async () => {
    const r = await server.call('GET', '/service-priv/no/such/call', { token: admin });
    expect(r.status).toBe(404);
    expect(r.code).toBe(404);
  });
});

describe('roles and permissions', () => {
  it('round-trips role permissions and the holder sees the merged masks at login', async () => {
    const ids = [idOf('/report'), idOf('/report/temperatureReport'), idOf('/system'), idOf('/system/user'), idOf('/system/user:video')];
    const role = await server.call<{ id: number }>('POST', '/service-priv/role', { token: admin, body: { name: '报表员', permissionIds: ids.slice(0, 2) } });
    expect(role.code).toBe(200);
    const set = await server.call<{ roleId: number; permissionIds: number[]; permissions: unknown }>('POST', '/service-priv/role/role_permissions', {
      token: admin, body: { roleId: role.data.id, permissionIds: ids },
    });
    expect(set.data.permissionIds).toEqual([...ids].sort((a, b) => a - b));
    expect(set.data.permissions).toEqual(masksFromIds(ids));
    const got = await server.call<{ permissionIds: number[] }>('GET', `/service-priv/role/role_permissions?roleId=${role.data.id}`, { token: admin });
    expect(got.data.permissionIds).toEqual(set.data.permissionIds);

    await server.call('POST', '/service-priv/user', { token: admin, body: { username: 'reporter', password: 'secret123', userLevel: 2, roleIds: [role.data.id] } });
    const login = await server.call<{ user: { permissions: unknown } }>('POST', '/service-priv/login', { body: { username: 'reporter', password: 'secret123', loginType: 'login' } });
    expect(login.data.user.permissions).toEqual(masksFromIds(ids));

    const del = await server.call<{ permissionIds: number[] }>('POST', '/service-priv/priv/delPriv', { token: admin, body: { roleId: role.data.id, ids: [idOf('/system/user:video')] } });
    expect(del.data.permissionIds).not.toContain(idOf('/system/user:video'));
    const add = await server.call<{ permissionIds: number[] }>('POST', '/service-priv/priv/addPriv', { token: admin, body: { roleId: role.data.id, ids: [idOf('/system/user:video')] } });
    expect(add.data.permissionIds).toContain(idOf('/system/user:video'));
  });

  it('refuses a branch administrator granting a permission it does not hold', async () => {
    const r = await server.call('POST', '/service-priv/role', { token: branch, body: { name: '越权', permissionIds: [idOf('/system/user:delete')] } });
    expect(r.status).toBe(403);
    const okRole = await server.call('POST', '/service-priv/role', { token: branch, body: { name: '查询员', permissionIds: [idOf('/system'), idOf('/system/user')] } });
    expect(okRole.code).toBe(200);
  });

  it('serves permission records with offset and bit, and the tree under "all permissions"', async () => {
    const list = await server.call<{ id: number; offset: number; permissions: number; routeKey: string }[]>('GET', '/service-priv/permissions', { token: admin });
    const rec = list.data.find((p) => p.id === 31);
    expect(rec).toMatchObject({ offset: 2, permissions: 2, routeKey: '/safeManagement/alarm/statistics' });
    const tree = await server.call<{ id: number; name: string; children: { routeKey: string }[] }>('GET', '/service-priv/priv/findAllPrivTree', { token: admin, lang: 'en' });
    expect(tree.data).toMatchObject({ id: 0, name: 'All permissions' });
    expect(tree.data.children[0]?.routeKey).toBe('/home');
  });

  it('moves a permission among its siblings and keeps the order', async () => {
    const move = await server.call<{ id: number }[]>('GET', `/service-priv/permissions/move?id=${idOf('/monitor')}&direction=up`, { token: admin });
    expect(move.code).toBe(200);
    expect(move.data.slice(0, 2).map((p) => p.id)).toEqual([idOf('/monitor'), idOf('/home')]);
    const tree = await server.call<{ children: { id: number }[] }>('GET', '/service-priv/priv/findAllPrivTree', { token: admin });
    expect(tree.data.children.slice(0, 2).map((c) => c.id)).toEqual([idOf('/monitor'), idOf('/home')]);
    const back = await server.call<{ id: number }[]>('GET', `/service-priv/permissions/move?id=${idOf('/monitor')}&direction=down`, { token: admin });
    expect(back.data.slice(0, 2).map((p) => p.id)).toEqual([idOf('/home'), idOf('/monitor')]);
  });

  it('renames a permission record', async () => {
    const r = await server.call<{ name: string; nameEn: string }>('POST', '/service-priv/permissions', { token: admin, body: { id: idOf('/home'), name: '首页看板', nameEn: 'Home board' } });
    expect(r.data).toMatchObject({ name: '首页看板', nameEn: 'Home board' });
  });
});

describe('companies', () => {
  it('refuses to delete a company that still has subcompanies or vehicles (409) and deletes an empty one', async () => {
    const north = byName('华北分公司');
    const before = server.count('company');
    const r = await server.call('DELETE', `/service-priv/company?ids=${north.id}`, { token: admin, lang: 'en' });
    expect(r.status).toBe(409);
    expect(r.msg).toContain('subcompanies');
    expect(server.count('company')).toBe(before);
    const created = await server.call<{ id: number }>('POST', '/service-priv/company', { token: admin, body: { pid: north.id, name: '临时车队' } });
    const del = await server.call<{ deleted: number }>('DELETE', `/service-priv/company?ids=${created.data.id}`, { token: admin });
    expect(del.data.deleted).toBe(1);
    expect(server.count('company')).toBe(before);
  });

  it('refuses to move a company under its own subtree (400) and moves it elsewhere with its subtree', async () => {
    const east = byName('华东分公司');
    const fleet = companies.find((c) => c.pid === east.id);
    const r = await server.call('PUT', '/service-priv/company', { token: admin, body: { id: east.id, pid: fleet?.id } });
    expect(r.status).toBe(400);
    const a = await server.call<{ id: number }>('POST', '/service-priv/company', { token: admin, body: { pid: 1, name: '测试A' } });
    const b = await server.call<{ id: number }>('POST', '/service-priv/company', { token: admin, body: { pid: a.data.id, name: '测试B' } });
    const c = await server.call<{ id: number }>('POST', '/service-priv/company', { token: admin, body: { pid: b.data.id, name: '测试C' } });
    const moved = await server.call<CompanyRec>('PUT', '/service-priv/company', { token: admin, body: { id: b.data.id, pid: east.id } });
    expect(moved.data.pid).toBe(east.id);
    // The grandchild moved with it: the branch administrator of 华东 now sees it.
    expect((await server.call('GET', `/service-priv/company/${c.data.id}`, { token: branch })).code).toBe(200);
  });

  it('pages companies with child and vehicle counts', async () => {
    const page = await server.call<Page<CompanyRec>>('GET', '/service-priv/company/page?pid=1&size=10', { token: admin });
    const south = page.data.records.find((c) => c.name === '华南分公司');
    expect(south?.childCount).toBe(2);
    expect(south?.vehicleCount).toBeGreaterThan(0);
  });
});

describe('the company tree panel', () => {
  it('answers the caller roots, then children: companies, lines, vehicles with subtree counts', async () => {
    const roots = await server.call<TreeNode[]>('GET', '/service-priv/company/treeStruct', { token: admin });
    expect(roots.data[0]).toMatchObject({ id: 'C_1', nodeType: 'C', vehicleCount: 50, hasChildren: true });
    const south = byName('华南分公司');
    const fleets = await server.call<TreeNode[]>('GET', `/service-priv/company/treeStruct?nodeId=C_${south.id}`, { token: admin });
    expect(fleets.data.every((n) => n.nodeType === 'C')).toBe(true);
    expect(fleets.data.reduce((a, n) => a + n.vehicleCount, 0)).toBe(fleets.data.length ? (await server.call<CompanyRec>('GET', `/service-priv/company/${south.id}`, { token: admin })).data.vehicleCount : 0);
    const bus = fleets.data.find((n) => n.name === '深圳公交车队');
    const busChildren = await server.call<TreeNode[]>('GET', `/service-priv/company/treeStruct?nodeId=${bus?.id}`, { token: admin });
    const types = busChildren.data.map((n) => n.nodeType);
    expect(types[0]).toBe('L');
    expect(types.lastIndexOf('L')).toBeLessThan(types.indexOf('V') === -1 ? Infinity : types.indexOf('V'));
    const line = busChildren.data.find((n) => n.nodeType === 'L' && n.hasChildren);
    const onLine = await server.call<TreeNode[]>('GET', `/service-priv/company/treeStruct?nodeId=${line?.id}`, { token: admin });
    expect(onLine.data.length).toBe(line?.vehicleCount);
    expect(onLine.data[0]?.deviceNo).toMatch(/^\d{12}$/);
  });

  it('gives a branch administrator its own company as the root and 404 outside it', async () => {
    const roots = await server.call<TreeNode[]>('GET', '/service-priv/company/treeStruct', { token: branch });
    expect(roots.data.map((n) => n.name)).toEqual(['华东分公司']);
    expect((await server.call('GET', `/service-priv/company/treeStruct?nodeId=C_${byName('华北分公司').id}`, { token: branch })).status).toBe(404);
  });

  it('finds companies and lines by name and vehicles by plate or device number, with the ancestor path', async () => {
    const found = await server.call<{ node: TreeNode; path: string[] }[]>('GET', `/service-priv/company/treeSearch?keyword=${encodeURIComponent('公交')}`, { token: admin });
    const bus = found.data.find((r) => r.node.name === '深圳公交车队');
    expect(bus?.path).toEqual(['C_1', `C_${byName('华南分公司').id}`]);
    const vehicle = (await server.call<TreeNode[]>('GET', `/service-priv/company/treeStruct?nodeId=C_${byName('北京第一车队').id}`, { token: admin })).data.find((n) => n.nodeType === 'V');
    const byDevice = await server.call<{ node: TreeNode; path: string[] }[]>('GET', `/service-priv/company/treeSearch?keyword=${vehicle?.deviceNo}`, { token: admin });
    expect(byDevice.data[0]?.node.id).toBe(vehicle?.id);
    expect(byDevice.data[0]?.path).toEqual(['C_1', `C_${byName('华北分公司').id}`, `C_${byName('北京第一车队').id}`]);
    const byPlate = await server.call<{ node: TreeNode }[]>('GET', `/service-priv/company/treeSearch?keyword=${encodeURIComponent(vehicle?.name ?? '')}`, { token: admin });
    expect(byPlate.data.map((r) => r.node.id)).toContain(vehicle?.id);
    // A line by its name, under its company
    const line = await server.call<{ node: TreeNode; path: string[] }[]>('GET', `/service-priv/company/treeSearch?keyword=${encodeURIComponent('机场快')}`, { token: admin });
    expect(line.data.map((r) => [r.node.nodeType, r.node.name])).toEqual([['L', '机场快线']]);
    expect(line.data[0]?.path).toEqual(['C_1', `C_${byName('华南分公司').id}`, `C_${byName('深圳公交车队').id}`]);
    expect(line.data[0]?.node.vehicleCount).toBeGreaterThanOrEqual(0);
    // A branch administrator does not find vehicles of another branch.
    const hidden = await server.call<unknown[]>('GET', `/service-priv/company/treeSearch?keyword=${vehicle?.deviceNo}`, { token: branch });
    expect(hidden.data).toEqual([]);
  });
});
