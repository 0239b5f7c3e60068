/**
 * The resource layer (issue 13, design in ./CONTEXT.md): a company-scoped table declared once —
 * operations with the spec's paths and methods, the TypeBox schemas, a permission per operation, the
 * repository, and the resource's own rules as hooks — and registered as ordinary Fastify routes.
 * Every route still goes through `installRoutePolicies` (a missing permission fails at start-up) and
 * answers the same envelope and errors as a hand-written one. Every write passes through `writeThrough`.
 */
import { Type, type TProperties, type TSchema } from '@fastify/type-provider-typebox';
import ExcelJS from 'exceljs';
import type { Lang } from '../../domain/errors/catalogue.ts';
import { changedFields, type ChangeResource } from '../db/change-log-types.ts';
import type { Repositories, Storage } from '../db/repositories.ts';
import { ALL_COMPANIES, type Scope } from '../db/scope.ts';
import type { Page, PageRequest } from '../db/types.ts';
import { auth, narrowedScope, permitsAny, type AuthContext } from '../http/auth.ts';
import { fail, ok } from '../http/envelope.ts';
import { requestLang } from '../http/lang.ts';
import { Messages, type Message } from '../http/messages.ts';
import { Id, IdList, PageFields, policyKeys, Strict, type App, type RoutePermission } from '../http/route.ts';
import { sendXlsx, xlsxBuffer, type SheetColumn } from '../services/reports/excel.ts';
import { ExportJobs } from '../services/export-jobs.ts';
import type { ImportColumn } from './import.ts';
import { refusalError, registerImportJob, runImport, type ImportRunner } from './import-jobs.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Where one operation answers and who may call it. GET and DELETE read their input from the query, POST and PUT from the body. */
export interface Endpoint {
  readonly method: Method;
  /** Full path; a `:id` segment makes `detail` read the id from the path. */
  readonly url: string;
  /** A registry key, 'session' or 'public': required (a route without one fails at start-up). */
  readonly permission: RoutePermission;
  /** Where the input is read; default: the query for GET and DELETE, the body for POST and PUT (the spec's `DELETE /vehicle` takes a body). */
  readonly input?: 'query' | 'body';
}

/** A request's fields after validation (the schema has checked them; declarations read what they declared). */
export type Fields = Readonly<Record<string, unknown>>;

/** The repository the layer reads and writes; a declaration adapts its storage interface to it. */
export interface ResourceStore<R> {
  get(scope: Scope, id: number): Promise<R | undefined>;
  page(scope: Scope, req: PageRequest & Fields): Promise<Page<R>>;
  create(input: Fields): Promise<number>;
  update(id: number, patch: Fields, record: R): Promise<void>;
  delete(record: R): Promise<void>;
}

/** What hooks see of the call. */
export interface CallContext {
  readonly ctx: AuthContext;
  readonly lang: Lang;
  readonly storage: Storage;
  /** The caller's address (the operator log's "from where"). */
  readonly ip: string;
}

/**
 * The operator log of a resource (issue 15, `change_log`): every create, update, delete and imported
 * row appends one row in the write's own transaction, with the changed fields before and after.
 */
export interface ChangeLogDeclaration<R> {
  readonly resource: ChangeResource;
  /** Plate, number or name: what the log's search finds. */
  readonly label: (record: R) => string;
  readonly companyId: (record: R) => number;
  /** The logged fields of a record (before / after compare them); the record itself when absent. */
  readonly fields?: (record: R) => Record<string, unknown>;
  /**
   * A created record's log entry from the written fields and its new id, without reading the record
   * back (a 10,000-row import logs every row inside its one transaction): the same label, company and
   * `fields(record)` the read would give. Undefined when the fields alone cannot tell (then it is read).
   */
  readonly created?: (id: number, input: Fields) => LoggedRecord | undefined;
}

/** What the operator log keeps of one record. */
export interface LoggedRecord {
  readonly label: string;
  readonly companyId: number;
  readonly fields: Record<string, unknown>;
}

/**
 * The resource's own rules. `prepare*` run before the transaction (reads, scope and reference checks,
 * normalisation; never inside it: scrypt and the like must not hold it open) and answer the fields to
 * write; `check*` run inside the transaction on its repositories (uniqueness, in use), so a batch or an
 * import is refused as a whole.
 */
