/**
 * The vehicle and driver code lists follow the data dictionary on the server too (issue 19): a code an
 * administrator disabled is refused for a new value at once (400 naming the field, in the caller's
 * language), a record that already carries it can still be edited, and re-enabling it takes effect at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vinCheckDigit } from '../../domain/fleet/vin.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { startServer, type TestServer } from '../test/harness.ts';

let server: TestServer;
let admin: string;
const db = () => (server.app.storage as SqliteStorage).db;

function vin(seq: number): string {
  const draft = `LFV2A21K0${String(seq).padStart(8, '0')}`;
  return `${draft.slice(0, 8)}${vinCheckDigit(draft)}${draft.slice(9)}`;
}

/** Enables or disables one code through the dictionary's own call, as an administrator would. */
async function setEnabled(kind: string, code: string, enabled: boolean): Promise<void> {
  const row = db().prepare('SELECT id, code_cnname AS name FROM dictionary WHERE kind = ? AND code = ? AND parent_id IS NOT NULL').get(kind, code) as { id: number; name: string };
  const res = await server.call('POST', '/service-priv/dictionary/update', { token: admin, body: { id: row.id, code, codeCnname: row.name, enabled } });
  expect([res.status, res.msg]).toEqual([200, expect.any(String)]);
}

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
}, 120_000);
afterAll(async () => server?.close());

describe('vehicle type, plate colour and licence class against the dictionary', () => {
  it('refuses a disabled vehicle type or plate colour on a new vehicle, keeps an existing one editable, and takes a re-enabled one at once', async () => {
    const before = await server.call<{ id: number }>('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '典A·00001', vin: vin(1), vehicleType: 'muck', plateColor: 2 } });
    expect(before.code).toBe(200);
    await setEnabled('vehicleType', 'muck', false);
    await setEnabled('plateColor', '5', false);

    const refused = await server.call('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '典A·00002', vin: vin(2), vehicleType: 'muck' } });
    expect([refused.status, refused.msg]).toEqual([400, '字段 vehicleType 不合法：车辆类型「muck」不在数据字典中或已停用']);
    const colour = await server.call('POST', '/service-priv/vehicle', { token: admin, lang: 'en', body: { vehiidno: '典A·00003', vin: vin(3), plateColor: 5 } });
    expect([colour.status, colour.msg]).toEqual([400, 'Field plateColor is invalid: Plate colour "5" is not an enabled code of the data dictionary']);
    // Nothing was written by the refusals.
    expect(db().prepare("SELECT COUNT(*) AS n FROM vehicle WHERE vehiidno IN ('典A·00002', '典A·00003')").get()).toEqual({ n: 0 });

    // The vehicle that has the type keeps it through an edit of another field, and an edit that repeats it.
    expect((await server.call('PUT', '/service-priv/vehicle', { token: admin, body: { id: before.data.id, remark: '渣土' } })).code).toBe(200);
    expect((await server.call('PUT', '/service-priv/vehicle', { token: admin, body: { id: before.data.id, vehicleType: 'muck', remark: '渣土2' } })).code).toBe(200);

    await setEnabled('vehicleType', 'muck', true);
    expect((await server.call('POST', '/service-priv/vehicle', { token: admin, body: { vehiidno: '典A·00002', vin: vin(2), vehicleType: 'muck' } })).code).toBe(200);
  });

  it('refuses a disabled licence class on a driver, and an empty class stays allowed', async () => {
    await setEnabled('licenceClass', 'A3', false);
    const refused = await server.call('POST', '/service-priv/driver', { token: admin, body: { name: '字典司机', licenceClass: 'A3' } });
    expect([refused.status, refused.msg]).toEqual([400, '字段 licenceClass 不合法：准驾车型「A3」不在数据字典中或已停用']);
    expect((await server.call('POST', '/service-priv/driver', { token: admin, body: { name: '字典司机', licenceClass: '' } })).code).toBe(200);
    expect((await server.call('POST', '/service-priv/driver', { token: admin, body: { name: '字典司机2', licenceClass: 'B1' } })).code).toBe(200);
  });
});
