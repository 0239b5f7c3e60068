/**
 * The one audit mechanism of the server (issue 19): a hook pair installed with the route policies
 * records every state-changing call once — POST/PUT/PATCH/DELETE, and a GET whose route declares
 * `config.audit: true` — whatever its outcome, refused calls included. No handler writes audit rows.
 *
 * - page and button come from the route's declared permission through the registry: a button key
 *   (`/information/vehicle:create`) gives its page (`/information/vehicle`) and itself; a page key gives
 *   the page; of an any-of list, the first key the caller holds (else the first). 'session' and
 *   'public' routes are recorded with their route and no page.
 * - targets: the ids the call names, read from the route params, the query and the top level of the
 *   JSON body (`targetsOf`): `id`/`ids` → kind `record` (or `vehicle`/`device` on those pages),
 *   `<x>Id`/`<x>Ids` → kind `<x>` (`vehicleId(s)`, `deviceId(s)`, `alarmId`, `roleId`, `userId`, …),
 *   except `companyId` (the console adds it to every call as a filter). A create's new id is read from
 *   the answer (`data.id`).
 * - result: `ok` (answer code 200), `refused` (401/403), `invalid` (400), `error` (anything else:
 *   404, 409, business codes, 5xx).
 * - `config.audit: false` leaves a POST out that changes nothing: the page/list/query/search reads sent
 *   as POST (the spec's call shapes) and `pageview/add` (a visit is its own record). audit.test.ts calls
 *   every such route as an administrator and fails when one writes or is named as a write.
 * - cost: the route's page/button and policy text are worked out once per route (onRoute → `auditPlan`),
 *   and the hooks are attached in onRoute to the recorded routes only (route-level onSend/onResponse), so
 *   an unrecorded call runs none of this; per recorded call the hook reads the envelope's code with a
 *   regex (no JSON parse) and queues a row; the writer batches the inserts (writer.ts).
 * - HEAD: Fastify answers HEAD on every GET with the GET's handler; on a GET that changes state
 *   (`audit: true`) the HEAD answers 405 and runs nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OK } from '../../../domain/errors/catalogue.ts';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { normaliseIp } from '../../auth/ip.ts';
import { permits } from '../../http/auth.ts';
import { policyText, type RoutePermission } from '../../http/route.ts';
import type { AuditResult, AuditRow, AuditWriter } from './writer.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true: a GET that changes state is audited too; false: a POST that changes nothing (a read sent as POST, pageview/add) is left out. */
    audit?: boolean;
  }
  interface FastifyContextConfig {
    /** Set by the audit hook's onRoute (never by hand): what a row of this route needs, worked out once. */
    auditPlan?: AuditPlan;
  }
  interface FastifyInstance {
    /** Every route the audit hook saw registered, with whether each method is audited (the route walk reads it). */
    auditTable: AuditTableRow[];
  }
  interface FastifyRequest {
    /** The route's plan, taken in onSend (one read of request.routeOptions, which builds an object per read). */
    auditPlan?: AuditPlan;
    /** The answer's envelope code, read in onSend for the audit row. */
    auditCode?: number;
    /** The answer's `data.id` (a create's new record), read in onSend. */
    auditNewId?: number;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A list is at most this long in the row (a batch call is capped at 500 ids by IdList anyway). */
const MAX_TARGETS = 500;

/** Whether a call of this method on a route with this config is audited. */
export function isAudited(method: string, config: { audit?: boolean; websocket?: boolean }): boolean {
  if (config.audit === false || config.websocket) return false;
  return config.audit === true || WRITES.has(method);
}

/** The page and button a registry key names. */
export function pageAndButton(key: string): { page: string; button: string } {
  const entry = entryByKey(key);
  if (!entry) return { page: '', button: '' };
  if (entry.type === 2) {
    const colon = key.lastIndexOf(':');
    return { page: colon > 0 ? key.slice(0, colon) : '', button: key };
  }
  return { page: key, button: '' };
}

/**
 * What the hook needs of a route, worked out once when the route is registered (onRoute) instead of per
 * call: the pattern, the policy as text, each key's page and button, and the kind an `id` names there.
 */
export interface AuditPlan {
  readonly url: string;
  readonly permission: RoutePermission | undefined;
  readonly permissionText: string;
  /** The policy's keys with their page and button, in the policy's order (none for 'session' and 'public'). */
  readonly keys: ReadonlyArray<{ readonly key: string; readonly page: string; readonly button: string }>;
}

export interface AuditTableRow {
  readonly method: string;
  readonly url: string;
  /** Whether a call of this method is recorded. */
  readonly audited: boolean;
  /** The route's own `config.audit` (undefined: decided by the method). */
  readonly declared: boolean | undefined;
}

export function planOf(url: string, permission: RoutePermission | undefined): AuditPlan {
  const keys = permission === undefined || permission === 'public' || permission === 'session' ? []
    : (typeof permission === 'string' ? [permission] : permission).map((key) => ({ key, ...pageAndButton(key) }));
  return { url, permission, permissionText: policyText(permission), keys };
}

/** Kinds of the fields other than id/ids, remembered (bounded: body field names come from the caller). */
const fieldKinds = new Map<string, string | null>();
const FIELD_KINDS_MAX = 2_000;

/** The kind of target a field names (`vehicleIds` → vehicle), or undefined when the field is no target. */
function kindOf(field: string, page: string): string | undefined {
  if (field === 'id' || field === 'ids') {
    // A record of the vehicle or device list is a vehicle or a device: the by-device screen finds it.
    if (page === '/information/vehicle') return 'vehicle';
    if (page === '/information/device') return 'device';
    return 'record';
  }
  let kind = fieldKinds.get(field);
  if (kind === undefined) {
    const m = /^([a-z][A-Za-z]*?)Ids?$/.exec(field);
    kind = !m || field === 'companyId' ? null : m[1] === 'vehi' ? 'vehicle' : m[1]!;
    if (fieldKinds.size < FIELD_KINDS_MAX) fieldKinds.set(field, kind);
  }
  return kind ?? undefined;
}

function pushIds(out: Array<[string, number]>, kind: string, value: unknown): void {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value > 0) out.push([kind, value]);
  } else if (typeof value === 'string') {
    if (/^[1-9]\d{0,15}$/.test(value)) out.push([kind, Number(value)]);
  } else if (Array.isArray(value)) {
    const n = Math.min(value.length, MAX_TARGETS);
    for (let i = 0; i < n; i++) pushIds(out, kind, value[i]);
  }
}