export interface ResourceHooks<R> {
  prepareCreate?(call: CallContext, body: Fields): Promise<Fields>;
  prepareUpdate?(call: CallContext, record: R, body: Fields): Promise<Fields>;
  /** May reorder (companies: deepest first) or refuse (403) the records to delete. */
  prepareDelete?(call: CallContext, records: R[]): Promise<R[]>;
  checkWrite?(tx: Repositories, input: Fields, record: R | undefined, call: CallContext): Promise<void>;
  checkDelete?(tx: Repositories, record: R, call: CallContext): Promise<void>;
  /**
   * Runs inside the transaction right after a create, update or imported row is written (`id` the
   * record's): the writes that come with it (a vehicle's device binding and its installation record).
   * `record` is the record before an update, undefined for a create.
   */
  afterWrite?(tx: Repositories, id: number, input: Fields, record: R | undefined, call: CallContext): Promise<void>;
}

/** `X`: the rows of the sheet (the records, or records with what the sheet adds, e.g. a user's role names). */
export interface ExportDeclaration<X> {
  readonly start: Endpoint;
  readonly status: Endpoint;
  readonly file: Endpoint;
  /** The sheet's columns; a function of the caller's language when cells are words (status, level). */
  readonly columns: readonly SheetColumn<X>[] | ((lang: Lang) => readonly SheetColumn<X>[]);
  /** Rows of one export at most; the status names the cap when the filter matched more. */
  readonly cap: number;
  /** The rows in `scope` (the caller's, narrowed by `companyId`) that match the page filters. */
  readonly list: (repos: Repositories, scope: Scope, filters: Fields, limit: number) => Promise<{ total: number; records: X[] }>;
  readonly fileName: readonly [zh: string, en: string];
  readonly asciiName: string;
}

/** The spec's three export calls under `base` (`…/excel`, `…/export_status`, `…/excel_file`), all behind `permission` (the screen's export bit). */
export function exportEndpoints(base: string, permission: RoutePermission): Pick<ExportDeclaration<unknown>, 'start' | 'status' | 'file'> {
  return {
    start: { method: 'POST', url: `${base}/excel`, permission },
    status: { method: 'GET', url: `${base}/export_status`, permission },
    file: { method: 'GET', url: `${base}/excel_file`, permission },
  };
}

/** An export's rows through the resource's page query: the first `limit` matching rows in `scope` and the matched total. */
export async function firstRows<R>(page: (scope: Scope, req: PageRequest & Fields) => Promise<Page<R>>, scope: Scope, filters: Fields, limit: number): Promise<{ total: number; records: R[] }> {
  const { total, records } = await page(scope, { ...filters, current: 1, size: limit });
  return { total, records };
}

export interface ImportDeclaration {
  readonly endpoint: Endpoint;
  /** Sheet columns in order; each header may be written in Chinese or English. */
  readonly columns: readonly ImportColumn[];
  readonly maxRows: number;
  /**
   * A GET answering an empty .xlsx whose header row names the import columns in the caller's language
   * (the file users fill, then import); `fileName` [zh, en] and `asciiName` name it.
   */
  readonly template?: Endpoint & {
    readonly fileName: readonly [zh: string, en: string];
    readonly asciiName: string;
    /** What a column's cells may hold, by column key: a note on its header cell and a row of a second sheet (填写说明 / Notes). */
    readonly hints?: Readonly<Record<string, Message>>;
  };
  /**
   * A row's cells as written in the sheet → the fields `prepareCreate` takes (words to codes: 蓝色 → 1).
   * Runs before `prepareCreate`; an AppError naming a field is a problem of that row and column.
   */
  readonly cells?: (fields: Fields) => Fields;
  /**
   * Set when `checkWrite` guards only what the tables' UNIQUE constraints guard (vehicles: the plate).
   * The check phase has run it on every row; inside the write transaction a row is then checked again
   * only when its insert breaks a constraint (the same plate twice in the file, or entered since), so
   * the row's problem is the rule's own answer. Saves a look-up per row while the transaction holds the loop.
   */
  readonly checkOnConflict?: boolean;
  /**
   * The large-file path (issue 15: `vehicle/v3/batchimp` + `vehicle/batch/status`): `start` takes the
   * .xlsx as multipart and answers a task id at once; `status` reports the task's phase, rows done of
   * the total and, when refused, every bad row and cell. Nothing is written unless every row passes.
   */
  readonly job?: { readonly start: Endpoint; readonly status: Endpoint };
  /**
   * After an import committed (both calls), outside the transaction: what must follow the new rows
   * (the live side: `FleetSync.vehiclesChanged(ids)`). A failure here is logged; the rows stay written.
   */
  readonly committed?: (ids: readonly number[], call: CallContext) => Promise<void> | void;
}

