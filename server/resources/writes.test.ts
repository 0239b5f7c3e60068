/**
 * The one place every resource write passes: a hook registered on `app.resourceWrites` sees each
 * create, update, delete and import of every declared resource, in the write's transaction (a hook
 * that fails rolls the write back).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WriteEvent } from './resource.ts';
import { startServer, type TestServer } from '../test/harness.ts';

let server: TestServer;
let admin: string;
const events: Omit<WriteEvent, 'sessionId'>[] = [];
let failNext = false;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  server.app.resourceWrites.onWrite(async (_tx, { sessionId: _s, ...e }) => {
    if (failNext) {
      failNext = false;
      throw new Error('hook refused');
    }
    events.push(e);
  });
});
afterAll(() => server.close());

describe('resource writes', () => {
  it('every write of every declared resource reaches the hook with its ids; reads do not', async () => {
    const adminId = 1;
    const role = await server.call<{ id: number }>('POST', '/service-priv/role', { token: admin, body: { name: '审计测试' } });
    await server.call('PUT', '/service-priv/role', { token: admin, body: { id: role.data.id, remark: 'r' } });
    await server.call('POST', '/service-priv/role/role_permissions', { token: admin, body: { roleId: role.data.id, permissionIds: [1] } });
    await server.call('DELETE', `/service-priv/role?ids=${role.data.id}`, { token: admin });
    const dt = await server.call<{ id: number }>('POST', '/service-priv/devtype/save', { token: admin, body: { devTypeName: '审计终端', protocol: 2013 } });
    await server.call('POST', '/service-priv/devtype/save', { token: admin, body: { id: dt.data.id, devTypeName: '审计终端2', protocol: 2013 } });
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet('s');
    ws.addRow(['Type name', 'Protocol']);
    ws.addRow(['审计导入', 2019]);
    const imported = await server.call<{ ids: number[] }>('POST', '/service-priv/devtype/import', { token: admin, body: { file: Buffer.from(await book.xlsx.writeBuffer()).toString('base64') } });
    await server.call('GET', `/service-priv/devtype/remove?ids=${dt.data.id}&ids=${imported.data.ids[0]}`, { token: admin });
    const company = await server.call<{ id: number }>('POST', '/service-priv/company', { token: admin, body: { pid: 1, name: '审计公司' } });
    const user = await server.call<{ id: number }>('POST', '/service-priv/user', { token: admin, body: { username: 'audit_user', password: 'secret123', userLevel: 2 } });
    await server.call('PUT', '/service-priv/user', { token: admin, body: { id: user.data.id, realName: '审计' } });
    await server.call('DELETE', `/service-priv/user?ids=${user.data.id}`, { token: admin });
    await server.call('GET', '/service-priv/user/page', { token: admin });
    await server.call('GET', '/service-priv/devtype/search', { token: admin });
    await server.call('GET', `/service-priv/company/${company.data.id}`, { token: admin });

    expect(events).toEqual([
      { resource: 'role', operation: 'create', userId: adminId, ids: [role.data.id] },
      { resource: 'role', operation: 'update', userId: adminId, ids: [role.data.id] },
      { resource: 'role', operation: 'update', userId: adminId, ids: [role.data.id] },
      { resource: 'role', operation: 'delete', userId: adminId, ids: [role.data.id] },
      { resource: 'deviceType', operation: 'create', userId: adminId, ids: [dt.data.id] },
      { resource: 'deviceType', operation: 'update', userId: adminId, ids: [dt.data.id] },
      { resource: 'deviceType', operation: 'import', userId: adminId, ids: imported.data.ids },
      { resource: 'deviceType', operation: 'delete', userId: adminId, ids: [dt.data.id, imported.data.ids[0]] },
      { resource: 'company', operation: 'create', userId: adminId, ids: [company.data.id] },
      { resource: 'user', operation: 'create', userId: adminId, ids: [user.data.id] },
      { resource: 'user', operation: 'update', userId: adminId, ids: [user.data.id] },
      { resource: 'user', operation: 'delete', userId: adminId, ids: [user.data.id] },
    ]);
  });

  it('a hook that fails rolls its write back', async () => {
    const before = server.count('device_type');
    failNext = true;
    const r = await server.call('POST', '/service-priv/devtype/save', { token: admin, body: { devTypeName: '回滚终端', protocol: 2013 } });
    expect(r.status).toBe(500);
    expect(server.count('device_type')).toBe(before);
  });
});