/** Whether `out` already holds [kind, id] before index `end` (a short list is scanned, a long one hashed by the caller). */
function seenBefore(out: Array<[string, number]>, end: number, kind: string, id: number): boolean {
  for (let i = 0; i < end; i++) if (out[i]![1] === id && out[i]![0] === kind) return true;
  return false;
}

/** The target ids of a call: params, query and the body's top level (see the file comment for the names read). */
export function targetsOf(page: string, ...sources: unknown[]): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const source of sources) {
    if (!source || typeof source !== 'object' || Array.isArray(source) || Buffer.isBuffer(source)) continue;
    for (const field in source as Record<string, unknown>) {
      const kind = kindOf(field, page);
      if (kind) pushIds(out, kind, (source as Record<string, unknown>)[field]);
    }
  }
  if (out.length <= 1) return out;
  // Duplicates out, order kept. The usual call names a handful: a scan beats building strings for a Set.
  const unique: Array<[string, number]> = [];
  if (out.length <= 32) {
    for (const t of out) if (!seenBefore(unique, unique.length, t[0], t[1])) unique.push(t);
  } else {
    const seen = new Set<string>();
    for (const t of out) {
      const key = `${t[0]}:${t[1]}`;
      if (!seen.has(key)) { seen.add(key); unique.push(t); }
    }
  }
  return unique.length > MAX_TARGETS ? unique.slice(0, MAX_TARGETS) : unique;
}

export function resultOf(status: number, code: number | undefined): AuditResult {
  if (status === 401 || status === 403) return 'refused';
  if (status === 400) return 'invalid';
  return status < 300 && code === OK ? 'ok' : 'error';
}

const NO_PAGE = { key: '', page: '', button: '' } as const;