export interface ResourceDeclaration<R extends { readonly id: number }, X = R> {
  /** Names the resource in write events (the audit trail's key) and export jobs. */
  readonly name: string;
  readonly store: (repos: Repositories) => ResourceStore<R>;
  /** Shapes answers from records (all of a page at once); the records as stored when absent. */
  readonly view?: (repos: Repositories, records: R[]) => Promise<unknown[]>;
  readonly page?: Endpoint & { readonly filters: TProperties };
  readonly detail?: Endpoint;
  readonly create?: Endpoint & { readonly fields: TProperties };
  readonly update?: Endpoint & { readonly fields: TProperties };
  /**
   * One call for both: with `id` it updates, without it creates (the spec's `save`). The route's
   * `permission` admits the caller to the screen; the create or update bit is then checked per call.
   */
  readonly save?: Endpoint & { readonly fields: TProperties; readonly createPermission: RoutePermission; readonly updatePermission: RoutePermission };
  readonly delete?: Endpoint;
  readonly export?: ExportDeclaration<X>;
  readonly import?: ImportDeclaration;
  readonly hooks?: ResourceHooks<R>;
  /** A record outside the caller's scope reads as missing: this message (404) when set. */
  readonly notFound?: Message;
  /** Set: every write of this resource leaves its operator-log row (issue 15). */
  readonly changeLog?: ChangeLogDeclaration<R>;
}

// ── the one place every write passes ──

export interface WriteEvent {
  readonly resource: string;
  readonly operation: 'create' | 'update' | 'delete' | 'import';
  readonly userId: number;
  readonly sessionId: string;
  readonly ids: readonly number[];
}

/** Runs inside the write's transaction, after the write: what it writes commits or rolls back with it (the audit trail of issue 19 goes here). */
export type WriteHook = (tx: Repositories, event: WriteEvent) => Promise<void>;

/** The write hooks of one app. Empty today: nothing is recorded until the audit trail registers. */
export class ResourceWrites {
  private readonly hooks: WriteHook[] = [];

  onWrite(hook: WriteHook): void {
    this.hooks.push(hook);
  }

  /** Every resource write: `fn` writes through `tx` and answers the ids it wrote; the hooks follow in the same transaction. */
  async writeThrough<T>(storage: Storage, event: Omit<WriteEvent, 'ids'>, fn: (tx: Repositories) => Promise<{ ids: readonly number[]; result: T }>): Promise<T> {
    return storage.transaction(async (tx) => {
      const { ids, result } = await fn(tx);
      for (const hook of this.hooks) await hook(tx, { ...event, ids });
      return result;
    });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The write hook point of every resource declared on server/resources/. */
    resourceWrites: ResourceWrites;
  }
}

function writesOf(app: App): ResourceWrites {
  if (!app.hasDecorator('resourceWrites')) app.decorate('resourceWrites', new ResourceWrites());
  return app.resourceWrites;
}

// ── registration ──

const inQuery = (m: Method) => m === 'GET' || m === 'DELETE';
/** Whether an endpoint reads its input from the query (else the body). */
const queryInput = (e: Endpoint) => (e.input ? e.input === 'query' : inQuery(e.method));

/** String filters are trimmed and dropped when empty, so `keyword=` and `keyword=%20` mean no filter. */
function cleanFilters(q: Fields, names: readonly string[]): Fields {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const v = typeof q[name] === 'string' ? (q[name] as string).trim() : q[name];
    if (v !== undefined && v !== '') out[name] = v;
  }
  return out;
}

/**
 * Registers the declared operations as routes. Throws (at start-up) for an operation without a
 * permission, as `installRoutePolicies` does for any route, naming the resource and operation.
 */
