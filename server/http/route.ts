/**
 * Route declarations. EVERY route registered on the app (API calls, websocket upgrades, the console's
 * static files and redirects) states its access policy in its config: a permission registry key
 * ('/system/user:delete'), a non-empty list of keys of which the caller needs any one, 'session' (any
 * signed-in user) or 'public'. `installRoutePolicies` makes
 * registering a route without one fail at start-up, and keeps the table of registered routes that the
 * auth hook (server/http/auth.ts) and the trust-boundary tests read. Access is decided from the route
 * the router matched, never from the raw URL: `/%73ervice-…`, `http://host/service-…` and every other
 * spelling that routes to a handler meets that handler's policy.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifySchema, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { Type, type TypeBoxTypeProvider, type TProperties } from '@fastify/type-provider-typebox';
import { LIST_LIMITS } from '../../domain/management/limits.ts';
import { entryByKey } from '../../domain/permissions/access.ts';
import { HTTP_URL_FORMAT } from './validation.ts';

/** A registry key. */
export type PermissionKey = `/${string}`;
/**
 * What a route needs: 'public', 'session', one registry key, or a non-empty list of keys of which the
 * caller must hold ANY (a screen that shares another screen's calls, e.g. the ADAS parameters page on
 * the terminal-parameter routes, lists its own bit beside the other's instead of borrowing it).
 * 'metrics': a Prometheus scraper, no user session (`Authorization: Bearer <METRICS_TOKEN>`, else a
 * loopback peer only; server/ops/access.ts).
 */
export type RoutePermission = 'public' | 'session' | 'metrics' | PermissionKey | readonly [PermissionKey, ...PermissionKey[]];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the caller needs: a permission registry key (or a non-empty list, any of them), 'session' or 'public'. Required on every route. */
    permission?: RoutePermission;
    /**
     * Set by installRoutePolicies on websocket routes (never by hand): only these accept an upgrade,
     * and, as browsers cannot send `x-jwt` on an upgrade, only these take the token from `?token=`.
     */
    websocket?: boolean;
  }
  interface FastifyInstance {
    /** Every route registered so far, as the router has it (tests enumerate it; nothing is added by hand). */
    routeTable: RouteRecord[];
  }
}

/** The Fastify instance as route modules see it (TypeBox types for schemas). */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** One registered route: method, path pattern, policy and schema. */
export interface RouteRecord {
  readonly method: string;
  readonly url: string;
  readonly permission: RoutePermission;
  readonly websocket: boolean;
  readonly schema?: FastifySchema;
}

const isKey = (key: unknown): key is PermissionKey => typeof key === 'string' && key.startsWith('/') && entryByKey(key) !== undefined;

/** A known policy: an empty list or one unknown key in a list is refused like an unknown single key (fail closed). */
function isPolicy(permission: unknown): permission is RoutePermission {
  if (Array.isArray(permission)) return permission.length > 0 && permission.every(isKey);
  return permission === 'public' || permission === 'session' || permission === 'metrics' || isKey(permission);
}

/** The keys a policy accepts (empty for 'public' and 'session'). */
export function policyKeys(permission: RoutePermission): readonly PermissionKey[] {
  if (permission === 'public' || permission === 'session' || permission === 'metrics') return [];
  return typeof permission === 'string' ? [permission] : permission;
}

/** A policy as text, for messages and tables: `/a:x|/b:y` for a list. */
export function policyText(permission: unknown): string {
  return Array.isArray(permission) ? `[${permission.map(String).join('|')}]` : String(permission);
}

/**
 * Fail closed: a route without a known policy throws where it is registered (so `buildApp` fails at
 * start-up), and every accepted route lands in `app.routeTable`. Install before any route or plugin.
 */
export function installRoutePolicies(app: FastifyInstance): void {
  const table: RouteRecord[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const permission: unknown = route.config?.permission;
    if (permission === undefined) {
      throw new Error(`${methods.join(',')} ${route.url} declares no permission: set config.permission to a registry key, 'session' or 'public'`);
    }
    if (!isPolicy(permission)) throw new Error(`${methods.join(',')} ${route.url} declares unknown permission "${policyText(permission)}" (a registry key, a non-empty list of them, 'session' or 'public')`);
    const websocket = route.websocket === true;
    // A fresh object: Fastify's automatic HEAD route shares the GET route's config object.
    if (websocket) route.config = { ...route.config, websocket: true };
    // A list is frozen so that no later code can widen a route's policy by pushing onto it.
    const policy: RoutePermission = Array.isArray(permission) ? Object.freeze([...permission]) as unknown as RoutePermission : permission;
    if (policy !== permission) route.config = { ...route.config, permission: policy };
    for (const method of methods) table.push({ method, url: route.url, permission: policy, websocket, schema: route.schema });
  });
}

/*
 * Every number a route accepts has both limits (http/fuzz.test.ts checks): Ajv takes 1e20 or 1e308 as
 * an integer, such a page number reaches SQLite as a float OFFSET, and SQLite answers "datatype
 * mismatch" (a 500) instead of an empty page; past 2^53 ids and times are no longer exact either.
 */
/** Largest record id: the largest integer a JavaScript number holds exactly. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
/**
 * Highest page number of a paged list. The spec sets none; 100,000 pages of up to 500 rows (50 M rows)
 * is past any list the console pages through, and keeps OFFSET small and exact.
 */
export const MAX_PAGE = 100_000;
/** Latest instant a time field accepts, in epoch ms: 2100-01-01 (no fleet record lies beyond it). */
export const MAX_EPOCH_MS = Date.UTC(2100, 0, 1);

/** A record id. */
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
/** An instant in epoch milliseconds. */
export const EpochMs = Type.Integer({ minimum: 0, maximum: MAX_EPOCH_MS });

/** A code of a catalogue (alarm type or group, 1..90013 today): a positive 32-bit integer. */
export const Code = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 });

/** Optional `companyId` that the console adds to every call (narrows to that subtree; must be in the caller's). */
export const CompanyIdField = Type.Optional(Id);

/** A body or query object that rejects unknown fields and accepts the injected companyId. */
export function Strict<T extends TProperties>(properties: T) {
  return Type.Object({ ...properties, companyId: CompanyIdField }, { additionalProperties: false });
}

export const PageFields = {
  current: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: LIST_LIMITS.pageSizeMax, default: LIST_LIMITS.pageSizeDefault }),
};

export const IdList = Type.Array(Id, { minItems: 1, maxItems: LIST_LIMITS.batchMax, uniqueItems: true });
/** Free text with a length limit, trimmed by the handler. */
export const Text = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max });
/**
 * A URL a user stores (a link, a sound, a map source): http(s) or relative only, so a stored
 * `javascript:`, `data:` or `file:` URL is refused with 400 naming the field (domain/request/url.ts).
 */
export const UrlText = (max: number) => Type.String({ maxLength: max, format: HTTP_URL_FORMAT });
/** A required name: 1..max characters with at least one that is not white space. */
export const Name = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });
