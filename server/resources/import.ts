/**
 * Reading an import sheet (.xlsx, first worksheet): a header row naming the columns (Chinese or
 * English, any order; unknown columns are refused so a misspelt header is not silently dropped), then one
 * record per row. Each cell is checked against its column's schema, the same TypeBox schema the
 * create call uses; the first bad cell refuses the whole file with 400 naming the row (as Excel numbers
 * it) and the column in the caller's language. Nothing is written here.
 */
import type { TSchema } from '@fastify/type-provider-typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import ExcelJS from 'exceljs';
import type { Lang } from '../../domain/errors/catalogue.ts';
import { isHttpOrRelativeUrl } from '../../domain/request/url.ts';
import { fail } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { HTTP_URL_FORMAT, validationMessage } from '../http/validation.ts';

export interface ImportColumn {
  /** The record field the column fills. */
  readonly key: string;
  readonly header: readonly [zh: string, en: string];
  readonly schema: TSchema;
  readonly required: boolean;
}

export interface ImportRow {
  /** The sheet's row number (the header is row 1). */
  readonly row: number;
  readonly fields: Record<string, unknown>;
}

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);

export const ImportMessages = {
  notXlsx: pair('文件不是有效的 .xlsx 表格', 'The file is not a valid .xlsx workbook'),
  empty: pair('表格中没有数据行', 'The sheet has no data rows'),
  tooMany: (max: number): Message => pair(`一次最多导入 ${max} 行`, `At most ${max} rows can be imported at once`),
  missingColumn: (header: readonly [string, string]): Message => pair(`表头缺少列「${header[0]}」`, `The header row lacks the column "${header[1]}"`),
  unknownColumn: (name: string): Message => pair(`表头有无法识别的列「${name}」`, `The header row has an unknown column "${name}"`),
  cell: (row: number, header: readonly [string, string], detail: (lang: Lang) => string): Message => (lang) =>
    lang === 'zh' ? `第 ${row} 行「${header[0]}」：${detail(lang)}` : `Row ${row}, column "${header[1]}": ${detail(lang)}`,
} as const;

// Cells arrive typed by Excel ("2013" typed as text, 2013 as a number): coerce to the column's type.
const ajv = new Ajv({ allErrors: false, useDefaults: true, strict: false, verbose: true, coerceTypes: true });
ajv.addFormat(HTTP_URL_FORMAT, isHttpOrRelativeUrl);
const compiled = new WeakMap<ImportColumn, ValidateFunction>();

function validatorOf(column: ImportColumn): ValidateFunction {
  let v = compiled.get(column);
  if (!v) {
    v = ajv.compile({ type: 'object', properties: { [column.key]: column.schema }, required: column.required ? [column.key] : [] });
    compiled.set(column, v);
  }
  return v;
}

/** A cell's plain value: text trimmed (empty → absent), numbers and booleans as they are, formulas by their result. */
function cellValue(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'object') {
    if ('richText' in value) return cellValue(value.richText.map((t) => t.text).join(''));
    if ('result' in value) return cellValue(value.result as ExcelJS.CellValue);
    if ('text' in value) return cellValue(value.text as string);
  }
  return undefined;
}

export async function readImportRows(file: Buffer, columns: readonly ImportColumn[], maxRows: number): Promise<ImportRow[]> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw fail.badRequest(ImportMessages.notXlsx);
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw fail.badRequest(ImportMessages.notXlsx);

  // Header: cell text → column (either language, case and surrounding spaces ignored).
  const byHeader = new Map<string, ImportColumn>();
  for (const c of columns) for (const h of c.header) byHeader.set(h.trim().toLowerCase(), c);
  const positions = new Map<number, ImportColumn>();
  sheet.getRow(1).eachCell((cell, col) => {
    const text = cellValue(cell.value);
    if (text === undefined) return;
    const column = byHeader.get(String(text).toLowerCase());
    if (!column) throw fail.badRequest(ImportMessages.unknownColumn(String(text)));
    positions.set(col, column);
  });
  const present = new Set(positions.values());
  const missing = columns.find((c) => c.required && !present.has(c));
  if (missing) throw fail.badRequest(ImportMessages.missingColumn(missing.header));

  const rows: ImportRow[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const fields: Record<string, unknown> = {};
    for (const [col, column] of positions) {
      const v = cellValue(row.getCell(col).value);
      if (v !== undefined) fields[column.key] = v;
    }
    if (Object.keys(fields).length === 0) continue; // blank rows between records are not records
    if (rows.length >= maxRows) throw fail.badRequest(ImportMessages.tooMany(maxRows));
    for (const column of columns) {
      const validate = validatorOf(column);
      if (!validate(fields)) {
        const errors = [...(validate.errors ?? [])];
        throw fail.badRequest(ImportMessages.cell(r, column.header, (lang) => validationMessage(errors, lang)));
      }
    }
    rows.push({ row: r, fields });
  }
  if (rows.length === 0) throw fail.badRequest(ImportMessages.empty);
  return rows;
}