export function registerResource<R extends { readonly id: number }, X = R>(app: App, storage: Storage, decl: ResourceDeclaration<R, X>): void {
  const writes = writesOf(app);
  const store = decl.store(storage);
  // One adapter per transaction's repositories (an import writes thousands of rows through the same one).
  const stores = new WeakMap<Repositories, ResourceStore<R>>([[storage, store]]);
  const storeOf = (tx: Repositories): ResourceStore<R> => {
    let s = stores.get(tx);
    if (!s) stores.set(tx, (s = decl.store(tx)));
    return s;
  };
  const notFound = decl.notFound ?? Messages.notFound;
  const hooks = decl.hooks ?? {};
  const views = async (records: R[]) => (decl.view ? decl.view(storage, records) : records);
  const viewOne = async (record: R) => (await views([record]))[0];

  for (const [op, e] of Object.entries({ page: decl.page, detail: decl.detail, create: decl.create, update: decl.update, save: decl.save, delete: decl.delete, import: decl.import?.endpoint, importTemplate: decl.import?.template, exportStart: decl.export?.start, exportStatus: decl.export?.status, exportFile: decl.export?.file })) {
    if (e && !e.permission) throw new Error(`resource ${decl.name}: ${op} (${e.method} ${e.url}) declares no permission`);
  }
  if (decl.save && (!decl.save.createPermission || !decl.save.updatePermission)) throw new Error(`resource ${decl.name}: save declares no create or update permission`);

  const call = (request: Parameters<typeof requestLang>[0] & { ip: string }): CallContext => ({ ctx: auth(request), lang: requestLang(request), storage, ip: request.ip });
  const log = decl.changeLog;
  const logged = (r: R): Record<string, unknown> => (log?.fields ? log.fields(r) : { ...(r as unknown as Record<string, unknown>) });
  /** Appends one operator-log row. */
  async function appendLog(tx: Repositories, c: CallContext, operation: string, recordId: number, entry: Omit<LoggedRecord, 'fields'>, before: Record<string, unknown> | null, after: Record<string, unknown> | null): Promise<void> {
    await tx.changeLog.append({
      resource: log!.resource, recordId, label: entry.label, companyId: entry.companyId, operation,
      userId: c.ctx.user.id, userName: c.ctx.user.realName || c.ctx.user.username, ip: c.ip, time: Date.now(), before, after,
    });
  }
  /** Appends the operator-log row of one write (nothing when the resource declares no log or nothing changed). */
  async function logChange(tx: Repositories, c: CallContext, operation: string, before: R | undefined, after: R | undefined): Promise<void> {
    if (!log) return;
    const record = after ?? before;
    if (!record) return;
    let b = before ? logged(before) : null;
    let a = after ? logged(after) : null;
    if (b && a) {
      ({ before: b, after: a } = changedFields(b, a));
      if (Object.keys(a).length === 0) return;
    }
    await appendLog(tx, c, operation, record.id, { label: log.label(record), companyId: log.companyId(record) }, b, a);
  }
  /** The log row of a created (or imported) record: from its fields when the declaration can tell, else read back. */
  async function logCreated(tx: Repositories, c: CallContext, operation: 'create' | 'import', id: number, fields: Fields): Promise<void> {
    if (!log) return;
    const entry = log.created?.(id, fields);
    if (entry) await appendLog(tx, c, operation, id, entry, null, entry.fields);
    else await logChange(tx, c, operation, undefined, await storeOf(tx).get(ALL_COMPANIES, id));
  }
  const inScope = async (scope: Scope, id: number): Promise<R> => {
    const record = await store.get(scope, id);
    if (!record) throw fail.notFound(notFound);
    return record;
  };
  const input = (schema: TSchema, e: Endpoint) => (queryInput(e) ? { querystring: schema } : { body: schema });
  const partOf = (request: { query: unknown; body: unknown }, e: Endpoint) => (queryInput(e) ? request.query : request.body) as Fields;

  async function create(c: CallContext, body: Fields, operation: 'create' | 'import' = 'create'): Promise<number> {
    const fields = hooks.prepareCreate ? await hooks.prepareCreate(c, body) : body;
    return writes.writeThrough(storage, { resource: decl.name, operation, userId: c.ctx.user.id, sessionId: c.ctx.sessionId }, async (tx) => {
      await hooks.checkWrite?.(tx, fields, undefined, c);
      const id = await storeOf(tx).create(fields);
      await hooks.afterWrite?.(tx, id, fields, undefined, c);
      await logCreated(tx, c, operation, id, fields);
      return { ids: [id], result: id };
    });
  }

  async function update(c: CallContext, id: number, body: Fields): Promise<void> {
    const record = await inScope(c.ctx.scope, id);
    const fields = hooks.prepareUpdate ? await hooks.prepareUpdate(c, record, body) : body;
    await writes.writeThrough(storage, { resource: decl.name, operation: 'update', userId: c.ctx.user.id, sessionId: c.ctx.sessionId }, async (tx) => {
      await hooks.checkWrite?.(tx, fields, record, c);
      const repo = decl.store(tx);
      const before = log ? await repo.get(ALL_COMPANIES, record.id) : undefined;
      await repo.update(record.id, fields, record);
      await hooks.afterWrite?.(tx, record.id, fields, record, c);
      if (log) await logChange(tx, c, 'update', before, await repo.get(ALL_COMPANIES, record.id));
      return { ids: [record.id], result: undefined };
    });
  }

  if (decl.page) {
    const p = decl.page;
    const names = Object.keys(p.filters);
    app.route({
      method: p.method, url: p.url, config: { permission: p.permission },
      schema: input(Strict({ ...PageFields, ...p.filters }), p),
      handler: async (request) => {
        const q = partOf(request, p);
        const scope = await narrowedScope(storage, auth(request), q.companyId as number | undefined);
        const page = await store.page(scope, { current: q.current as number, size: q.size as number, ...cleanFilters(q, names) });
        return ok({ ...page, records: await views(page.records) }, requestLang(request));
      },
    });
  }

  if (decl.detail) {
    const d = decl.detail;
    const byPath = d.url.includes(':id');
    app.route({
      method: d.method, url: d.url, config: { permission: d.permission },
      schema: byPath ? { params: Type.Object({ id: Id }), querystring: Strict({}) } : input(Strict({ id: Id }), d),
      handler: async (request) => {
        const id = (byPath ? (request.params as { id: number }).id : partOf(request, d).id) as number;
        return ok(await viewOne(await inScope(auth(request).scope, id)), requestLang(request));
      },
    });
  }

  if (decl.create) {
    const e = decl.create;
    app.route({
      method: e.method, url: e.url, config: { permission: e.permission }, schema: input(Strict(e.fields), e),
      handler: async (request) => {
        const c = call(request);
        const id = await create(c, partOf(request, e));
        return ok(await viewOne(await inScope(c.ctx.scope, id)), c.lang);
      },
    });
  }

  if (decl.update) {
    const e = decl.update;
    app.route({
      method: e.method, url: e.url, config: { permission: e.permission }, schema: input(Strict({ ...e.fields, id: Id }), e),
      handler: async (request) => {
        const c = call(request);
        const body = partOf(request, e);
        await update(c, body.id as number, body);
        return ok(await viewOne(await inScope(c.ctx.scope, body.id as number)), c.lang);
      },
    });
  }

  if (decl.save) {
    const e = decl.save;
    app.route({
      method: e.method, url: e.url, config: { permission: e.permission }, schema: input(Strict({ ...e.fields, id: Type.Optional(Id) }), e),
      handler: async (request) => {
        const c = call(request);
        const body = partOf(request, e);
        let id = body.id as number | undefined;
        if (!permitsAny(c.ctx, policyKeys(id === undefined ? e.createPermission : e.updatePermission))) throw fail.forbidden();
        if (id === undefined) id = await create(c, body);
        else await update(c, id, body);
        return ok(await viewOne(await inScope(c.ctx.scope, id)), c.lang);
      },
    });
  }

  if (decl.delete) {
    const e = decl.delete;
    app.route({
      method: e.method, url: e.url, config: { permission: e.permission }, schema: input(Strict({ ids: IdList }), e),
      handler: async (request) => {
        const c = call(request);
        const ids = partOf(request, e).ids as number[];
        let records: R[] = [];
        for (const id of ids) records.push(await inScope(c.ctx.scope, id));
        if (hooks.prepareDelete) records = await hooks.prepareDelete(c, records);
        await writes.writeThrough(storage, { resource: decl.name, operation: 'delete', userId: c.ctx.user.id, sessionId: c.ctx.sessionId }, async (tx) => {
          const repo = decl.store(tx);
          for (const record of records) {
            await hooks.checkDelete?.(tx, record, c);
            await repo.delete(record);
            await logChange(tx, c, 'delete', record, undefined);
          }
          return { ids: records.map((r) => r.id), result: undefined };
        });
        return ok({ deleted: records.length }, c.lang);
      },
    });
  }

  if (decl.import) {
    const imp = decl.import;
    const e = imp.endpoint;
    // The pipeline both import calls share (import-jobs.ts): every row checked, all problems collected, one transaction or nothing.
    const runner: ImportRunner = {
      resource: decl.name, columns: imp.columns, maxRows: imp.maxRows,
      prepare: async (c, cells) => {
        const fields = imp.cells ? imp.cells(cells) : cells;
        return hooks.prepareCreate ? hooks.prepareCreate(c, fields) : fields;
      },
      check: hooks.checkWrite ? (tx, fields, c) => hooks.checkWrite!(tx, fields, undefined, c) : undefined,
      checkOnConflict: imp.checkOnConflict,
      write: async (tx, fields, c) => {
        const id = await storeOf(tx).create(fields);
        await hooks.afterWrite?.(tx, id, fields, undefined, c);
        await logCreated(tx, c, 'import', id, fields);
        return id;
      },
      transaction: (c, fn) => writes.writeThrough(storage, { resource: decl.name, operation: 'import', userId: c.ctx.user.id, sessionId: c.ctx.sessionId }, fn),
      committed: imp.committed,
    };
    app.route({
      method: e.method, url: e.url, config: { permission: e.permission },
      // The .xlsx travels base64-encoded in JSON (the console reads the picked file): every route keeps a JSON schema the fuzz and trust-boundary tests drive.
      bodyLimit: 8 * 1024 * 1024,
      schema: { body: Strict({ file: Type.String({ minLength: 1, maxLength: 6 * 1024 * 1024, pattern: '^[A-Za-z0-9+/=\\s]*$' }) }) },
      handler: async (request) => {
        const c = call(request);
        const body = request.body as { file: string; companyId?: number };
        // The company the rows go to must lie in the caller's subtree: one 403 now rather than one per row.
        await narrowedScope(storage, c.ctx, body.companyId);
        const outcome = await runImport(storage, runner, c, Buffer.from(body.file, 'base64'), { extra: body.companyId === undefined ? {} : { companyId: body.companyId } });
        // Refused: the first problem's status and sentence (as before), every problem (≤ 200) in `data.problems`.
        if (outcome.kind === 'refused') throw refusalError(outcome, c.lang);
        try {
          await imp.committed?.(outcome.ids, c);
        } catch (err) {
          request.log.error({ err, resource: decl.name }, 'import committed; the follow-up after the commit failed');
        }
        return ok({ imported: outcome.ids.length, ids: outcome.ids }, c.lang);
      },
    });
    if (imp.job) registerImportJob(app, storage, runner, imp.job, call);
    if (imp.template) {
      const tpl = imp.template;
      // The header row is the import's own column list, so a template always reads back as it was written.
      const sheet: SheetColumn<never>[] = imp.columns.map((col) => ({ header: col.header, width: Math.max(14, col.header[1].length + 4), value: () => null }));
      app.route({
        method: tpl.method, url: tpl.url, config: { permission: tpl.permission }, schema: input(Strict({}), tpl),
        handler: async (request, reply) => {
          const lang = requestLang(request);
          const file = tpl.hints ? await hintedTemplate(tpl.asciiName, imp.columns, tpl.hints, lang) : await xlsxBuffer(tpl.asciiName, sheet, [], lang);
          return sendXlsx(reply, file, tpl.fileName[lang === 'zh' ? 0 : 1], tpl.asciiName);
        },
      });
    }
  }

  if (decl.export) {
    const x = decl.export;
    const jobs = new ExportJobs(app.exportFiles, `resource:${decl.name}`, {
      notFound: ResourceMessages.taskNotFound, failed: ResourceMessages.exportFailed, notDone: ResourceMessages.taskNotDone,
    }, `${decl.name} export`);
    const filterNames = Object.keys(decl.page?.filters ?? {});
    app.route({
      method: x.start.method, url: x.start.url, config: { permission: x.start.permission },
      schema: input(Strict(decl.page?.filters ?? {}), x.start),
      handler: async (request) => {
        const c = call(request);
        const q = partOf(request, x.start);
        const scope = await narrowedScope(storage, c.ctx, q.companyId as number | undefined);
        const filters = cleanFilters(q, filterNames);
        const job = await jobs.start({ userId: c.ctx.user.id, fileName: x.fileName, asciiName: x.asciiName, log: request.log }, async () => {
          const { total, records } = await x.list(storage, scope, filters, x.cap);
          const columns = typeof x.columns === 'function' ? x.columns(c.lang) : x.columns;
          return { total, exported: records.length, file: await xlsxBuffer(x.asciiName, columns, records, c.lang) };
        });
        return ok({ taskId: job.id }, c.lang);
      },
    });
    const TaskQuery = Strict({ taskId: Type.String({ minLength: 1, maxLength: 64 }) });
    app.route({
      method: x.status.method, url: x.status.url, config: { permission: x.status.permission }, schema: input(TaskQuery, x.status),
      handler: async (request) => {
        const c = call(request);
        const job = await jobs.own(c.ctx.user.id, partOf(request, x.status).taskId as string);
        const message = job.status === 'failed' ? ResourceMessages.exportFailed(c.lang) : job.total > x.cap ? ResourceMessages.firstOnly(x.cap)(c.lang) : undefined;
        return ok({ status: job.status, total: job.total, exported: job.exported, ...(message === undefined ? {} : { message }) }, c.lang);
      },
    });
    app.route({
      method: x.file.method, url: x.file.url, config: { permission: x.file.permission }, schema: input(TaskQuery, x.file),
      handler: async (request, reply) => {
        const f = await jobs.file(auth(request).user.id, partOf(request, x.file).taskId as string, requestLang(request));
        return sendXlsx(reply, f.body, f.name, f.asciiName);
      },
    });
  }
}

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);

