/**
 * User management (/system/user), scoped to the caller's company subtree, on the resource layer
 * (server/resources/): page, create, update, delete and the export job keep the paths and answers of
 * API.md, and every write passes `app.resourceWrites`. Hashing runs in `prepare*` (scrypt must not hold
 * the transaction), the user-name check in `checkWrite` (inside it), and a new password or a disabled
 * account ends the user's other sessions in the store's update, in the same transaction.
 */
import { Type } from '@fastify/type-provider-typebox';
import { ErrorCode, type Lang } from '../../../domain/errors/catalogue.ts';
import { LIST_LIMITS } from '../../../domain/management/limits.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { allowedIpEntryError, parseAllowedIps } from '../../auth/ip.ts';
import type { Storage } from '../../db/repositories.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import type { User, UserPatch } from '../../db/types.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { EpochMs, Id, Strict, Text, type App } from '../../http/route.ts';
import { exportEndpoints, firstRows, registerResource, type Fields, type ResourceDeclaration } from '../../resources/resource.ts';
import type { SheetColumn } from '../reports/excel.ts';
import { chinaTimeText } from '../track/common.ts';
import type { ServiceDeps } from '../deps.ts';

const page = '/system/user' as const;

const Username = Type.String({ pattern: '^[A-Za-z0-9_.@-]{3,32}$' });
const Password = Type.String({ minLength: 6, maxLength: 64 });
const UserLevel = Type.Integer({ minimum: 0, maximum: 2 });
const UserFields = {
  realName: Type.Optional(Text(32)),
  userLevel: Type.Optional(UserLevel),
  roleIds: Type.Optional(Type.Array(Id, { maxItems: 50, uniqueItems: true })),
  phone: Type.Optional(Type.String({ pattern: '^[0-9+\\- ]{0,20}$' })),
  email: Type.Optional(Type.String({ maxLength: 64, pattern: '^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' })),
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  expireTime: Type.Optional(Type.Union([EpochMs, Type.Null()])),
  allowedIps: Type.Optional(Type.String({ maxLength: 512 })),
  geoInverse: Type.Optional(Type.Boolean()),
};

/** What the store's update receives besides the patch: the roles to set and which sessions end. */
interface UpdateFields {
  readonly patch: UserPatch;
  readonly roleIds?: readonly number[];
  /** Ends every live session of the user but this one (the caller's), e.g. after a new password. */
  readonly revokeExcept?: string;
}

/** The rules every create and update shares; answers the normalised allowedIps. */
async function checkAssignments(
  storage: Storage, ctx: AuthContext,
  input: { userLevel?: number; companyId?: number; roleIds?: readonly number[]; allowedIps?: string },
  heldRoleIds: readonly number[] = [],
): Promise<string | undefined> {
  if (!ctx.isAdmin && input.userLevel !== undefined && input.userLevel < ctx.user.userLevel) throw fail.forbidden(Messages.levelAboveOwn);
  if (input.companyId !== undefined) await narrowedScope(storage, ctx, input.companyId);
  for (const roleId of input.roleIds ?? []) {
    // Keeping a role the user already has is not granting it (it may belong to a company above the caller).
    if (heldRoleIds.includes(roleId)) continue;
    const role = await storage.roles.get(ctx.scope, roleId);
    if (!role) throw fail.field('roleIds', { code: 'noSuchRole', params: { id: roleId } });
    if (!ctx.isAdmin && role.permissionIds.some((id) => !ctx.permissionIds.includes(id))) throw fail.forbidden(Messages.cannotGrant);
  }
  if (input.allowedIps === undefined) return undefined;
  const entries = parseAllowedIps(input.allowedIps);
  const bad = entries.map(allowedIpEntryError).find(Boolean);
  if (bad) throw fail.field('allowedIps', { code: 'ipEntry', params: { entry: bad } });
  return entries.join(',');
}

/** A user above the caller's level may be neither changed nor deleted (403); admins may do both. */
function checkLevel(ctx: AuthContext, user: User): void {
  if (!ctx.isAdmin && user.userLevel < ctx.user.userLevel) throw fail.forbidden(Messages.levelAboveOwn);
}

type Pair = readonly [zh: string, en: string];
const LEVELS: Record<number, Pair> = { 0: ['超级管理员', 'Administrator'], 1: ['公司管理员', 'Company administrator'], 2: ['普通用户', 'User'] };
const word = (p: Pair | undefined, lang: Lang, fallback: string) => (p ? p[lang === 'zh' ? 0 : 1] : fallback);

/** A row of the users' sheet: the user with the names of its roles. */
export type UserSheetRow = User & { readonly roleNames: readonly string[] };

/** The users' sheet, in the caller's language (levels, status and "never" are words). */
export function userColumns(lang: Lang): SheetColumn<UserSheetRow>[] {
  return [
    { header: ['用户名', 'User name'], width: 18, value: (u) => u.username },
    { header: ['姓名', 'Name'], width: 14, value: (u) => u.realName },
    { header: ['所属公司', 'Company'], width: 22, value: (u) => u.companyName },
    { header: ['用户级别', 'Level'], width: 16, value: (u) => word(LEVELS[u.userLevel], lang, String(u.userLevel)) },
    { header: ['角色', 'Roles'], width: 26, value: (u) => u.roleNames.join(lang === 'zh' ? '、' : ', ') },
    { header: ['电话', 'Phone'], width: 16, value: (u) => u.phone },
    { header: ['邮箱', 'E-mail'], width: 22, value: (u) => u.email },
    { header: ['状态', 'Status'], width: 8, value: (u) => word(u.status === 1 ? ['启用', 'Active'] : ['停用', 'Disabled'], lang, '') },
    { header: ['到期时间', 'Expires'], width: 20, value: (u) => (u.expireTime === null ? word(['永不过期', 'Never'], lang, '') : chinaTimeText(u.expireTime)) },
    { header: ['创建时间', 'Created'], width: 20, value: (u) => chinaTimeText(u.createTime) },
  ];
}

export const userResource: ResourceDeclaration<User, UserSheetRow> = {
  name: 'user',
  store: (repos) => ({
    get: (scope, id) => repos.users.get(scope, id),
    page: (scope, req) => repos.users.page(scope, req),
    create: (input) => repos.users.create({
      username: input.username as string, passwordHash: input.passwordHash as string, realName: input.realName as string,
      userLevel: input.userLevel as number, companyId: input.companyId as number, phone: input.phone as string, email: input.email as string,
      status: input.status as number, expireTime: input.expireTime as number | null, allowedIps: input.allowedIps as string, geoInverse: input.geoInverse as boolean,
    }, input.roleIds as number[]),
    update: async (id, fields) => {
      const u = fields as unknown as UpdateFields;
      await repos.users.update(id, u.patch, u.roleIds);
      if (u.revokeExcept !== undefined) {
        for (const s of await repos.sessions.liveIds(id)) if (s !== u.revokeExcept) await repos.sessions.revoke(s);
      }
    },
    delete: (user) => repos.users.delete(user.id),
  }),
  page: { method: 'GET', url: '/service-priv/user/page', permission: page, filters: { keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)) } },
  create: {
    method: 'POST', url: '/service-priv/user', permission: `${page}:create`,
    fields: { ...UserFields, username: Username, password: Password, userLevel: UserLevel },
  },
  update: {
    method: 'PUT', url: '/service-priv/user', permission: `${page}:update`,
    fields: { ...UserFields, username: Type.Optional(Username), password: Type.Optional(Password) },
  },
  delete: { method: 'DELETE', url: '/service-priv/user', permission: `${page}:delete` },
  export: {
    ...exportEndpoints('/service-priv/user', `${page}:export`),
    cap: 10_000,
    list: async (repos, scope, filters, limit) => {
      const { total, records } = await firstRows((sc, req) => repos.users.page(sc, req), scope, filters, limit);
      // A role the user holds is named even when it belongs to a company above the caller (seeded roles sit
      // at the group company): the file lists who may do what, and the ids alone would say nothing.
      const roles = new Map<number, string>();
      for (const id of new Set(records.flatMap((u) => u.roleIds))) {
        const role = await repos.roles.get(ALL_COMPANIES, id);
        if (role) roles.set(id, role.name);
      }
      return { total, records: records.map((u) => ({ ...u, roleNames: u.roleIds.map((id) => roles.get(id) ?? `#${id}`) })) };
    },
    fileName: ['用户', 'users'],
    asciiName: 'users',
    columns: userColumns,
  },
  hooks: {
    async prepareCreate({ ctx, storage }, b) {
      const companyId = (b.companyId as number | undefined) ?? ctx.user.companyId;
      const allowedIps = await checkAssignments(storage, ctx, { ...b, companyId } as Parameters<typeof checkAssignments>[2]);
      // Hashed here, outside the transaction: scrypt runs on the thread pool.
      const passwordHash = await hashPassword(b.password as string);
      return {
        username: b.username, passwordHash, realName: (b.realName as string | undefined)?.trim() ?? '', userLevel: b.userLevel, companyId,
        phone: b.phone ?? '', email: b.email ?? '', status: b.status ?? 1, expireTime: b.expireTime ?? null,
        // Addresses on by default for new users (issue 13); the setting turns the geocoder calls off.
        allowedIps: allowedIps ?? '', geoInverse: b.geoInverse ?? true, roleIds: b.roleIds ?? [],
      };
    },
    async prepareUpdate({ ctx, storage }, target, b) {
      checkLevel(ctx, target);
      const allowedIps = await checkAssignments(storage, ctx, b as Parameters<typeof checkAssignments>[2], target.roleIds);
      const passwordHash = b.password === undefined ? undefined : await hashPassword(b.password as string);
      const patch: UserPatch = {
        username: b.username as string | undefined, passwordHash, realName: (b.realName as string | undefined)?.trim(),
        userLevel: b.userLevel as number | undefined, companyId: b.companyId as number | undefined, phone: b.phone as string | undefined,
        email: b.email as string | undefined, status: b.status as number | undefined, expireTime: b.expireTime as number | null | undefined,
        allowedIps, geoInverse: b.geoInverse as boolean | undefined,
      };
      // A new password or a disabled account ends the user's other sessions at once.
      const revoke = passwordHash !== undefined || b.status === 0;
      const fields: UpdateFields = { patch, roleIds: b.roleIds as number[] | undefined, ...(revoke ? { revokeExcept: ctx.sessionId } : {}) };
      return { ...fields, username: b.username } as unknown as Fields;
    },
    async prepareDelete({ ctx }, users) {
      if (users.some((u) => u.id === ctx.user.id)) throw fail.badRequest(Messages.cannotDeleteSelf);
      for (const u of users) checkLevel(ctx, u);
      return users;
    },
    async checkWrite(tx, input, record) {
      const username = input.username as string | undefined;
      if (username !== undefined && (await tx.users.usernameTaken(username, record?.id))) throw new AppError(ErrorCode.Conflict, Messages.usernameTaken, null, { username: { code: 'taken' } });
    },
  },
};

export function userRoutes(app: App, deps: ServiceDeps): void {
  const { storage } = deps;

  registerResource(app, storage, userResource);

  // Not a change of the user record (its sessions end): stays a plain route.
  app.post('/service-priv/user/revokeSessions', {
    config: { permission: `${page}:update` },
    schema: { body: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const target = await storage.users.get(ctx.scope, request.body.id);
    if (!target) throw fail.notFound(Messages.notFound);
    checkLevel(ctx, target);
    return ok({ revoked: await storage.sessions.revokeAllForUser(target.id) }, requestLang(request));
  });
}
