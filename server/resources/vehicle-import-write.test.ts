/**
 * The import write path (issue 15, the write stall): a created or imported vehicle's operator-log row is
 * built from its written fields (`changeLog.created`), not read back, and must say exactly what the read
 * would; plate colour and vehicle type cells take codes or names in either language; the template says so.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validVin } from '../../e2e/vehicle-import-fixture.ts';
import { ALL_COMPANIES } from '../db/scope.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { changedTables, fingerprint } from '../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { AppError } from '../http/envelope.ts';
import { PendingVehicleSync, vehicleResource } from './vehicles.ts';
import { runImport, type ImportRunner } from './import-jobs.ts';
import type { CallContext, Fields } from './resource.ts';
import type { Repositories } from '../db/repositories.ts';

let server: TestServer;
let admin: string;
const db = () => (server.app.storage as SqliteStorage).db;
const decl = vehicleResource(new PendingVehicleSync());

interface LogRow { record_id: number; label: string; company_id: number; operation: string; before: string | null; after: string }

/** The create / import row of vehicle `id`, against what the record read back logs. */
async function expectLoggedAsRead(id: number, operation: 'create' | 'import'): Promise<Record<string, unknown>> {
  const row = db().prepare("SELECT * FROM change_log WHERE resource = 'vehicle' AND record_id = ? AND operation = ?").get(id, operation) as LogRow;
  const record = (await server.app.storage.vehicles.get(ALL_COMPANIES, id))!;
  expect(row.before).toBeNull();
  expect(JSON.parse(row.after)).toEqual(decl.changeLog!.fields!(record));
  expect([row.label, row.company_id]).toEqual([decl.changeLog!.label(record), decl.changeLog!.companyId(record)]);
  return JSON.parse(row.after) as Record<string, unknown>;
}

async function sheet(rows: (string | number | null)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('vehicles').addRows(rows);
  return Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
}

function company(name: string): { id: number; path: string } {
  return db().prepare('SELECT id, path FROM company WHERE name = ?').get(name) as { id: number; path: string };
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
});
afterAll(() => server.close());

describe('the log row of a created vehicle, without reading it back', () => {
  it('is what the read-back record logs: every field, defaults, channels sorted and trimmed, line, dates', async () => {
    const line = db().prepare('SELECT id, company_id FROM line ORDER BY id LIMIT 1').get() as { id: number; company_id: number };
    const full = await server.call<{ id: number }>('POST', '/service-priv/vehicle', {
      token: admin, body: {
        vehiidno: '  沪W·L0001 ', plateColor: 2, vin: validVin(7_000_001).toLowerCase(), vehicleType: 'truck', status: 0, lineId: line.id,
        insuranceExpire: Date.UTC(2027, 0, 1, 5), inspectionExpire: null, remark: ' 备注 ',
        channels: [{ channel: 3, name: ' 车内 ' }, { channel: 1, name: '前方' }, { channel: 2, kind: 'audio', name: '' }], companyId: line.company_id,
      },
    });
    expect(full.status).toBe(200);
    const logged = await expectLoggedAsRead(full.data.id, 'create');
    expect(logged).toMatchObject({ vehiidno: '沪W·L0001', remark: '备注', channels: '1:前方,2,3:车内', lineId: line.id, status: 0 });

    // Nothing but the required fields: the defaults the row gets are the ones logged.
    const bare = await server.call<{ id: number }>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '沪W·L0002', vin: validVin(7_000_002) } });
    expect(bare.status).toBe(200);
    expect(await expectLoggedAsRead(bare.data.id, 'create')).toMatchObject({ plateColor: 0, vehicleType: '', status: 1, lineId: null, remark: '', channels: '', drivers: '' });
  });

  it('with drivers (logged by name) the record is read back, and says the same', async () => {
    const east = company('华东分公司');
    const driver = await server.call<{ id: number }>('POST', '/service-priv/driver', { token: admin, body: { name: '日志司机', certNo: 'LOGW0001', companyId: east.id } });
    expect(driver.status).toBe(200);
    const v = await server.call<{ id: number }>('POST', '/service-priv/vehicle', {
      token: admin, body: { vehiidno: '沪W·L0003', vin: validVin(7_000_003), driverIds: [driver.data.id], companyId: east.id },
    });
    expect(v.status).toBe(200);
    expect(await expectLoggedAsRead(v.data.id, 'create')).toMatchObject({ drivers: '日志司机' });
  });

  it('an imported row with a device: the import row is what the read logs, next to its bind rows', async () => {
    const east = company('华东分公司');
    const no = '019977000001';
    db().prepare('INSERT INTO device (device_no, company_id, create_time, update_time) VALUES (?, ?, ?, ?)').run(no, east.id, Date.now(), Date.now());
    const r = await server.call<{ ids: number[] }>('POST', '/service-priv/vehicle/import', {
      token: admin, body: {
        companyId: east.id,
        file: await sheet([['车牌号', '车架号', '设备号', '车牌颜色', '车辆类型', '状态', '保险到期', '备注'], ['沪W·I0001', validVin(7_000_011), no, '黄色', '货车', 0, '2027-03-05', ' 导入 '], ['沪W·I0002', validVin(7_000_012), null, null, null, null, null, null]]),
      },
    });
    expect(r.status).toBe(200);
    for (const id of r.data.ids) await expectLoggedAsRead(id, 'import');
    const ops = db().prepare("SELECT operation FROM change_log WHERE resource = 'vehicle' AND record_id = ? ORDER BY id").all(r.data.ids[0]) as { operation: string }[];
    expect(ops.map((o) => o.operation)).toEqual(['bind', 'import']);
  });
});

