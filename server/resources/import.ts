/**
 * Reading an import sheet (.xlsx, first worksheet): a header row naming the columns (Chinese or
 * English, any order; unknown columns are refused so a misspelt header is not silently dropped), then one
 * record per row. Each cell is checked against its column's schema, the same TypeBox schema the
 * create call uses. Every bad cell of every row is collected (row as Excel numbers it, column in the
 * caller's language), so a refusal names all of them at once. Nothing is written here.
 *
 * The sheet is read with exceljs's streaming reader: a 10,000-row file is parsed in slices that give
 * the event loop back (the whole-book `load()` held it ≈ 300 ms at a time on the bench machine, the
 * stream ≈ 40 ms), and rows are counted while they arrive (the import job's "reading" progress).
 */
import { Readable } from 'node:stream';
import type { TSchema } from '@fastify/type-provider-typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import ExcelJS from 'exceljs';
import type { Lang } from '../../domain/errors/catalogue.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { fieldRuleText } from '../../domain/errors/field-problem.ts';
import { isHttpOrRelativeUrl } from '../../domain/request/url.ts';
import { AppError, fail } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { HTTP_URL_FORMAT, validationMessage, validationProblem } from '../http/validation.ts';

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

/**
 * One problem of a file: the row and column when it has them. `detail` says what is wrong without
 * naming them (the list shows row and column apart); `message` is the whole sentence (a refusal's `msg`).
 */
export interface ImportProblem {
  readonly row?: number;
  readonly column?: ImportColumn;
  readonly code: number;
  readonly detail: Message;
  readonly message: Message;
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
  row: (row: number, detail: Message): Message => (lang) => (lang === 'zh' ? `第 ${row} 行：${detail(lang)}` : `Row ${row}: ${detail(lang)}`),
} as const;

/** A problem of the whole file (no row): not a workbook, a header it does not know, too many rows. */
export function fileProblem(err: AppError): ImportProblem {
  const text: Message = (lang) => err.localized(lang);
  return { code: err.code, detail: text, message: text };
}

/**
 * A resource rule broken by one row (an AppError of prepare, check or write): the column is the
 * import column named by the error's field, when it names one the sheet has.
 */
export function ruleProblem(row: number, err: AppError, columns: readonly ImportColumn[]): ImportProblem {
  const named = err.fields ? Object.keys(err.fields) : [];
  const column = columns.find((c) => named.includes(c.key));
  const detail: Message = (lang) => err.localized(lang);
  return { row, column, code: err.code, detail, message: ImportMessages.row(row, detail) };
}

function cellProblem(row: number, column: ImportColumn, errors: readonly ErrorObject[]): ImportProblem {
  const v = validationProblem(errors);
  // In the list the column is shown apart, so the rule alone ("长度不能超过 16"); the sentence keeps the field as before.
  const detail: Message = (lang) => (v && fieldRuleText(v.problem, lang)) ?? validationMessage(errors, lang);
  return { row, column, code: ErrorCode.BadRequest, detail, message: ImportMessages.cell(row, column.header, (lang) => validationMessage(errors, lang)) };
}

/**
 * The problems of one file in row order (then column order), at most `cap` kept; `count` is every
 * problem added. Compacts as it goes, so a file with a bad cell in every row holds `2 × cap` at most.
 */
export class ProblemList {
  private items: ImportProblem[] = [];
  count = 0;

  constructor(private readonly columns: readonly ImportColumn[], readonly cap: number) {}

  add(p: ImportProblem): void {
    this.count += 1;
    this.items.push(p);
    if (this.items.length >= 2 * this.cap) this.items = this.sorted().slice(0, this.cap);
  }

  /** The kept problems, first `cap` in row order. */
  listed(): ImportProblem[] {
    return this.sorted().slice(0, this.cap);
  }

  private sorted(): ImportProblem[] {
    const at = (p: ImportProblem) => (p.column ? this.columns.indexOf(p.column) : -1);
    return [...this.items].sort((a, b) => (a.row ?? 0) - (b.row ?? 0) || at(a) - at(b));
  }
}

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

