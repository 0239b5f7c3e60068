/**
 * Vehicle import files made at test time (no binary committed): `rows` vehicles with unique plates and
 * VINs that pass the check digit (domain/fleet/vin.ts), under the Chinese headers of the vehicle import
 * (server/resources/vehicles.ts). `badVinAt` gives one data row a VIN whose check digit is wrong.
 * Used by e2e/import-vehicles.e2e.ts and bench/fleet-assets.bench.ts.
 */
import ExcelJS from 'exceljs';
import { vinCheckDigit } from '../domain/fleet/vin.ts';

export const VEHICLE_IMPORT_HEADER = ['车牌号', '车牌颜色', '车架号', '车辆类型', '状态', '备注'] as const;

/** A valid VIN for serial `n` (WMI LFV, the check digit computed). */
export function validVin(n: number): string {
  const body = `LFV2A21K0A${String(n % 10_000_000).padStart(7, '0')}`;
  return body.slice(0, 8) + vinCheckDigit(body) + body.slice(9);
}

/** The same VIN with a check digit that cannot be right. */
export function badVin(n: number): string {
  const vin = validVin(n);
  const wrong = vin[8] === '1' ? '2' : '1';
  return vin.slice(0, 8) + wrong + vin.slice(9);
}

export interface VehicleRowOptions {
  /** Makes the plates of one file unique among files (2–4 characters, e.g. 'E1'). */
  readonly prefix: string;
  /** Data rows (the header is sheet row 1, so data row i is sheet row i + 2). */
  readonly rows: number;
  /** A sheet row number (≥ 2) whose VIN gets a wrong check digit. */
  readonly badVinAt?: number;
  /** Offset of the VIN serials (distinct files, distinct VINs). */
  readonly serialBase?: number;
}

/** The plate of data row `i` of a file with `prefix`. */
export const plateOf = (prefix: string, i: number) => `导${prefix}${String(i).padStart(5, '0')}`;

export function vehicleRows(o: VehicleRowOptions): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (let i = 0; i < o.rows; i++) {
    const serial = (o.serialBase ?? 0) + i;
    const vin = i + 2 === o.badVinAt ? badVin(serial) : validVin(serial);
    out.push([plateOf(o.prefix, i), i % 2 ? 2 : 1, vin, i % 3 ? 'truck' : 'bus', 1, `导入 ${i}`]);
  }
  return out;
}

/** The .xlsx bytes of such a file. */
export async function vehicleImportFile(o: VehicleRowOptions): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('vehicles');
  sheet.addRow([...VEHICLE_IMPORT_HEADER]);
  for (const r of vehicleRows(o)) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}