describe('plate colour and vehicle type cells', () => {
  it('take the code or the name in either language (and a colour by its one character)', async () => {
    const east = company('华东分公司');
    const rows: [string, string | number, string | number, number, string][] = [
      ['沪W·C0001', '蓝色', '货车', 1, 'truck'],
      ['沪W·C0002', 'Blue', 'Truck', 1, 'truck'],
      ['沪W·C0003', 'yellow ', 'city BUS', 2, 'bus'],
      ['沪W·C0004', 2, 'bus', 2, 'bus'],
      ['沪W·C0005', '5', '渣土车', 5, 'muck'],
      ['沪W·C0006', '绿', 'Hazardous goods vehicle', 5, 'dangerous'],
      ['沪W·C0007', '未上牌', '其他', 0, 'other'],
    ];
    const file = await sheet([['Plate', 'VIN', 'Plate colour', 'Vehicle type'], ...rows.map(([plate, color, type], i) => [plate, validVin(7_000_100 + i), color, type])]);
    const r = await server.call<{ ids: number[] }>('POST', '/service-priv/vehicle/import', { token: admin, body: { file, companyId: east.id } });
    expect(r.status).toBe(200);
    const stored = r.data.ids.map((id) => db().prepare('SELECT vehiidno, plate_color, vehicle_type FROM vehicle WHERE id = ?').get(id));
    expect(stored).toEqual(rows.map(([plate, , , color, type]) => ({ vehiidno: plate, plate_color: color, vehicle_type: type })));
  });

  it('a word that is neither refuses the file with its row and column, lists what is accepted, and writes nothing', async () => {
    const east = company('华东分公司');
    const file = await sheet([
      ['车牌号', '车架号', '车牌颜色', '车辆类型'],
      ['沪W·X0001', validVin(7_000_201), '蓝色', '货车'],
      ['沪W·X0002', validVin(7_000_202), '紫色', '货车'],
      ['沪W·X0003', validVin(7_000_203), 1, '飞机'],
      ['沪W·X0004', validVin(7_000_204), 8, 'truck'],
    ]);
    const before = fingerprint(server.app);
    const zh = await server.call<{ problems: { row: number; column: string; msg: string }[] }>('POST', '/service-priv/vehicle/import', { token: admin, lang: 'zh', body: { file, companyId: east.id } });
    expect(zh.status).toBe(400);
    expect(zh.data.problems.map((p) => [p.row, p.column])).toEqual([[3, '车牌颜色'], [4, '车辆类型'], [5, '车牌颜色']]);
    expect(zh.data.problems[0]!.msg).toContain('「紫色」不是车牌颜色');
    expect(zh.data.problems[0]!.msg).toContain('1 蓝色');
    expect(zh.data.problems[1]!.msg).toContain('truck 货车');
    const en = await server.call<{ problems: { row: number; column: string; msg: string }[] }>('POST', '/service-priv/vehicle/import', { token: admin, lang: 'en', body: { file, companyId: east.id } });
    expect(en.data.problems.map((p) => p.column)).toEqual(['Plate colour', 'Vehicle type', 'Plate colour']);
    expect(en.data.problems[2]!.msg).toContain('"8" is not a plate colour');
    expect(en.data.problems[2]!.msg).toContain('1 Blue');
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });

  it('the template notes what each column takes, and still reads back as an import', async () => {
    for (const [lang, header, notesSheet, colourHint, typeHint] of [
      ['zh', '车牌颜色', '填写说明', '1 蓝色', 'truck 货车'],
      ['en', 'Plate colour', 'Notes', '1 Blue', 'truck Truck'],
    ] as const) {
      const res = await fetch(`${server.url}/service-priv/vehicle/import_template`, { headers: { 'x-jwt': admin, 'x-lang': lang } });
      expect(res.status).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await res.arrayBuffer());
      const [first, notes] = book.worksheets;
      expect(first!.rowCount).toBe(1);
      const headers = (first!.getRow(1).values as unknown[]).slice(1);
      const at = headers.indexOf(header) + 1;
      expect(at).toBeGreaterThan(0);
      expect(JSON.stringify(first!.getRow(1).getCell(at).note)).toContain(colourHint);
      expect(notes!.name).toBe(notesSheet);
      const lines = notes!.getSheetValues().slice(2).map((r) => (r as unknown[]).slice(1).join(' | '));
      expect(lines).toHaveLength(headers.length);
      expect(lines.find((l) => l.startsWith(`${header} |`))).toContain(colourHint);
      expect(lines.join('\n')).toContain(typeHint);
      if (lang === 'en') {
        first!.addRow(headers.map((h) => ({ Plate: '沪W·T0001', VIN: validVin(7_000_301), 'Plate colour': 'Yellow', 'Vehicle type': '货车' } as Record<string, string>)[h as string] ?? null));
        const file = Buffer.from(await book.xlsx.writeBuffer()).toString('base64');
        const r = await server.call<{ ids: number[] }>('POST', '/service-priv/vehicle/import', { token: admin, body: { file } });
        expect(r.status).toBe(200);
        expect(db().prepare('SELECT plate_color, vehicle_type FROM vehicle WHERE id = ?').get(r.data.ids[0])).toEqual({ plate_color: 2, vehicle_type: 'truck' });
      }
    }
  });
});

