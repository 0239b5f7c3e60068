/** User management (/system/user), scoped to the caller's company subtree. */
import { Type } from '@fastify/type-provider-typebox';
import { FieldMessage } from '../../../domain/errors/catalogue.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { allowedIpEntryError, parseAllowedIps } from '../../auth/ip.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { User, UserPatch } from '../../db/types.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { EpochMs, Id, IdList, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { ServiceDeps } from '../deps.ts';

const Username = Type.String({ pattern: '^[A-Za-z0-9_.@-]{3,32}$' });
const Password = Type.String({ minLength: 6, maxLength: 64 });
const UserFields = {
  realName: Type.Optional(Text(32)),
  userLevel: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  roleIds: Type.Optional(Type.Array(Id, { maxItems: 50, uniqueItems: true })),
  phone: Type.Optional(Type.String({ pattern: '^[0-9+\\- ]{0,20}$' })),
  email: Type.Optional(Type.String({ maxLength: 64, pattern: '^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' })),
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  expireTime: Type.Optional(Type.Union([EpochMs, Type.Null()])),
  allowedIps: Type.Optional(Type.String({ maxLength: 512 })),
  geoInverse: Type.Optional(Type.Boolean()),
};

export function userRoutes(app: App, deps: ServiceDeps): void {
  const { storage } = deps;

  /** The rules every create and update shares; answers the normalised allowedIps. */
  async function checkAssignments(
    repos: Repositories, ctx: AuthContext, lang: 'zh' | 'en',
    input: { userLevel?: number; companyId?: number; roleIds?: readonly number[]; allowedIps?: string },
    heldRoleIds: readonly number[] = [],
  ): Promise<string | undefined> {
    if (!ctx.isAdmin && input.userLevel !== undefined && input.userLevel < ctx.user.userLevel) throw fail.forbidden(Messages.levelAboveOwn);
    if (input.companyId !== undefined) await narrowedScope(storage, ctx, input.companyId);
    for (const roleId of input.roleIds ?? []) {
      // Keeping a role the user already has is not granting it (it may belong to a company above the caller).
      if (heldRoleIds.includes(roleId)) continue;
      const role = await repos.roles.get(ctx.scope, roleId);
      if (!role) throw fail.badRequest((l) => FieldMessage.invalid('roleIds', `${roleId}`, l));
      if (!ctx.isAdmin && role.permissionIds.some((id) => !ctx.permissionIds.includes(id))) throw fail.forbidden(Messages.cannotGrant);
    }
    if (input.allowedIps === undefined) return undefined;
    const entries = parseAllowedIps(input.allowedIps);
    const bad = entries.map(allowedIpEntryError).find(Boolean);
    if (bad) throw fail.badRequest(() => FieldMessage.invalid('allowedIps', bad, lang));
    return entries.join(',');
  }

  /** A user the caller may change: in scope (else 404) and not above the caller's level (else 403). */
  async function manageable(ctx: AuthContext, id: number): Promise<User> {
    const user = await storage.users.get(ctx.scope, id);
    if (!user) throw fail.notFound(Messages.notFound);
    if (!ctx.isAdmin && user.userLevel < ctx.user.userLevel) throw fail.forbidden(Messages.levelAboveOwn);
    return user;
  }

  app.get('/service-priv/user/page', {
    config: { permission: '/system/user' },
    schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Text(64)) }) },
  }, async (request) => {
    const q = request.query;
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const keyword = q.keyword?.trim();
    return ok(await storage.users.page(scope, { current: q.current, size: q.size, ...(keyword ? { keyword } : {}) }), requestLang(request));
  });

  app.post('/service-priv/user', {
    config: { permission: '/system/user:create' },
    schema: {
      body: Strict({ ...UserFields, username: Username, password: Password, userLevel: Type.Integer({ minimum: 0, maximum: 2 }) }),
    },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const b = request.body;
    const companyId = b.companyId ?? ctx.user.companyId;
    const allowedIps = await checkAssignments(storage, ctx, lang, { ...b, companyId });
    // Hash outside the transaction: scrypt runs on the thread pool.
    const passwordHash = await hashPassword(b.password);
    const id = await storage.transaction(async (tx) => {
      if (await tx.users.usernameTaken(b.username)) throw fail.conflict(Messages.usernameTaken);
      return tx.users.create({
        username: b.username, passwordHash, realName: b.realName?.trim() ?? '', userLevel: b.userLevel, companyId,
        phone: b.phone ?? '', email: b.email ?? '', status: b.status ?? 1, expireTime: b.expireTime ?? null,
        // Addresses on by default for new users (issue 13); the setting turns the geocoder calls off.
        allowedIps: allowedIps ?? '', geoInverse: b.geoInverse ?? true,
      }, b.roleIds ?? []);
    });
    return ok(await storage.users.getById(id), lang);
  });

  app.put('/service-priv/user', {
    config: { permission: '/system/user:update' },
    schema: { body: Strict({ ...UserFields, id: Id, username: Type.Optional(Username), password: Type.Optional(Password) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const b = request.body;
    const target = await manageable(ctx, b.id);
    const allowedIps = await checkAssignments(storage, ctx, lang, b, target.roleIds);
    const passwordHash = b.password === undefined ? undefined : await hashPassword(b.password);
    const patch: UserPatch = {
      username: b.username, passwordHash, realName: b.realName?.trim(), userLevel: b.userLevel, companyId: b.companyId,
      phone: b.phone, email: b.email, status: b.status, expireTime: b.expireTime, allowedIps, geoInverse: b.geoInverse,
    };
    await storage.transaction(async (tx) => {
      if (b.username !== undefined && (await tx.users.usernameTaken(b.username, target.id))) throw fail.conflict(Messages.usernameTaken);
      await tx.users.update(target.id, patch, b.roleIds);
      // A new password or a disabled account ends the user's other sessions at once.
      if (passwordHash !== undefined || b.status === 0) {
        for (const s of await tx.sessions.liveIds(target.id)) if (s !== ctx.sessionId) await tx.sessions.revoke(s);
      }
    });
    return ok(await storage.users.getById(target.id), lang);
  });

  app.delete('/service-priv/user', {
    config: { permission: '/system/user:delete' },
    schema: { querystring: Strict({ ids: IdList }) },
  }, async (request) => {
    const ctx = auth(request);
    const ids = request.query.ids;
    if (ids.includes(ctx.user.id)) throw fail.badRequest(Messages.cannotDeleteSelf);
    for (const id of ids) await manageable(ctx, id);
    await storage.transaction(async (tx) => {
      for (const id of ids) await tx.users.delete(id);
    });
    return ok({ deleted: ids.length }, requestLang(request));
  });

  app.post('/service-priv/user/revokeSessions', {
    config: { permission: '/system/user:update' },
    schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const target = await manageable(auth(request), request.body.id);
    return ok({ revoked: await storage.sessions.revokeAllForUser(target.id) }, requestLang(request));
  });
}

