/**
 * Authentication and the permission guard, run in `onRequest`: after routing (the matched route's
 * declared policy decides, never the raw URL) and before body parsing (so an anonymous caller gets
 * 401 rather than a validation answer). Websocket upgrades pass through the same hook.
 *
 * A request is authenticated when its `x-jwt` token verifies, its session row exists unrevoked,
 * and its user still exists, is enabled and has not expired. Tokens past half of their life are
 * replaced through the `jwt` response header (sliding expiry).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { masksFromIds, type PermissionMask } from '../../domain/permissions/bits.ts';
import { Access, ADMIN_LEVEL, entryByKey } from '../../domain/permissions/access.ts';
import { authenticateDisplay, isDisplayToken } from '../auth/display.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { Storage } from '../db/repositories.ts';
import { ALL_COMPANIES, pathInScope, subtreeScope, type Scope } from '../db/scope.ts';
import type { User } from '../db/types.ts';
import { fail } from './envelope.ts';
import { policyKeys } from './route.ts';
import { Messages } from './messages.ts';
import { checkMetricsAccess } from '../ops/access.ts';

export interface AuthContext {
  readonly user: User;
  readonly sessionId: string;
  readonly isAdmin: boolean;
  readonly permissionIds: readonly number[];
  readonly permissions: readonly PermissionMask[];
  readonly access: Access;
  /** The caller's company subtree (everything for an administrator). */
  readonly scope: Scope;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every route whose permission is not 'public'. */
    authContext?: AuthContext;
  }
}

/** The authenticated caller; throws 401 on a public route that has none. */
export function auth(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw fail.unauthorized();
  return request.authContext;
}

/** Loads what a user may do: merged masks and the company scope. */
export async function loadAuthContext(storage: Storage, user: User, sessionId: string): Promise<AuthContext> {
  const permissionIds = await storage.users.permissionIds(user.id);
  const permissions = masksFromIds(permissionIds);
  const isAdmin = user.userLevel === ADMIN_LEVEL;
  let scope: Scope = ALL_COMPANIES;
  if (!isAdmin) {
    const company = await storage.companies.get(ALL_COMPANIES, user.companyId);
    if (!company) throw fail.unauthorized();
    scope = subtreeScope(company.id, company.path);
  }
  return { user, sessionId, isAdmin, permissionIds, permissions, access: new Access({ userLevel: user.userLevel, permissions }), scope };
}

/** True when the user may not sign in or keep a session (disabled or past its expiry). */
export function accountBlocked(user: Pick<User, 'status' | 'expireTime'>, now = Date.now()): boolean {
  return user.status !== 1 || (user.expireTime !== null && user.expireTime <= now);
}

/** Whether the caller holds a registry key (administrators: always); the auth hook's check, also for per-call bits. */
export function permits(ctx: AuthContext, key: string): boolean {
  if (ctx.isAdmin) return true;
  const entry = entryByKey(key);
  if (!entry) return false;
  const colon = key.lastIndexOf(':');
  return entry.type === 2 && colon > 0 ? ctx.access.hasButton(key.slice(0, colon), key.slice(colon + 1)) : ctx.access.canSeeRoute(key);
}

/** Whether the caller holds at least one of `keys` (a route's any-of policy); an empty list grants nothing. */
export function permitsAny(ctx: AuthContext, keys: readonly string[]): boolean {
  return keys.some((key) => permits(ctx, key));
}

/** The token a request carries: `x-jwt`, or `?token=` on a websocket route (browsers cannot set headers there). */
function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-jwt'];
  const token = Array.isArray(header) ? header[0] : header;
  if (token) return token;
  if (!request.routeOptions.config.websocket) return undefined;
  const query = (request.query as { token?: unknown } | undefined)?.token;
  return typeof query === 'string' && query.length > 0 ? query : undefined;
}

export function installAuth(app: FastifyInstance, deps: { storage: Storage; tokens: TokenService; metricsToken?: string | undefined }): void {
  const { storage, tokens } = deps;
  app.addHook('onRequest', async (request, reply) => {
    // The console reads the refreshed token from this header, also across origins.
    reply.header('Access-Control-Expose-Headers', 'jwt');
    // No route matched: the not-found handler answers (404, or the console shell under /bcmp-web/).
    if (request.is404) return;
    const config = request.routeOptions.config;
    const permission = config.permission;
    // An upgrade to a plain HTTP route would be accepted and then closed: refuse it outright.
    if (request.ws && !config.websocket) throw fail.notFound();
    if (permission === 'public') return;
    // A scraper has no user session: its own bearer token, else loopback only (server/ops/access.ts).
    if (permission === 'metrics') return checkMetricsAccess(request, deps.metricsToken);
    // installRoutePolicies refuses such a route at start-up; should one slip through, deny.
    if (permission === undefined) {
      request.log.error({ route: config.url }, 'route without an access policy refused');
      throw fail.unauthorized();
    }

    const token = tokenOf(request);
    if (!token) throw fail.unauthorized();
    // Issue 14: a wall's display credential opens only GET routes that declare `display` (server/auth/display.ts).
    if (isDisplayToken(token)) return authenticateDisplay(request, storage, token);
    const claims = await tokens.verify(token);
    if (!claims) throw fail.unauthorized();
    const session = await storage.sessions.get(claims.sessionId);
    if (!session || session.revokedTime !== null || session.userId !== claims.userId) throw fail.unauthorized();
    const user = await storage.users.getById(claims.userId);
    if (!user || accountBlocked(user)) throw fail.unauthorized();

    const ctx = await loadAuthContext(storage, user, session.id);
    request.authContext = ctx;
    if (permission !== 'session' && !permitsAny(ctx, policyKeys(permission))) throw fail.forbidden();

    if (tokens.needsRefresh(claims)) {
      reply.header('jwt', await tokens.sign(user.id, session.id));
      await storage.sessions.touch(session.id);
    }
  });
}

/**
 * The scope a list call works in: the caller's own, narrowed to `companyId` when given.
 * A companyId outside the caller's subtree (or unknown) answers 403.
 */
export async function narrowedScope(storage: Storage, ctx: AuthContext, companyId: number | undefined): Promise<Scope> {
  if (companyId === undefined) return ctx.scope;
  const company = await storage.companies.get(ALL_COMPANIES, companyId);
  if (!company || !pathInScope(ctx.scope, company.path)) throw fail.forbidden(Messages.companyOutOfScope);
  return subtreeScope(company.id, company.path);
}
