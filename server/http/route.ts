/**
 * Route declarations. Every API route states the permission it needs in its config:
 * a registry key ('/system/user:delete'), 'session' (any signed-in user) or 'public'.
 * `enforcePermissionDeclarations` makes registering an API route without one fail at start-up.
 */
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { Type, type TypeBoxTypeProvider, type TProperties } from '@fastify/type-provider-typebox';
import { entryByKey } from '../../domain/permissions/access.ts';

export type RoutePermission = 'public' | 'session' | `/${string}`;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the caller needs: a permission registry key, 'session' or 'public'. Required on API routes. */
    permission?: RoutePermission;
  }
}

/** The Fastify instance as route modules see it (TypeBox types for schemas). */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Paths that are API calls (and so must declare a permission). */
export const API_PREFIXES = ['/service-', '/ws-service'] as const;

export function isApiPath(url: string): boolean {
  return API_PREFIXES.some((p) => url.startsWith(p));
}

export function enforcePermissionDeclarations(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    const permission = route.config?.permission;
    if (permission === undefined) {
      throw new Error(`${String(route.method)} ${route.url} declares no permission: set config.permission to a registry key, 'session' or 'public'`);
    }
    if (permission !== 'public' && permission !== 'session' && !entryByKey(permission)) {
      throw new Error(`${String(route.method)} ${route.url} declares unknown permission "${permission}"`);
    }
  });
}

/** Optional `companyId` that the console adds to every call (narrows to that subtree; must be in the caller's). */
export const CompanyIdField = Type.Optional(Type.Integer({ minimum: 1 }));

/** A body or query object that rejects unknown fields and accepts the injected companyId. */
export function Strict<T extends TProperties>(properties: T) {
  return Type.Object({ ...properties, companyId: CompanyIdField }, { additionalProperties: false });
}

export const PageFields = {
  current: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
};

export const Id = Type.Integer({ minimum: 1 });
export const IdList = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500, uniqueItems: true });
/** Free text with a length limit, trimmed by the handler. */
export const Text = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max });
/** A required name: 1..max characters with at least one that is not white space. */
export const Name = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });
