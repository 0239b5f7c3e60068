/** Role management (/system/role) and role permissions, scoped to the caller's company subtree. */
import { Type } from '@fastify/type-provider-typebox';
import { LIST_LIMITS, ROLE_LIMITS } from '../../../domain/management/limits.ts';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import type { Role } from '../../db/types.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { Id, Name, Strict, Text, type App } from '../../http/route.ts';
import { exportEndpoints, firstRows, registerResource, type ResourceDeclaration } from '../../resources/resource.ts';
import { chinaTimeText } from '../track/common.ts';
import type { ServiceDeps } from '../deps.ts';
import { checkGrantable } from './grants.ts';
import { companyNames } from './views.ts';

const PermissionIds = Type.Array(Id, { maxItems: 2000, uniqueItems: true });

export function rolePermissionsView(role: Role) {
  return { roleId: role.id, permissionIds: role.permissionIds, permissions: masksFromIds(role.permissionIds) };
}

/** A row of the roles' sheet: the role with its company's name. */
type RoleSheetRow = Role & { readonly companyName: string };

/** Roles on the resource layer (server/resources/): page, create, update, delete and the export job keep the paths and answers of API.md. */
export const roleResource: ResourceDeclaration<Role, RoleSheetRow> = {
  name: 'role',
  store: (repos) => ({
    get: (scope, id) => repos.roles.get(scope, id),
    page: (scope, req) => repos.roles.page(scope, req),
    create: (input) => repos.roles.create(
      { name: input.name as string, companyId: input.companyId as number, remark: input.remark as string },
      input.permissionIds as number[],
    ),
    update: (id, patch) => repos.roles.update(id, { name: patch.name as string | undefined, remark: patch.remark as string | undefined }),
    delete: (role) => repos.roles.delete(role.id),
  }),
  page: { method: 'GET', url: '/service-priv/role/page', permission: '/system/role', filters: { keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)) } },
  create: {
    method: 'POST', url: '/service-priv/role', permission: '/system/role:create',
    fields: { name: Name(ROLE_LIMITS.name), remark: Type.Optional(Text(ROLE_LIMITS.remark)), permissionIds: Type.Optional(PermissionIds) },
  },
  update: { method: 'PUT', url: '/service-priv/role', permission: '/system/role:update', fields: { name: Type.Optional(Name(ROLE_LIMITS.name)), remark: Type.Optional(Text(ROLE_LIMITS.remark)) } },
  delete: { method: 'DELETE', url: '/service-priv/role', permission: '/system/role:delete' },
  export: {
    ...exportEndpoints('/service-priv/role', '/system/role:export'),
    cap: 10_000,
    list: async (repos, scope, filters, limit) => {
      const { total, records } = await firstRows((sc, req) => repos.roles.page(sc, req), scope, filters, limit);
      const names = await companyNames(repos, scope);
      return { total, records: records.map((r) => ({ ...r, companyName: names.get(r.companyId) ?? '' })) };
    },
    fileName: ['角色', 'roles'],
    asciiName: 'roles',
    columns: [
      { header: ['角色名称', 'Role name'], width: 20, value: (r) => r.name },
      { header: ['所属公司', 'Company'], width: 22, value: (r) => r.companyName },
      { header: ['权限数', 'Permissions'], width: 12, value: (r) => r.permissionIds.length },
      { header: ['备注', 'Remark'], width: 30, value: (r) => r.remark },
      { header: ['创建时间', 'Created'], width: 20, value: (r) => chinaTimeText(r.createTime) },
    ],
  },
  hooks: {
    async prepareCreate({ ctx, storage }, b) {
      const companyId = (b.companyId as number | undefined) ?? ctx.user.companyId;
      await narrowedScope(storage, ctx, companyId);
      const permissionIds = (b.permissionIds as number[] | undefined) ?? [];
      await checkGrantable(storage, ctx, 'permissionIds', permissionIds);
      return { name: (b.name as string).trim(), companyId, remark: (b.remark as string | undefined)?.trim() ?? '', permissionIds };
    },
    async prepareUpdate(_call, _role, b) {
      return { name: (b.name as string | undefined)?.trim(), remark: (b.remark as string | undefined)?.trim() };
    },
    async checkDelete(tx, role) {
      const users = await tx.roles.userCount(role.id);
      if (users > 0) throw fail.conflict(Messages.roleInUse(users));
    },
  },
};

export function roleRoutes(app: App, deps: ServiceDeps): void {
  const { storage } = deps;

  async function roleInScope(ctx: AuthContext, id: number): Promise<Role> {
    const role = await storage.roles.get(ctx.scope, id);
    if (!role) throw fail.notFound(Messages.notFound);
    return role;
  }

  registerResource(app, storage, roleResource);

  app.get('/service-priv/role/list', { config: { permission: 'session' }, schema: { querystring: Strict({}) } }, async (request) => {
    // Pickers offer every role the caller can assign, whatever company is selected in the tree.
    return ok(await storage.roles.list(auth(request).scope), requestLang(request));
  });

  app.get('/service-priv/role/role_permissions', {
    config: { permission: '/system/role' },
    schema: { querystring: Strict({ roleId: Id }) },
  }, async (request) => {
    const role = await roleInScope(auth(request), request.query.roleId);
    return ok(rolePermissionsView(role), requestLang(request));
  });

  app.post('/service-priv/role/role_permissions', {
    config: { permission: '/system/role:update' },
    schema: { body: Strict({ roleId: Id, permissionIds: PermissionIds }) },
  }, async (request) => {
    const ctx = auth(request);
    const role = await roleInScope(ctx, request.body.roleId);
    await checkGrantable(storage, ctx, 'permissionIds', request.body.permissionIds, role.permissionIds);
    await app.resourceWrites.writeThrough(storage, { resource: 'role', operation: 'update', userId: ctx.user.id, sessionId: ctx.sessionId }, async (tx) => {
      await tx.roles.setPermissions(role.id, request.body.permissionIds);
      return { ids: [role.id], result: undefined };
    });
    const updated = await roleInScope(ctx, role.id);
    return ok(rolePermissionsView(updated), requestLang(request));
  });
}
