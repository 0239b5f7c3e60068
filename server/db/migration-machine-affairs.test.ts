import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from './migrations.ts';
import { openSqlite, type SqliteDb } from './sqlite.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function freshDb(): SqliteDb {
  const dir = mkdtempSync(path.join(tmpdir(), 'mig22-'));
  dirs.push(dir);
  return openSqlite(path.join(dir, 'fleet.sqlite'));
}

describe('migration 22 (devices apart from vehicles)', () => {
  it('keeps every vehicle, its registration and the rows that reference it, and makes each old device number a device', () => {
    const db = freshDb();
    migrate(db, 21);
    const now = 1_700_000_000_000;
    db.prepare("INSERT INTO company (id, pid, name, path, create_time, update_time) VALUES (1, NULL, 'Root', '/1/', ?, ?)").run(now, now);
    db.prepare("INSERT INTO line (id, name, company_id, create_time) VALUES (5, 'L1', 1, ?)").run(now);
    db.prepare("INSERT INTO vehicle (id, vehiidno, company_id, line_id, device_no, vin, create_time) VALUES (7, '粤A12345', 1, 5, '013800000001', '', ?)").run(now);
    db.prepare("INSERT INTO vehicle (id, vehiidno, company_id, line_id, device_no, vin, create_time) VALUES (8, '粤A12346', 1, NULL, '013800000002', '', ?)").run(now);
    db.prepare("INSERT INTO terminal (device_no, vehicle_id, auth_code, model, terminal_id, register_time) VALUES ('013800000001', 7, 'abc', 'M1', 'T1', ?)").run(now);
    db.prepare("INSERT INTO device_channel (vehicle_id, channel, kind, name) VALUES (7, 1, 'video', 'front')").run();

    expect(migrate(db, 22)).toEqual([22]);

    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare('SELECT id, vehiidno, line_id, device_no, status FROM vehicle ORDER BY id').all()).toEqual([
      { id: 7, vehiidno: '粤A12345', line_id: 5, device_no: '013800000001', status: 1 },
      { id: 8, vehiidno: '粤A12346', line_id: null, device_no: '013800000002', status: 1 },
    ]);
    expect(db.prepare('SELECT device_no, company_id, model, terminal_id FROM device ORDER BY device_no').all()).toEqual([
      { device_no: '013800000001', company_id: 1, model: 'M1', terminal_id: 'T1' },
      { device_no: '013800000002', company_id: 1, model: '', terminal_id: '' },
    ]);
    expect(db.prepare('SELECT device_no, auth_code FROM terminal').all()).toEqual([{ device_no: '013800000001', auth_code: 'abc' }]);
    // Rows referencing vehicle(id) still point at the rebuilt table and still cascade.
    expect(db.prepare('SELECT count(*) n FROM device_channel').get()).toEqual({ n: 1 });
    db.prepare('DELETE FROM vehicle WHERE id = 7').run();
    expect(db.prepare('SELECT count(*) n FROM device_channel').get()).toEqual({ n: 0 });
    // A device binds to one vehicle at most, and a vehicle may have none.
    expect(() => db.prepare("UPDATE vehicle SET device_no = '013800000002' WHERE id = 8").run()).not.toThrow();
    db.prepare("INSERT INTO vehicle (vehiidno, company_id, device_no, create_time, update_time) VALUES ('粤A1', 1, NULL, ?, ?)").run(now, now);
    expect(() => db.prepare("INSERT INTO vehicle (vehiidno, company_id, device_no, create_time, update_time) VALUES ('粤A2', 1, '013800000002', ?, ?)").run(now, now)).toThrow(/UNIQUE/);
    expect(() => db.prepare("INSERT INTO vehicle (vehiidno, company_id, device_no, create_time, update_time) VALUES ('粤A3', 1, '019999999999', ?, ?)").run(now, now)).toThrow(/FOREIGN KEY/);
    // A device's new number follows to its vehicle.
    db.prepare("UPDATE device SET device_no = '013800000009' WHERE device_no = '013800000002'").run();
    expect(db.prepare('SELECT device_no FROM vehicle WHERE id = 8').get()).toEqual({ device_no: '013800000009' });
    db.close();
  });
});
