/**
 * The vehicle and driver forms' code lists read the data dictionary (issue 19: plate colour, vehicle type,
 * licence class; domain/system-config/dictionary.ts seeds them from domain/fleet/limits.ts). The server
 * checks the same thing the form offers: a written code must be an ENABLED code of its kind, so a code an
 * administrator disabled is refused for new values at once, without a restart. A record keeps the code it
 * already has (an update that leaves the field as it is, or repeats it, passes), so disabling a code never
 * blocks editing the other fields of the vehicles that carry it. The request schema still limits the codes
 * to those the platform stores and speaks (JT/T 415 colours, the reports' vehicle types, the licence classes):
 * a code added to these built-in kinds is not offered by the form either (src/features/vehicles/dict-options.ts).
 */
import { ErrorCode, FieldMessage } from '../../domain/errors/catalogue.ts';
import { DictKinds } from '../../domain/system-config/dictionary.ts';
import type { Storage } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { AppError } from '../http/envelope.ts';

/** The form field → its dictionary kind and name. */
export const DICT_FIELDS = {
  plateColor: { kind: DictKinds.plateColor, zh: '车牌颜色', en: 'Plate colour' },
  vehicleType: { kind: DictKinds.vehicleType, zh: '车辆类型', en: 'Vehicle type' },
  licenceClass: { kind: DictKinds.licenceClass, zh: '准驾车型', en: 'Licence class' },
} as const;
export type DictField = keyof typeof DICT_FIELDS;

type Lookup = { get(kind: string, code: string): unknown };
/** The lookup statement of each database, prepared once (a vehicle import checks three codes per row). */
const lookups = new WeakMap<object, Lookup>();

function lookupOf(db: NonNullable<Partial<SqliteStorage>['db']>): Lookup {
  let stmt = lookups.get(db);
  if (!stmt) {
    stmt = db.prepare('SELECT 1 FROM dictionary WHERE kind = ? AND code = ? AND parent_id IS NOT NULL AND enabled = 1') as Lookup;
    lookups.set(db, stmt);
  }
  return stmt;
}

/**
 * Refuses (400, naming the field) a code of `field` that is not an enabled code of its kind. `''`/null/undefined
 * (not entered) and the record's current value pass.
 */
export function checkDictCode(storage: Storage, field: DictField, value: unknown, current: unknown): void {
  if (value === undefined || value === null || value === '' || value === current) return;
  const db = (storage as Partial<SqliteStorage>).db;
  if (!db) return;
  const { kind, zh, en } = DICT_FIELDS[field];
  const found = lookupOf(db).get(kind, String(value));
  if (found) return;
  throw new AppError(ErrorCode.BadRequest, (lang) => FieldMessage.invalid(field, lang === 'zh'
    ? `${zh}「${String(value)}」不在数据字典中或已停用`
    : `${en} "${String(value)}" is not an enabled code of the data dictionary`, lang), null, { [field]: { code: 'dictionary' } });
}
