/**
 * /system/dictionary and /system/param (issue 19; contract: ./api.md). The dictionary is platform-wide
 * (any signed-in console reads it; a platform administrator changes it). Parameters are a tree of
 * groups and typed values (domain/system-config/params.ts holds kinds, limits and the one validation):
 * platform parameters change only by a platform administrator, company parameters (the report engine's
 * thresholds, stored in `report_setting`) by holders of the update bit, for a company in their subtree.
 * Every committed write bumps the part's version in `SystemConfig` (store.ts), which the push hub turns
 * into a notice so open consoles refetch.
 *
 * Paths: the catalogue's `paramconfig/findAll|save|update|remove` are already the terminal-parameter
 * templates of issue 17 (server/services/terminal-params); the system parameters use the same verbs
 * under `paramconfig/system/`.
 */
import { Type } from '@fastify/type-provider-typebox';
import { ErrorCode, type Lang } from '../../../domain/errors/catalogue.ts';
import { DICT_CODE_MAX, DICT_CODE_PATTERN, DICT_CODES_PER_KIND_MAX, DICT_MESSAGES, DICT_NAME_MAX, DICT_REMARK_MAX, DICT_SORT_MAX } from '../../../domain/system-config/dictionary.ts';
import {
  builtinParam, checkParamValue, PARAM_KEY_MAX, PARAM_KEY_PATTERN, PARAM_MESSAGES, PARAM_NAME_MAX, PARAM_OPTIONS_MAX,
  PARAM_TEXT_MAX, type ParamKind, type ParamOption, type ParamRule,
} from '../../../domain/system-config/params.ts';
import type { Storage } from '../../db/repositories.ts';
import type { SqliteStorage } from '../../db/sqlite/storage.ts';
import { auth, narrowedScope, permits, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import type { Message } from '../../http/messages.ts';
import { Id, IdList, Name, Strict, Text, type App } from '../../http/route.ts';
import { SystemConfig } from './store.ts';

export const DICTIONARY_PAGE = '/system/dictionary';
export const PARAM_PAGE = '/system/param';

const msg = (pair: readonly [string, string]): Message => (lang: Lang) => (lang === 'zh' ? pair[0] : pair[1]);
/** A 400 about one field by a rule of this screen: the sentence names the field, `errors` carries the code. */
const badField = (field: string, pair: readonly [string, string], code: string) =>
  new AppError(ErrorCode.BadRequest, (lang) => `${field}: ${msg(pair)(lang)}`, null, { [field]: { code } });

interface DictRow { id: number; parent_id: number | null; kind: string; code: string; code_cnname: string; code_enname: string; sort: number; enabled: number; builtin: number; remark: string; update_time: number }
interface ParamRow {
  id: number; parent_id: number | null; param_key: string; param_name: string; param_name_en: string; kind: ParamKind; scope: 'platform' | 'company';
  min: number | null; max: number | null; unit: string; unit_en: string; options: string; default_value: string | null; value: string | null;
  sort: number; builtin: number; remark: string; updated_by: string; update_time: number;
}

const dictView = (r: DictRow) => ({
  id: r.id, parentId: r.parent_id, kind: r.parent_id === null ? r.code : r.kind, code: r.code, codeCnname: r.code_cnname, codeEnname: r.code_enname,
  sort: r.sort, enabled: r.enabled === 1, builtin: r.builtin === 1, remark: r.remark, updateTime: r.update_time,
});

const ruleOf = (r: Pick<ParamRow, 'kind' | 'min' | 'max' | 'options'>): ParamRule => ({ kind: r.kind, min: r.min, max: r.max, options: JSON.parse(r.options) as ParamOption[] });

const DictFields = {
  code: Type.String({ minLength: 1, maxLength: DICT_CODE_MAX, pattern: DICT_CODE_PATTERN }),
  codeCnname: Name(DICT_NAME_MAX),
  codeEnname: Type.Optional(Text(DICT_NAME_MAX)),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: DICT_SORT_MAX })),
  enabled: Type.Optional(Type.Boolean()),
  remark: Type.Optional(Text(DICT_REMARK_MAX)),
};

const OptionSchema = Type.Object({ value: Type.String({ minLength: 1, maxLength: 32 }), zh: Name(PARAM_NAME_MAX), en: Type.Optional(Text(PARAM_NAME_MAX)) }, { additionalProperties: false });
const Bound = Type.Union([Type.Number({ minimum: -1e12, maximum: 1e12 }), Type.Null()]);

export interface SystemConfigDeps {
  readonly storage: Storage;
  /** The server's own default of a parameter (VIDEO_DAILY_LIMIT), over the catalogue's. */
  readonly defaults?: Readonly<Record<string, string>>;
}