export interface SheetReadOptions {
  /** Rows read so far (every `every` rows, and at the end). */
  readonly onProgress?: (read: number) => void;
  /** Rows between two yields to the event loop (and progress reports). */
  readonly every?: number;
}

export interface ImportSheet {
  /** The rows whose every cell passed, in sheet order. */
  readonly rows: ImportRow[];
  /** Data rows in the file, bad ones included (blank rows are not rows). */
  readonly total: number;
  /** The rows with a bad cell (their rows are left out of `rows`). */
  readonly badRows: number;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads the first worksheet: header, then every row checked cell by cell; bad cells go to `problems`
 * (all of them), good rows are answered. Throws a 400 for a problem of the whole file (not an .xlsx,
 * a header column unknown or missing, no data rows, more than `maxRows`).
 */
export async function readImportSheet(file: Buffer, columns: readonly ImportColumn[], maxRows: number, problems: ProblemList, opts: SheetReadOptions = {}): Promise<ImportSheet> {
  const every = opts.every ?? 500;
  // Not a zip at all: refused here (an empty buffer left exceljs's stream waiting forever).
  if (file.length < 22 || file.readUInt32LE(0) !== 0x04034b50) throw fail.badRequest(ImportMessages.notXlsx);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
  const byHeader = new Map<string, ImportColumn>();
  for (const c of columns) for (const h of c.header) byHeader.set(h.trim().toLowerCase(), c);

  let positions: Map<number, ImportColumn> | undefined;
  const rows: ImportRow[] = [];
  let total = 0;
  let badRows = 0;
  let read = 0;
  let sheets = 0;
  const header = (row: ExcelJS.Row) => {
    positions = new Map();
    row.eachCell((cell, col) => {
      const text = cellValue(cell.value);
      if (text === undefined) return;
      const column = byHeader.get(String(text).toLowerCase());
      if (!column) throw fail.badRequest(ImportMessages.unknownColumn(String(text)));
      positions!.set(col, column);
    });
    const present = new Set(positions.values());
    const missing = columns.find((c) => c.required && !present.has(c));
    if (missing) throw fail.badRequest(ImportMessages.missingColumn(missing.header));
  };
  try {
    for await (const sheet of reader) {
      sheets += 1;
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        // A blank first row is a header naming no column: the first required one is missing.
        if (!positions) header(row.number === 1 ? row : ({ eachCell: () => undefined } as unknown as ExcelJS.Row));
        if (row.number === 1) continue;
        read += 1;
        if (read % every === 0) {
          opts.onProgress?.(read);
          await nextTurn();
        }
        const fields: Record<string, unknown> = {};
        for (const [col, column] of positions!) {
          const v = cellValue(row.getCell(col).value);
          if (v !== undefined) fields[column.key] = v;
        }
        if (Object.keys(fields).length === 0) continue; // blank rows between records are not records
        total += 1;
        if (total > maxRows) throw fail.badRequest(ImportMessages.tooMany(maxRows));
        let bad = false;
        for (const column of columns) {
          const validate = validatorOf(column);
          if (!validate(fields)) {
            bad = true;
            problems.add(cellProblem(row.number, column, [...(validate.errors ?? [])]));
          }
        }
        if (bad) badRows += 1;
        else rows.push({ row: row.number, fields });
      }
      break; // the first worksheet only
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw fail.badRequest(ImportMessages.notXlsx);
  }
  if (sheets === 0) throw fail.badRequest(ImportMessages.notXlsx);
  if (!positions) {
    // An empty first sheet: no header, so the first required column is missing.
    const required = columns.find((c) => c.required);
    if (required) throw fail.badRequest(ImportMessages.missingColumn(required.header));
  }
  opts.onProgress?.(read);
  if (total === 0) throw fail.badRequest(ImportMessages.empty);
  return { rows, total, badRows };
}
