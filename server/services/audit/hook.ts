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
 * - `config.audit: false` leaves a write out; only `pageview/add` uses it (a visit is its own record).
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
    /** true: a GET that changes state is audited too; false: a write is left out (only pageview/add). */
    audit?: boolean;
  }
  interface FastifyRequest {
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

/** The kind of target a field names (`vehicleIds` → vehicle), or undefined when the field is no target. */
function kindOf(field: string, page: string): string | undefined {
  if (field === 'id' || field === 'ids') {
    // A record of the vehicle or device list is a vehicle or a device: the by-device screen finds it.
    if (page === '/information/vehicle') return 'vehicle';
    if (page === '/information/device') return 'device';
    return 'record';
  }
  const m = /^([a-z][A-Za-z]*?)Ids?$/.exec(field);
  if (!m || field === 'companyId') return undefined;
  return m[1] === 'vehi' ? 'vehicle' : m[1];
}

function pushIds(out: Array<[string, number]>, kind: string, value: unknown): void {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) out.push([kind, value]);
  else if (typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value)) out.push([kind, Number(value)]);
  else if (Array.isArray(value)) for (const v of value.slice(0, MAX_TARGETS)) pushIds(out, kind, v);
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
  const seen = new Set<string>();
  return out.filter(([k, id]) => {
    const key = `${k}:${id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, MAX_TARGETS);
}

export function resultOf(status: number, code: number | undefined): AuditResult {
  if (status === 401 || status === 403) return 'refused';
  if (status === 400) return 'invalid';
  return status < 300 && code === OK ? 'ok' : 'error';
}

const NO_PAGE = { page: '', button: '' } as const;
const pageCache = new Map<string, { page: string; button: string }>();
/** pageAndButton, remembered per key (registry keys are a few hundred). */
function cachedPageAndButton(key: string): { page: string; button: string } {
  let v = pageCache.get(key);
  if (!v) pageCache.set(key, (v = pageAndButton(key)));
  return v;
}

const CODE_HEAD = /^\{"code":(\d+)/;
const NEW_ID = /"data":\{"id":(\d+)[,}]/;

/** Installs the audit hooks; call right after installRoutePolicies and before the routes (order of hooks is registration order). */
export function installAuditHook(app: FastifyInstance, writer: AuditWriter, clock: () => number = Date.now): void {
  // Callback-style hooks: no promise per call on the hot path.
  app.addHook('onSend', (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    if (!request.is404 && typeof payload === 'string' && isAudited(request.method, request.routeOptions.config)) {
      // The envelope starts with its code (envelope.ts builds `{code, msg, data}` in that order): no JSON parse on the hot path.
      const head = CODE_HEAD.exec(payload);
      if (head) request.auditCode = Number(head[1]);
      if (request.method === 'POST') {
        const id = NEW_ID.exec(payload.length > 600 ? payload.slice(0, 600) : payload);
        if (id) request.auditNewId = Number(id[1]);
      }
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    try {
      record(request, reply);
    } catch (err) {
      // The answer is gone already; a row that cannot be built is logged, never turned into another answer.
      request.log.error({ err }, 'audit row not recorded');
    }
    done();
  });

  function record(request: FastifyRequest, reply: FastifyReply): void {
    if (request.is404) return;
    const config = request.routeOptions.config;
    if (!isAudited(request.method, config)) return;
    const permission = config.permission as RoutePermission | undefined;
    const ctx = request.authContext;
    let key: string | undefined;
    if (typeof permission === 'string' && permission !== 'public' && permission !== 'session') key = permission;
    else if (Array.isArray(permission)) key = (ctx ? permission.find((k) => permits(ctx, k)) : undefined) ?? permission[0];
    const { page, button } = key ? cachedPageAndButton(key) : NO_PAGE;
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
      route: request.routeOptions.url ?? request.url,
      permission: policyText(permission),
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
