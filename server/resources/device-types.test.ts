/**
 * Device types, the first resource declared on server/resources/: the spec's paths, company scoping,
 * button bits, shared limits, import (all rows or none) and export through the export jobs.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness.ts';
import { createUserWithRole, permissionId } from '../test/users.ts';

const idOf = permissionId;
const PAGE = '/information/deviceType';
const bits = (...buttons: string[]) => [idOf('/information'), idOf(PAGE), ...buttons.map((b) => idOf(`${PAGE}:${b}`))];

interface DeviceType { id: number; companyId: number; devTypeName: string; protocol: number; makerId: string; model: string; remark: string }
interface Page<T> { records: T[]; total: number; current: number; size: number }
interface Company { id: number; pid: number; name: string }

let server: TestServer;
let admin: string;
let companies: Company[];
const byName = (name: string) => {
  const c = companies.find((x) => x.name === name);
  if (!c) throw new Error(`no company ${name}`);
  return c;
};

async function sheet(rows: (string | number | null)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('types');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
  companies = (await server.call<Company[]>('GET', '/service-priv/company/tree', { token: admin })).data;
});
afterAll(() => server.close());

describe('search', () => {
  it('lists the seeded terminal models the simulator registers as', async () => {
    const r = await server.call<Page<DeviceType>>('GET', '/service-priv/devtype/search?keyword=FLEETSIM', { token: admin });
    expect(r.code).toBe(200);
    expect(r.data.records.map((d) => [d.protocol, d.makerId, d.model])).toEqual([[2013, 'SIMFL', 'FLEETSIM-808'], [2019, 'SIMFL', 'FLEETSIM-808']]);
    const only2019 = await server.call<Page<DeviceType>>('GET', '/service-priv/devtype/search?protocol=2019', { token: admin });
    expect(only2019.data.records.every((d) => d.protocol === 2019)).toBe(true);
    expect(only2019.data.total).toBeGreaterThanOrEqual(1);
  });

  it('refuses an unknown filter field and pages outside the limits with 400 naming the field', async () => {
    const unknown = await server.call('GET', '/service-priv/devtype/search?colour=red', { token: admin, lang: 'en' });
    expect(unknown.status).toBe(400);
    expect(unknown.msg).toBe('Field colour is not allowed');
    const big = await server.call('GET', '/service-priv/devtype/search?size=501', { token: admin, lang: 'zh' });
    expect(big.status).toBe(400);
    expect(big.msg).toContain('size');
    expect((await server.call('GET', '/service-priv/devtype/search?current=0', { token: admin })).status).toBe(400);
    expect((await server.call('GET', '/service-priv/devtype/search?protocol=2015', { token: admin })).status).toBe(400);
    const paged = await server.call<Page<DeviceType>>('GET', '/service-priv/devtype/search?size=2&current=2', { token: admin });
    expect(paged.data).toMatchObject({ current: 2, size: 2 });
    expect(paged.data.records.length).toBe(Math.min(2, paged.data.total - 2));
  });
});

describe('company scoping', () => {
  it('a branch user sees and changes only its subtree; a foreign id is 404, a foreign companyId 403', async () => {
    const east = byName('华东分公司');
    const south = byName('华南分公司');
    const eastUser = await createUserWithRole(server, 'dt_east', east.id, bits('create', 'update', 'delete'));
    const own = await server.call<DeviceType>('POST', '/service-priv/devtype/save', { token: eastUser, body: { devTypeName: '华东 808 终端', protocol: 2019, makerId: 'EAST1', model: 'E-808' } });
    expect(own.code).toBe(200);
    expect(own.data).toMatchObject({ companyId: east.id, devTypeName: '华东 808 终端', protocol: 2019 });
    const foreign = await server.call<DeviceType>('POST', '/service-priv/devtype/save', { token: admin, body: { devTypeName: '华南终端', protocol: 2013, companyId: south.id } });
    expect(foreign.data.companyId).toBe(south.id);

    const seen = await server.call<Page<DeviceType>>('GET', '/service-priv/devtype/search?size=500', { token: eastUser });
    expect(seen.data.records.map((d) => d.devTypeName)).toEqual(['华东 808 终端']); // not the root's seeded types, not the south branch's

    const before = server.count('device_type');
    expect((await server.call('POST', '/service-priv/devtype/save', { token: eastUser, body: { id: foreign.data.id, devTypeName: 'x', protocol: 2013 } })).status).toBe(404);
    expect((await server.call('GET', `/service-priv/devtype/remove?ids=${foreign.data.id}`, { token: eastUser })).status).toBe(404);
    // A batch with one foreign id deletes nothing.
    expect((await server.call('GET', `/service-priv/devtype/remove?ids=${own.data.id}&ids=${foreign.data.id}`, { token: eastUser })).status).toBe(404);
    expect((await server.call('GET', `/service-priv/devtype/search?companyId=${south.id}`, { token: eastUser })).status).toBe(403);
    expect((await server.call('POST', '/service-priv/devtype/save', { token: eastUser, body: { devTypeName: 'y', protocol: 2013, companyId: south.id } })).status).toBe(403);
    expect(server.count('device_type')).toBe(before);

    const removed = await server.call<{ deleted: number }>('GET', `/service-priv/devtype/remove?ids=${own.data.id}`, { token: eastUser });
    expect(removed.data.deleted).toBe(1);
    expect(server.count('device_type')).toBe(before - 1);
  });
});

describe('button bits', () => {
  it('the page bit lists; create, update and delete each need their own bit', async () => {
    const company = byName('华北分公司');
    const viewer = await createUserWithRole(server, 'dt_viewer', company.id, bits());
    const creator = await createUserWithRole(server, 'dt_creator', company.id, bits('create'));
    expect((await server.call('GET', '/service-priv/devtype/search', { token: viewer })).code).toBe(200);
    const before = server.count('device_type');
    expect((await server.call('POST', '/service-priv/devtype/save', { token: viewer, body: { devTypeName: 'v', protocol: 2013 } })).status).toBe(403);
    const made = await server.call<DeviceType>('POST', '/service-priv/devtype/save', { token: creator, body: { devTypeName: '华北终端', protocol: 2013 } });
    expect(made.code).toBe(200);
    // Saving with an id is an update: the create bit alone is not enough.
    const upd = await server.call('POST', '/service-priv/devtype/save', { token: creator, body: { id: made.data.id, devTypeName: '改名', protocol: 2013 } });
    expect(upd.status).toBe(403);
    expect((await server.call('GET', `/service-priv/devtype/remove?ids=${made.data.id}`, { token: creator })).status).toBe(403);
    const operator = await server.login('operator', 'operator123');
    expect((await server.call('GET', '/service-priv/devtype/search', { token: operator })).status).toBe(403);
    expect(server.count('device_type')).toBe(before + 1);
  });
});

describe('rules', () => {
  it('a name is unique within its company (409), maker id and model fit the edition (400 naming the field)', async () => {
    const dup = await server.call('POST', '/service-priv/devtype/save', { token: admin, lang: 'en', body: { devTypeName: 'fleetsim-808 (2013)', protocol: 2013 } });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe('The device type "fleetsim-808 (2013)" already exists');
    const wide = await server.call('POST', '/service-priv/devtype/save', { token: admin, lang: 'zh', body: { devTypeName: '宽型号', protocol: 2013, makerId: 'ABCDEFG' } });
    expect(wide.status).toBe(400);
    expect(wide.msg).toBe('字段 makerId 不合法：JT/T 808-2013 终端注册时最多 5 个字符');
    const ok2019 = await server.call<DeviceType>('POST', '/service-priv/devtype/save', { token: admin, body: { devTypeName: '宽型号', protocol: 2019, makerId: 'ABCDEFG' } });
    expect(ok2019.code).toBe(200);
    // Changing the edition back to 2013 keeps the stored maker id, which no longer fits.
    const back = await server.call('POST', '/service-priv/devtype/save', { token: admin, lang: 'en', body: { id: ok2019.data.id, devTypeName: '宽型号', protocol: 2013 } });
    expect(back.status).toBe(400);
    expect(back.msg).toContain('makerId');
  });

  it('a company that still owns device types is not deleted', async () => {
    const parent = byName('华东分公司');
    const made = await server.call<{ id: number }>('POST', '/service-priv/company', { token: admin, body: { pid: parent.id, name: '终端测试组' } });
    await server.call('POST', '/service-priv/devtype/save', { token: admin, body: { devTypeName: '组内终端', protocol: 2013, companyId: made.data.id } });
    const r = await server.call('DELETE', `/service-priv/company?ids=${made.data.id}`, { token: admin, lang: 'zh' });
    expect(r.status).toBe(409);
    expect(r.msg).toBe('公司「终端测试组」下还有1 个设备类型，不能删除');
  });
});

describe('import', () => {
  it('one bad row writes nothing and names the row and the column in Chinese and English', async () => {
    const file = await sheet([
      ['设备类型名称', '协议版本', '制造商ID', '终端型号'],
      ['导入一号', 2013, 'IMP01', 'M-1'],
      ['导入二号', 2015, 'IMP02', 'M-2'],
    ]);
    const before = server.count('device_type');
    const zh = await server.call('POST', '/service-priv/devtype/import', { token: admin, lang: 'zh', body: { file } });
    expect(zh.status).toBe(400);
    expect(zh.msg).toMatch(/^第 3 行「协议版本」：字段 protocol 不合法/);
    const en = await server.call('POST', '/service-priv/devtype/import', { token: admin, lang: 'en', body: { file } });
    expect(en.msg).toMatch(/^Row 3, column "Protocol": Field protocol is invalid/);
    expect(server.count('device_type')).toBe(before);
  });

  it('a row that breaks a rule inside the transaction rolls back the rows before it', async () => {
    const file = await sheet([
      ['Type name', 'Protocol', 'Model'],
      ['Imported A', '2019', 'A-1'],
      ['FLEETSIM-808 (2019)', '2019', 'dup'],
    ]);
    const before = server.count('device_type');
    const r = await server.call('POST', '/service-priv/devtype/import', { token: admin, lang: 'en', body: { file } });
    expect(r.status).toBe(409);
    expect(r.msg).toBe('Row 3: The device type "FLEETSIM-808 (2019)" already exists');
    expect(server.count('device_type')).toBe(before);
  });

  it('a valid sheet (English headers, text cells) creates every row; a header it does not know is refused', async () => {
    const good = await sheet([['Type name', 'Protocol', 'Maker ID', 'Model', 'Remark'], ['Imported B', '2019', 'IMPB', 'B-1', 'from xlsx'], [null, null, null, null, null], ['Imported C', 2013, '', 'C-1', '']]);
    const r = await server.call<{ imported: number }>('POST', '/service-priv/devtype/import', { token: admin, body: { file: good } });
    expect(r.code).toBe(200);
    expect(r.data.imported).toBe(2);
    const found = await server.call<Page<DeviceType>>('GET', '/service-priv/devtype/search?keyword=Imported', { token: admin });
    expect(found.data.records.map((d) => [d.devTypeName, d.protocol, d.makerId, d.model])).toEqual([['Imported B', 2019, 'IMPB', 'B-1'], ['Imported C', 2013, '', 'C-1']]);
    const odd = await sheet([['Type name', 'Protocol', 'Colour'], ['Z', 2013, 'red']]);
    const bad = await server.call('POST', '/service-priv/devtype/import', { token: admin, lang: 'en', body: { file: odd } });
    expect(bad.msg).toBe('The header row has an unknown column "Colour"');
    const notXlsx = await server.call('POST', '/service-priv/devtype/import', { token: admin, lang: 'zh', body: { file: Buffer.from('hello').toString('base64') } });
    expect(notXlsx.msg).toBe('文件不是有效的 .xlsx 表格');
  });
});

describe('import template', () => {
  async function template(token: string, lang: string): Promise<Response> {
    return fetch(`${server.url}/service-priv/devtype/import_template`, { headers: { 'x-jwt': token, 'x-lang': lang } });
  }
  it('answers an .xlsx whose header row names the import columns in the caller language, and a filled copy imports', async () => {
    for (const [lang, headers, name] of [
      ['zh', ['设备类型名称', '协议版本', '制造商ID', '终端型号', '备注'], '设备类型导入模板.xlsx'],
      ['en', ['Type name', 'Protocol', 'Maker ID', 'Model', 'Remark'], 'device_type_import_template.xlsx'],
    ] as const) {
      const res = await template(admin, lang);
      expect(res.status).toBe(200);
      expect(decodeURIComponent(res.headers.get('content-disposition') ?? '')).toContain(name);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await res.arrayBuffer());
      const ws = book.worksheets[0]!;
      expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([...headers]);
      expect(ws.rowCount).toBe(1);
      if (lang === 'en') {
        ws.addRow([`From template ${lang}`, 2019, 'TPL', 'T-1', '']);
        const file = Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
        const r = await server.call<{ imported: number }>('POST', '/service-priv/devtype/import', { token: admin, body: { file } });
        expect(r.data.imported).toBe(1);
      }
    }
  });

  it('is behind the create bit, as the import is', async () => {
    const viewer = await createUserWithRole(server, 'dt_tpl_viewer', 1, bits());
    expect((await template(viewer, 'en')).status).toBe(403);
    const creator = await createUserWithRole(server, 'dt_tpl_creator', 1, bits('create'));
    expect((await template(creator, 'en')).status).toBe(200);
  });
});

describe('export', () => {
  it('runs as an export job and the file holds the filtered rows under headers in the caller language', async () => {
    const start = await server.call<{ taskId: string }>('POST', '/service-priv/devtype/excel', { token: admin, lang: 'en', body: { keyword: 'FLEETSIM' } });
    expect(start.code).toBe(200);
    let status = '';
    for (let i = 0; i < 50 && status !== 'done'; i++) {
      const s = await server.call<{ status: string; total: number; exported: number }>('GET', `/service-priv/devtype/export_status?taskId=${start.data.taskId}`, { token: admin });
      status = s.data.status;
      if (status === 'done') expect(s.data).toMatchObject({ total: 2, exported: 2 });
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('done');
    const res = await fetch(`${server.url}/service-priv/devtype/excel_file?taskId=${start.data.taskId}`, { headers: { 'x-jwt': admin } });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const rows = (book.worksheets[0]?.getSheetValues() ?? []).filter(Boolean).map((r) => (r as unknown[]).slice(1, 4));
    expect(rows).toEqual([['Type name', 'Protocol', 'Maker ID'], ['FLEETSIM-808 (2013)', 2013, 'SIMFL'], ['FLEETSIM-808 (2019)', 2019, 'SIMFL']]);
    const viewer = await createUserWithRole(server, 'dt_export_viewer', 1, bits());
    expect((await server.call('POST', '/service-priv/devtype/excel', { token: viewer, body: {} })).status).toBe(403);
  });
});