export function systemConfigRoutes(app: App, deps: SystemConfigDeps): SystemConfig {
  const { storage } = deps;
  const db = (storage as SqliteStorage).db;
  const config = new SystemConfig(db, deps.defaults);
  config.install();

  const platformAdmin = (ctx: AuthContext, pair: readonly [string, string]) => {
    if (!ctx.isAdmin) throw fail.forbidden(msg(pair));
  };
  const who = (ctx: AuthContext) => ctx.user.realName || ctx.user.username;

  // ------------------------------------------------------------------ dictionary

  function dictRow(id: number): DictRow {
    const row = db.prepare('SELECT * FROM dictionary WHERE id = ?').get(id) as DictRow | undefined;
    if (!row) throw fail.notFound(msg(DICT_MESSAGES.notFound));
    return row;
  }
  function codeFree(kind: string, code: string, except = 0): void {
    if (db.prepare('SELECT 1 FROM dictionary WHERE kind = ? AND code = ? AND id <> ?').get(kind, code, except)) throw fail.field('code', { code: 'taken' });
  }

  app.get('/service-priv/dictionary/getTreeDictionaries', {
    config: { permission: 'session' },
    schema: { querystring: Strict({ kind: Type.Optional(Type.String({ minLength: 1, maxLength: DICT_CODE_MAX })), enabledOnly: Type.Optional(Type.Boolean()) }) },
  }, async (request) => {
    const q = request.query;
    const only = q.enabledOnly === true ? ' AND enabled = 1' : '';
    const kinds = (q.kind
      ? db.prepare(`SELECT * FROM dictionary WHERE parent_id IS NULL AND code = ?${only}`).all(q.kind)
      : db.prepare(`SELECT * FROM dictionary WHERE parent_id IS NULL${only} ORDER BY sort, id`).all()) as DictRow[];
    const codes = db.prepare(`SELECT * FROM dictionary WHERE parent_id = ?${only} ORDER BY sort, id`);
    const tree = kinds.map((k) => ({ ...dictView(k), children: (codes.all(k.id) as DictRow[]).map(dictView) }));
    return ok({ version: config.version('dictionary'), tree }, requestLang(request));
  });

  app.get('/service-priv/dictionary/dictionary_kinds', {
    config: { permission: 'session' },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const rows = db.prepare('SELECT * FROM dictionary WHERE parent_id IS NULL ORDER BY sort, id').all() as DictRow[];
    return ok(rows.map(dictView), requestLang(request));
  });

  app.post('/service-priv/dictionary/save', {
    config: { permission: `${DICTIONARY_PAGE}:create` },
    // parentId absent: a new kind; present: a code of that kind.
    schema: { body: Strict({ parentId: Type.Optional(Id), ...DictFields }) },
  }, async (request) => {
    const ctx = auth(request);
    platformAdmin(ctx, DICT_MESSAGES.platformOnly);
    const b = request.body;
    let kind = '';
    if (b.parentId !== undefined) {
      const parent = db.prepare('SELECT * FROM dictionary WHERE id = ? AND parent_id IS NULL').get(b.parentId) as DictRow | undefined;
      if (!parent) throw badField('parentId', DICT_MESSAGES.kindNotFound, 'noSuchKind');
      kind = parent.code;
      const n = (db.prepare('SELECT count(*) AS n FROM dictionary WHERE parent_id = ?').get(parent.id) as { n: number }).n;
      if (n >= DICT_CODES_PER_KIND_MAX) throw fail.field('code', { code: 'maxItems', params: { limit: DICT_CODES_PER_KIND_MAX } });
    }
    codeFree(kind, b.code);
    const id = Number(db.prepare('INSERT INTO dictionary (parent_id, kind, code, code_cnname, code_enname, sort, enabled, remark, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(b.parentId ?? null, kind, b.code, b.codeCnname.trim(), (b.codeEnname ?? '').trim(), b.sort ?? 0, b.enabled === false ? 0 : 1, (b.remark ?? '').trim(), Date.now()).lastInsertRowid);
    config.changed('dictionary');
    return ok(dictView(dictRow(id)), requestLang(request));
  });

  app.post('/service-priv/dictionary/update', {
    config: { permission: `${DICTIONARY_PAGE}:update` },
    schema: { body: Strict({ id: Id, ...DictFields }) },
  }, async (request) => {
    const ctx = auth(request);
    platformAdmin(ctx, DICT_MESSAGES.platformOnly);
    const b = request.body;
    const row = dictRow(b.id);
    if (row.builtin === 1 && b.code !== row.code) throw badField('code', DICT_MESSAGES.builtinCode, 'builtinCode');
    codeFree(row.kind, b.code, row.id);
    db.transaction(() => {
      db.prepare('UPDATE dictionary SET code = ?, code_cnname = ?, code_enname = ?, sort = ?, enabled = ?, remark = ?, update_time = ? WHERE id = ?').run(
        b.code, b.codeCnname.trim(), b.codeEnname === undefined ? row.code_enname : b.codeEnname.trim(), b.sort ?? row.sort,
        b.enabled === undefined ? row.enabled : b.enabled ? 1 : 0, b.remark === undefined ? row.remark : b.remark.trim(), Date.now(), row.id);
      // A kind's codes carry its code: a renamed kind takes them along.
      if (row.parent_id === null && b.code !== row.code) db.prepare('UPDATE dictionary SET kind = ? WHERE parent_id = ?').run(b.code, row.id);
    })();
    config.changed('dictionary');
    return ok(dictView(dictRow(row.id)), requestLang(request));
  });

  app.post('/service-priv/dictionary/delete', {
    config: { permission: `${DICTIONARY_PAGE}:delete` },
    schema: { body: Strict({ ids: IdList }) },
  }, async (request) => {
    const ctx = auth(request);
    platformAdmin(ctx, DICT_MESSAGES.platformOnly);
    const rows = request.body.ids.map(dictRow);
    // All or nothing: every entry is checked before the first is deleted.
    if (rows.some((r) => r.builtin === 1)) throw fail.badRequest(msg(DICT_MESSAGES.builtinRemove));
    for (const r of rows) {
      if (r.parent_id !== null) continue;
      const left = db.prepare('SELECT id FROM dictionary WHERE parent_id = ?').all(r.id) as { id: number }[];
      if (left.some((c) => !request.body.ids.includes(c.id))) throw fail.badRequest(msg(DICT_MESSAGES.kindHasCodes));
    }
    db.transaction(() => {
      const del = db.prepare('DELETE FROM dictionary WHERE id = ?');
      for (const r of rows) del.run(r.id);
    })();
    config.changed('dictionary');
    return ok({ deleted: rows.length }, requestLang(request));
  });

  // ------------------------------------------------------------------ system parameters

  function paramRow(id: number): ParamRow {
    const row = db.prepare('SELECT * FROM sys_param WHERE id = ?').get(id) as ParamRow | undefined;
    if (!row) throw fail.notFound(msg(PARAM_MESSAGES.notFound));
    return row;
  }

  /** The company a company parameter is read or written for: the selected one (in scope) or the caller's own. */
  async function targetCompany(ctx: AuthContext, companyId: number | undefined): Promise<number> {
    const scope = await narrowedScope(storage, ctx, companyId);
    return scope.all ? (companyId ?? ctx.user.companyId) : scope.rootId;
  }

  function companyValues(companyId: number): Map<string, number> {
    const rows = db.prepare('SELECT key, value FROM report_setting WHERE company_id = ?').all(companyId) as { key: string; value: number }[];
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  function paramView(r: ParamRow, own: Map<string, number>, ctx: AuthContext) {
    const companyValue = r.scope === 'company' ? own.get(r.param_key) : undefined;
    const value = r.kind === 'group' ? null : r.scope === 'company' ? (companyValue === undefined ? null : String(companyValue)) : r.value;
    return {
      id: r.id, parentId: r.parent_id, paramKey: r.param_key, paramName: r.param_name, paramNameEn: r.param_name_en, kind: r.kind, scope: r.scope,
      min: r.min, max: r.max, unit: r.unit, unitEn: r.unit_en, options: JSON.parse(r.options) as ParamOption[], defaultValue: r.default_value,
      /** The stored value (the company's own for a company parameter); null: the default is in force. */
      value,
      effective: r.kind === 'group' ? null : value ?? r.default_value,
      builtin: r.builtin === 1, remark: r.remark, updatedBy: r.updated_by, updateTime: r.update_time,
      editable: r.kind !== 'group' && (r.scope === 'company' ? permits(ctx, `${PARAM_PAGE}:update`) : ctx.isAdmin && permits(ctx, `${PARAM_PAGE}:update`)),
    };
  }
  type ParamView = ReturnType<typeof paramView> & { children?: ParamView[] };

  app.get('/service-priv/paramconfig/system/findAll', {
    config: { permission: PARAM_PAGE },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    const companyId = await targetCompany(ctx, request.query.companyId);
    const own = companyValues(companyId);
    const rows = db.prepare('SELECT * FROM sys_param ORDER BY sort, id').all() as ParamRow[];
    const views = new Map<number, ParamView>(rows.map((r) => [r.id, paramView(r, own, ctx)]));
    const roots: ParamView[] = [];
    for (const v of views.values()) {
      const parent = v.parentId === null ? undefined : views.get(v.parentId);
      if (parent) (parent.children ??= []).push(v);
      else roots.push(v);
    }
    return ok({ version: config.version('params'), companyId, platformAdmin: ctx.isAdmin, tree: roots }, requestLang(request));
  });

  /** What the console's pages read: every value in force for the selected company (platform ones included). */
  app.get('/service-priv/paramconfig/system/values', {
    config: { permission: 'session' },
    schema: { querystring: Strict({}) },
  }, async (request) => {
    const ctx = auth(request);
    const companyId = await targetCompany(ctx, request.query.companyId);
    const values: Record<string, string> = config.platformValues();
    const own = companyValues(companyId);
    const rows = db.prepare("SELECT param_key, default_value FROM sys_param WHERE scope = 'company' AND kind <> 'group'").all() as { param_key: string; default_value: string | null }[];
    for (const r of rows) {
      const v = own.get(r.param_key);
      if (v !== undefined) values[r.param_key] = String(v);
      else if (r.default_value !== null) values[r.param_key] = r.default_value;
    }
    return ok({ version: config.version('params'), companyId, values }, requestLang(request));
  });

  app.post('/service-priv/paramconfig/system/save', {
    config: { permission: `${PARAM_PAGE}:create` },
    schema: {
      body: Strict({
        parentId: Type.Optional(Id),
        paramKey: Type.String({ minLength: 1, maxLength: PARAM_KEY_MAX, pattern: PARAM_KEY_PATTERN }),
        paramName: Name(PARAM_NAME_MAX),
        paramNameEn: Type.Optional(Text(PARAM_NAME_MAX)),
        // 'group' and CUSTOM_PARAM_KINDS (domain/system-config/params.ts), spelled out so the handler is typed by them.
        kind: Type.Union([Type.Literal('group'), Type.Literal('int'), Type.Literal('number'), Type.Literal('enum'), Type.Literal('duration'), Type.Literal('text')]),
        min: Type.Optional(Bound),
        max: Type.Optional(Bound),
        unit: Type.Optional(Text(16)),
        options: Type.Optional(Type.Array(OptionSchema, { maxItems: PARAM_OPTIONS_MAX })),
        value: Type.Optional(Type.Union([Text(PARAM_TEXT_MAX), Type.Null()])),
        remark: Type.Optional(Text(200)),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    // Custom parameters are platform-wide: only a platform administrator adds them.
    platformAdmin(ctx, PARAM_MESSAGES.platformOnly);
    const b = request.body;
    if (b.parentId !== undefined) {
      const parent = db.prepare("SELECT kind FROM sys_param WHERE id = ?").get(b.parentId) as { kind: string } | undefined;
      if (!parent || parent.kind !== 'group') throw badField('parentId', PARAM_MESSAGES.noParent, 'noSuchGroup');
    }
    if (db.prepare('SELECT 1 FROM sys_param WHERE param_key = ?').get(b.paramKey)) throw fail.field('paramKey', { code: 'taken' });
    const min = b.min ?? null;
    const max = b.max ?? null;
    if (min !== null && max !== null && min > max) throw fail.field('max', { code: 'minimum', params: { limit: min } });
    const options: ParamOption[] = b.kind === 'enum' ? (b.options ?? []).map((o) => ({ value: o.value.trim(), zh: o.zh.trim(), en: (o.en ?? '').trim() })) : [];
    if (b.kind === 'enum' && options.length === 0) throw fail.field('options', { code: 'minItems', params: { limit: 1 } });
    let value: string | null = null;
    if (b.kind !== 'group' && b.value !== undefined && b.value !== null) {
      const checked = checkParamValue({ kind: b.kind, min, max, options }, b.value);
      if (!checked.ok) throw fail.field('value', checked.problem);
      value = checked.value;
    }
    const now = Date.now();
    const id = Number(db.prepare(`INSERT INTO sys_param (parent_id, param_key, param_name, param_name_en, kind, scope, min, max, unit, options, default_value, value, sort, builtin, remark, updated_by, update_time)
      VALUES (?, ?, ?, ?, ?, 'platform', ?, ?, ?, ?, NULL, ?, (SELECT coalesce(max(sort), 0) + 1 FROM sys_param), 0, ?, ?, ?)`)
      .run(b.parentId ?? null, b.paramKey, b.paramName.trim(), (b.paramNameEn ?? '').trim(), b.kind, min, max, (b.unit ?? '').trim(), JSON.stringify(options), value, (b.remark ?? '').trim(), who(ctx), now).lastInsertRowid);
    config.changed('params');
    return ok(paramView(paramRow(id), new Map(), ctx), requestLang(request));
  });

  app.post('/service-priv/paramconfig/system/update', {
    config: { permission: `${PARAM_PAGE}:update` },
    schema: {
      body: Strict({
        id: Id,
        /** The new value as typed; null: back to the default. */
        value: Type.Union([Text(PARAM_TEXT_MAX), Type.Null()]),
        paramName: Type.Optional(Name(PARAM_NAME_MAX)),
        paramNameEn: Type.Optional(Text(PARAM_NAME_MAX)),
        remark: Type.Optional(Text(200)),
      }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const row = paramRow(b.id);
    if (row.scope === 'platform') platformAdmin(ctx, PARAM_MESSAGES.platformOnly);
    if (row.builtin === 1 && (b.paramName !== undefined || b.paramNameEn !== undefined)) throw fail.badRequest(msg(PARAM_MESSAGES.builtinShape));
    if (row.kind === 'group' && b.value !== null) throw fail.field('value', { code: 'type', params: { type: 'null' } });
    // A built-in parameter is checked against the catalogue (the code's rule), a custom one against its row.
    const builtin = row.builtin === 1 ? builtinParam(row.param_key) : undefined;
    let value: string | null = null;
    if (b.value !== null && row.kind !== 'group') {
      const checked = checkParamValue(builtin ?? ruleOf(row), b.value);
      if (!checked.ok) throw fail.field('value', checked.problem);
      value = checked.value;
    }
    const companyId = row.scope === 'company' ? await targetCompany(ctx, b.companyId) : null;
    const now = Date.now();
    db.transaction(() => {
      if (companyId !== null) {
        if (value === null) db.prepare('DELETE FROM report_setting WHERE company_id = ? AND key = ?').run(companyId, row.param_key);
        else db.prepare('INSERT INTO report_setting (company_id, key, value) VALUES (?, ?, ?) ON CONFLICT (company_id, key) DO UPDATE SET value = excluded.value').run(companyId, row.param_key, Number(value));
        db.prepare('UPDATE sys_param SET updated_by = ?, update_time = ? WHERE id = ?').run(who(ctx), now, row.id);
      } else {
        db.prepare('UPDATE sys_param SET value = ?, param_name = ?, param_name_en = ?, remark = ?, updated_by = ?, update_time = ? WHERE id = ?').run(
          value, b.paramName?.trim() ?? row.param_name, b.paramNameEn?.trim() ?? row.param_name_en, b.remark?.trim() ?? row.remark, who(ctx), now, row.id);
      }
    })();
    config.changed('params');
    return ok(paramView(paramRow(row.id), companyId === null ? new Map() : companyValues(companyId), ctx), requestLang(request));
  });

  app.get('/service-priv/paramconfig/system/remove', {
    // A GET that deletes (the catalogue's verb): audited like a write (server/services/audit/hook.ts).
    config: { permission: `${PARAM_PAGE}:delete`, audit: true },
    schema: { querystring: Strict({ ids: IdList }) },
  }, async (request) => {
    const ctx = auth(request);
    platformAdmin(ctx, PARAM_MESSAGES.platformOnly);
    const ids = request.query.ids;
    const rows = ids.map(paramRow);
    if (rows.some((r) => r.builtin === 1)) throw fail.badRequest(msg(PARAM_MESSAGES.builtinRemove));
    for (const r of rows) {
      const children = db.prepare('SELECT id FROM sys_param WHERE parent_id = ?').all(r.id) as { id: number }[];
      if (children.some((c) => !ids.includes(c.id))) throw fail.badRequest(msg(PARAM_MESSAGES.hasChildren));
    }
    // Deepest first: a group goes after everything under it (RESTRICT on parent_id).
    const parentOf = db.prepare('SELECT parent_id FROM sys_param WHERE id = ?');
    const depth = (r: ParamRow) => {
      let d = 0;
      for (let p = r.parent_id; p !== null && d < 64; d++) p = (parentOf.get(p) as { parent_id: number | null } | undefined)?.parent_id ?? null;
      return d;
    };
    const ordered = rows.map((r) => ({ r, d: depth(r) })).sort((x, y) => y.d - x.d);
    db.transaction(() => {
      const del = db.prepare('DELETE FROM sys_param WHERE id = ?');
      for (const { r } of ordered) del.run(r.id);
    })();
    config.changed('params');
    return ok({ deleted: rows.length }, requestLang(request));
  });

  return config;
}
