/**
 * .xlsx answers for the report exports: one sheet, a header row in the caller's language, then the
 * rows. The file goes out as raw bytes with Content-Disposition (RFC 6266 `filename*` for the
 * Chinese name, an ASCII `filename` fallback), which the console's export client saves as is.
 */
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import type { Lang } from '../../../domain/errors/catalogue.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface SheetColumn<T> {
  readonly header: readonly [zh: string, en: string];
  readonly width?: number;
  readonly value: (row: T) => string | number | boolean | null;
}

export async function xlsxBuffer<T>(sheetName: string, columns: readonly SheetColumn<T>[], rows: readonly T[], lang: Lang): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(sheetName);
  sheet.columns = columns.map((c, k) => ({ key: `c${k}`, width: c.width ?? 14 }));
  const header = sheet.addRow(columns.map((c) => c.header[lang === 'zh' ? 0 : 1]));
  header.font = { bold: true };
  for (const row of rows) sheet.addRow(columns.map((c) => c.value(row)));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Sends an .xlsx; `name` is the file name without extension in the caller's language, `asciiName` the fallback. */
export function sendXlsx(reply: FastifyReply, body: Buffer, name: string, asciiName: string): FastifyReply {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="${asciiName}.xlsx"; filename*=UTF-8''${encodeURIComponent(`${name}.xlsx`)}`)
    .send(body);
}