const CODE_HEAD = /^\{"code":(\d+)/;
const NEW_ID = /"data":\{"id":(\d+)[,}]/;

type OnSendHook = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => void;
type OnResponseHook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/** A route's hooks of one kind as a list (Fastify takes one function or a list). */
const hookList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * The answer of a HEAD on a GET that changes state (`config.audit: true`): Fastify exposes HEAD for every GET
 * and runs the GET's handler for it, so a HEAD would delete or download like the GET. It changes nothing here.
 */
function headRefused(_request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(405).header('allow', 'GET').send();
}

/**
 * Installs the audit hooks; call right after installRoutePolicies and before the routes. The hooks are the
 * route's own (added in onRoute to the routes whose calls are recorded), so a call that is not recorded —
 * every GET list and read, the page/list reads sent as POST with `audit: false` — runs no audit code at all.
 */
export function installAuditHook(app: FastifyInstance, writer: AuditWriter, clock: () => number = Date.now): void {
  const table: AuditTableRow[] = [];
  app.decorate('auditTable', table);
  // Each route's plan once, at registration. installRoutePolicies' onRoute ran first (it was added first),
  // so the policy read here is the frozen one it checked.
  app.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    const plan = planOf(route.url, config.permission);
    // A fresh object, as installRoutePolicies does: Fastify's automatic HEAD route shares the GET route's config.
    route.config = { ...config, auditPlan: plan };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.length === 1 && methods[0] === 'HEAD' && config.audit === true) {
      route.handler = headRefused;
      table.push({ method: 'HEAD', url: route.url, audited: false, declared: config.audit });
      return;
    }
    const audited = methods.filter((m) => isAudited(m, config));
    for (const method of methods) table.push({ method, url: route.url, audited: audited.includes(method), declared: config.audit });
    if (audited.length === 0) return;
    // A route of several methods of which some are not recorded: the hooks check the method.
    const only = audited.length === methods.length ? undefined : new Set(audited);
    const onSend: OnSendHook = (request, _reply, payload, done) => {
      if (!only || only.has(request.method)) see(request, plan, payload);
      done(null, payload);
    };
    const onResponse: OnResponseHook = (request, reply, done) => {
      if (!only || only.has(request.method)) {
        try {
          record(request, reply, plan);
        } catch (err) {
          // The answer is gone already; a row that cannot be built is logged, never turned into another answer.
          request.log.error({ err }, 'audit row not recorded');
        }
      }
      done();
    };
    // Callback-style hooks: no promise per call on the hot path. Route hooks run after the global ones.
    route.onSend = [...hookList(route.onSend as OnSendHook | OnSendHook[] | undefined), onSend] as typeof route.onSend;
    route.onResponse = [...hookList(route.onResponse as OnResponseHook | OnResponseHook[] | undefined), onResponse] as typeof route.onResponse;
  });

  /** Reads what the row needs of the answer (its envelope code, a create's new id) before it is sent. */
  function see(request: FastifyRequest, plan: AuditPlan, payload: unknown): void {
    if (request.is404 || typeof payload !== 'string') return;
    request.auditPlan = plan;
    // The envelope starts with its code (envelope.ts builds `{code, msg, data}` in that order): no JSON parse on the hot path.
    const head = CODE_HEAD.exec(payload);
    if (head) request.auditCode = Number(head[1]);
    if (request.method === 'POST') {
      const id = NEW_ID.exec(payload.length > 600 ? payload.slice(0, 600) : payload);
      if (id) request.auditNewId = Number(id[1]);
    }
  }

  function record(request: FastifyRequest, reply: FastifyReply, plan: AuditPlan): void {
    // onSend saw no string answer (a stream, an empty reply) when it set no plan: the route's own plan stands.
    if (request.is404) return;
    const ctx = request.authContext;
    let chosen: { page: string; button: string } = NO_PAGE;
    if (plan.keys.length === 1) chosen = plan.keys[0]!;
    else if (plan.keys.length > 1) chosen = (ctx ? plan.keys.find((k) => permits(ctx, k.key)) : undefined) ?? plan.keys[0]!;
    const { page, button } = chosen;
    const body = request.body as Record<string, unknown> | undefined;
    const targets = targetsOf(page, request.params, request.query, body);
    if (request.auditNewId !== undefined && reply.statusCode < 300 && !targets.some(([, id]) => id === request.auditNewId)) {
      const kind = kindOf('id', page);
      if (kind) targets.push([kind, request.auditNewId]);
    }
    const row: AuditRow = {
      time: clock(),
      userId: ctx?.user.id ?? null,
      // An anonymous call names its user only when it is a sign-in (the body's username).
      userName: ctx?.user.username ?? (typeof body?.username === 'string' ? body.username.slice(0, 64) : ''),
      companyId: ctx?.user.companyId ?? null,
      sessionId: ctx?.sessionId ?? null,
      ip: normaliseIp(request.ip),
      method: request.method,
      route: plan.url,
      permission: plan.permissionText,
      page,
      button,
      result: resultOf(reply.statusCode, request.auditCode),
      status: reply.statusCode,
      code: request.auditCode ?? reply.statusCode,
      targets,
    };
    writer.add(row);
  }
}