/**
 * An import template that says what cells hold: the header row (the first sheet, read back by the
 * import: nothing else on it), each hinted header with a note, and a second sheet listing every column,
 * whether it is required, and its hint (the import reads the first sheet only).
 */
async function hintedTemplate(sheetName: string, columns: readonly ImportColumn[], hints: Readonly<Record<string, Message>>, lang: Lang): Promise<Buffer> {
  const zh = lang === 'zh';
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(sheetName);
  sheet.columns = columns.map((col, k) => ({ key: `c${k}`, width: Math.max(14, col.header[1].length + 4) }));
  const header = sheet.addRow(columns.map((col) => col.header[zh ? 0 : 1]));
  header.font = { bold: true };
  columns.forEach((col, k) => {
    const hint = hints[col.key];
    if (hint) header.getCell(k + 1).note = hint(lang);
  });
  const notes = book.addWorksheet(zh ? '填写说明' : 'Notes');
  notes.columns = [{ width: 18 }, { width: 10 }, { width: 90 }];
  notes.addRow(zh ? ['列', '必填', '说明'] : ['Column', 'Required', 'What to enter']).font = { bold: true };
  for (const col of columns) notes.addRow([col.header[zh ? 0 : 1], col.required ? (zh ? '是' : 'yes') : (zh ? '否' : 'no'), hints[col.key]?.(lang) ?? '']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

export const ResourceMessages = {
  row: (row: number, detail: string): Message => pair(`第 ${row} 行：${detail}`, `Row ${row}: ${detail}`),
  taskNotFound: pair('导出任务不存在或已过期', 'The export task does not exist or has expired'),
  exportFailed: pair('导出失败，请重试', 'The export failed; please try again'),
  taskNotDone: pair('导出尚未完成', 'The export is not finished yet'),
  firstOnly: (cap: number): Message => pair(`仅导出前 ${cap} 条，请缩小查询范围`, `Only the first ${cap} rows were exported; narrow the query`),
} as const;
