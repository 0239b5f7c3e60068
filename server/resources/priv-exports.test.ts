/**
 * Exports of users, roles and companies (issue 13): server jobs on the resource layer, each behind its
 * screen's export bit. The file holds the caller's subtree only (the leak to guard against: a branch
 * administrator's file listing head-office accounts, roles or the group company), the page's filters
 * apply, and the header row and word cells are in the caller's language.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededSignIns, startServer, type TestServer } from '../test/harness.ts';
import { createUserWithRole, permissionId } from '../test/users.ts';

const idOf = permissionId;

let server: TestServer;
let admin: string;
let branch: string;
let eastId: number;

beforeAll(async () => {
  server = await startServer();
  ({ admin, branch } = await seededSignIns(server));
  eastId = (await server.app.storage.users.findByUsername('branch'))!.companyId;
});
afterAll(() => server.close());

/** Runs an export job to its end and answers the sheet's rows (first row the header). */
async function exportRows(base: string, token: string, lang: 'zh' | 'en', body: Record<string, unknown> = {}): Promise<unknown[][]> {
  const start = await server.call<{ taskId: string }>('POST', `${base}/excel`, { token, lang, body });
  expect(start.code, start.msg).toBe(200);
  let status = '';
  for (let i = 0; i < 50 && status !== 'done'; i++) {
    const s = await server.call<{ status: string }>('GET', `${base}/export_status?taskId=${start.data.taskId}`, { token, lang });
    status = s.data.status;
    if (status !== 'done') await new Promise((r) => setTimeout(r, 100));
  }
  expect(status).toBe('done');
  const res = await fetch(`${server.url}${base}/excel_file?taskId=${start.data.taskId}`, { headers: { 'x-jwt': token, 'x-lang': lang } });
  expect(res.status).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await res.arrayBuffer());
  return (book.worksheets[0]?.getSheetValues() ?? []).filter(Boolean).map((r) => (r as unknown[]).slice(1));
}

describe('users export', () => {
  it('holds only the users of the caller\'s subtree, under an English header with words for level and status', async () => {
    const exporter = await createUserWithRole(server, 'user_exporter', eastId, [idOf('/system'), idOf('/system/user'), idOf('/system/user:export')], '导出员');
    const [header, ...rows] = await exportRows('/service-priv/user', exporter, 'en');
    expect(header?.slice(0, 5)).toEqual(['User name', 'Name', 'Company', 'Level', 'Roles']);
    const names = rows.map((r) => r[0]);
    expect(names).toEqual(expect.arrayContaining(['branch', 'user_exporter']));
    // The leak: head-office accounts (admin, operator, safety) belong to the group company above the branch.
    expect(names).not.toContain('admin');
    expect(names).not.toContain('operator');
    expect(names).not.toContain('safety');
    const branchRow = rows.find((r) => r[0] === 'branch');
    expect(branchRow?.slice(2, 5)).toEqual(['华东分公司', 'Company administrator', '分公司管理员']);
    expect(branchRow?.[7]).toBe('Active');
    expect(branchRow?.[8]).toBe('Never');
  });

  it('writes a Chinese header for a Chinese caller and applies the keyword', async () => {
    const [header, ...rows] = await exportRows('/service-priv/user', admin, 'zh', { keyword: 'branch' });
    expect(header?.slice(0, 4)).toEqual(['用户名', '姓名', '所属公司', '用户级别']);
    expect(rows.map((r) => r[0])).toEqual(['branch']);
    expect(rows[0]?.[7]).toBe('启用');
  });

  it('needs the export bit (the page bit alone is 403)', async () => {
    const viewer = await createUserWithRole(server, 'user_page_only', eastId, [idOf('/system'), idOf('/system/user')]);
    expect((await server.call('POST', '/service-priv/user/excel', { token: viewer, body: {} })).status).toBe(403);
  });

  it('answers another user\'s task as missing', async () => {
    const start = await server.call<{ taskId: string }>('POST', '/service-priv/user/excel', { token: admin, body: {} });
    const other = await createUserWithRole(server, 'user_exporter2', eastId, [idOf('/system'), idOf('/system/user'), idOf('/system/user:export')]);
    expect((await server.call('GET', `/service-priv/user/export_status?taskId=${start.data.taskId}`, { token: other })).status).toBe(404);
  });
});

describe('roles export', () => {
  it('holds only roles of companies in the caller\'s subtree (the seeded head-office roles are not in a branch file)', async () => {
    const made = await server.call('POST', '/service-priv/role', { token: branch, body: { name: '华东调度', remark: '分公司自建' } });
    expect(made.code).toBe(200);
    const [header, ...rows] = await exportRows('/service-priv/role', branch, 'en');
    expect(header).toEqual(['Role name', 'Company', 'Permissions', 'Remark', 'Created']);
    expect(rows.map((r) => r.slice(0, 2))).toEqual([['华东调度', '华东分公司']]);
    const all = await exportRows('/service-priv/role', admin, 'zh');
    expect(all[0]?.[0]).toBe('角色名称');
    expect(all.slice(1).map((r) => r[0])).toEqual(expect.arrayContaining(['监控员', '安全员', '分公司管理员', '华东调度']));
  });
});

describe('companies export', () => {
  it('holds only the caller\'s subtree with parent names and counts; the group company is not in a branch file', async () => {
    const [header, ...rows] = await exportRows('/service-priv/company', branch, 'en');
    expect(header?.slice(0, 2)).toEqual(['Company name', 'Parent company']);
    const names = rows.map((r) => r[0]);
    expect(names).toContain('华东分公司');
    expect(names).not.toContain('星途物流集团');
    const tree = (await server.call<{ id: number; pid: number; name: string }[]>('GET', '/service-priv/company/tree', { token: branch })).data;
    expect(names.sort()).toEqual(tree.map((c) => c.name).sort());
    // The branch's own parent lies outside its scope: left unnamed rather than leaked.
    expect(rows.find((r) => r[0] === '华东分公司')?.[1]).toBe('');
    const child = tree.find((c) => c.pid === eastId);
    if (child) expect(rows.find((r) => r[0] === child.name)?.[1]).toBe('华东分公司');
  });

  it('a foreign companyId is 403, like the page', async () => {
    expect((await server.call('POST', '/service-priv/company/excel', { token: branch, body: { companyId: 1 } })).status).toBe(403);
  });
});