describe('the write transaction checks a row again only when its insert clashes (checkOnConflict)', () => {
  it('the same plate twice in one file: the second row is named with the plate rule, nothing written', async () => {
    const east = company('华东分公司');
    const file = await sheet([['车牌号', '车架号'], ['沪W·D0001', validVin(7_000_401)], ['沪W·D0002', validVin(7_000_402)], ['沪W·D0001', validVin(7_000_403)]]);
    const before = fingerprint(server.app);
    const r = await server.call<{ problems: { row: number; column: string; msg: string }[] }>('POST', '/service-priv/vehicle/import', { token: admin, lang: 'en', body: { file, companyId: east.id } });
    expect(r.status).toBe(409);
    expect(r.data.problems).toEqual([{ row: 4, column: 'Plate', msg: 'The plate "沪W·D0001" already exists' }]);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });

  it('a plate entered after the check phase: refused with its row, nothing of the file written', async () => {
    const storage = server.app.storage;
    const east = company('华东分公司');
    const plateRule = async (tx: Repositories, fields: Fields) => {
      if (await tx.vehicles.plateOwner(fields.vehiidno as string)) throw new AppError(ErrorCode.Conflict, undefined, null, { vehiidno: { code: 'taken' } });
    };
    let checks = 0;
    const runner: ImportRunner = {
      resource: 'vehicle', maxRows: 10, checkOnConflict: true,
      columns: [{ key: 'vehiidno', header: ['车牌号', 'Plate'], schema: { type: 'string' } as never, required: true }, { key: 'vin', header: ['车架号', 'VIN'], schema: { type: 'string' } as never, required: true }],
      prepare: async (_c, fields) => ({ ...fields, companyId: east.id }),
      check: async (tx, fields) => { checks += 1; await plateRule(tx, fields); },
      write: (tx, fields) => tx.vehicles.create({ vehiidno: fields.vehiidno as string, vin: fields.vin as string, companyId: east.id, plateColor: 0, lineId: null, vehicleType: '', status: 1, insuranceExpire: null, inspectionExpire: null, remark: '' }),
      transaction: (_c, fn) => storage.transaction(async (tx) => (await fn(tx)).result),
    };
    const c = { ctx: { user: { id: 1 } }, lang: 'en', storage, ip: '127.0.0.1' } as unknown as CallContext;
    const file = Buffer.from(await sheet([['Plate', 'VIN'], ['沪W·E0001', validVin(7_000_501)], ['沪W·E0002', validVin(7_000_502)], ['沪W·E0003', validVin(7_000_503)]]), 'base64');
    const count = () => server.count('vehicle');
    const before = count();
    const outcome = await runImport(storage, runner, c, file, {
      // Between the check phase and the write transaction another request enters the second plate.
      onProgress: (p) => {
        if (p.phase === 'writing') storage.vehicles.create({ vehiidno: '沪W·E0002', vin: validVin(7_000_599), companyId: east.id, plateColor: 0, lineId: null, vehicleType: '', status: 1, insuranceExpire: null, inspectionExpire: null, remark: '' });
      },
    });
    expect(outcome.kind).toBe('refused');
    expect(outcome.kind === 'refused' && outcome.problems.map((p) => [p.row, p.column?.key, p.code])).toEqual([[3, 'vehiidno', ErrorCode.Conflict]]);
    // Three checks in the check phase, one for the clash: the rows that did not clash were not checked again.
    expect(checks).toBe(4);
    expect(count()).toBe(before + 1);
    expect(db().prepare("SELECT count(*) n FROM vehicle WHERE vehiidno IN ('沪W·E0001', '沪W·E0003')").get()).toEqual({ n: 0 });
  });
});
