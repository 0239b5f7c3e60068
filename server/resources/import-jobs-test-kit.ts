/**
 * Test kit of the import job tests (import-jobs.test.ts, import-jobs-cluster.test.ts): device types with a job
 * import under `${BASE}/<suffix>/…` (the real device-type calls stay as they are), and .xlsx files.
 */
import ExcelJS from 'exceljs';
import type { DeviceType } from '../db/device-type-types.ts';
import { permissionId } from '../test/users.ts';
import { deviceTypeResource } from './device-types.ts';
import type { ResourceDeclaration } from './resource.ts';

export const PAGE = '/information/deviceType';
export const bits = (...buttons: string[]) => [permissionId('/information'), permissionId(PAGE), ...buttons.map((b) => permissionId(`${PAGE}:${b}`))];
export const BASE = '/service-priv/devtype/test';

/** Device types with a job import under `${BASE}/<suffix>/…`. */
export function jobDeclaration(name: string, suffix: string): ResourceDeclaration<DeviceType> {
  const imp = deviceTypeResource.import!;
  return {
    name, store: deviceTypeResource.store, hooks: deviceTypeResource.hooks,
    import: {
      endpoint: { method: 'POST', url: `${BASE}/${suffix}/import`, permission: `${PAGE}:create` },
      columns: imp.columns, maxRows: 10_000,
      job: {
        start: { method: 'POST', url: `${BASE}/${suffix}/batchimp`, permission: `${PAGE}:create` },
        status: { method: 'GET', url: `${BASE}/${suffix}/batch/status`, permission: `${PAGE}:create` },
      },
    },
  };
}

export async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet('types');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

export interface Sent { status: number; code: number; msg: string; data: unknown }
export interface UploadParts { file?: Buffer | string; fileField?: string; companyId?: string; extra?: [string, string] }

/** A multipart form posted to `url + path`: the file in `fileField` (default `file`), an optional companyId and one extra field. */
export async function uploadForm(url: string, path: string, token: string, parts: UploadParts, lang = 'en'): Promise<Sent> {
  const form = new FormData();
  if (parts.companyId !== undefined) form.append('companyId', parts.companyId);
  if (parts.extra) form.append(parts.extra[0], parts.extra[1]);
  if (parts.file !== undefined) form.append(parts.fileField ?? 'file', new Blob([parts.file]), 'rows.xlsx');
  const res = await fetch(url + path, { method: 'POST', headers: { 'x-jwt': token, 'x-lang': lang }, body: form });
  const json = (await res.json()) as { code: number; msg: string; data: unknown };
  return { status: res.status, ...json };
}
