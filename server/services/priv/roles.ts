/** Role management (/system/role) and role permissions, scoped to the caller's company subtree. */
import { Type } from '@fastify/type-provider-typebox';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import type { Role } from '../../db/types.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { Id, IdList, Name, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { ServiceDeps } from '../deps.ts';
import { checkGrantable } from './grants.ts';

const PermissionIds = Type.Array(Id, { maxItems: 2000, uniqueItems: true });

export function rolePermissionsView(role: Role) {
  return { roleId: role.id, permissionIds: role.permissionIds, permissions: masksFromIds(role.permissionIds) };
}

export function roleRoutes(app: App, deps: ServiceDeps): void {
  const { storage } = deps;

  async function roleInScope(ctx: AuthContext, id: number): Promise<Role> {
    const role = await storage.roles.get(ctx.scope, id);
    if (!role) throw fail.notFound(Messages.notFound);
    return role;
  }

  app.get('/service-priv/role/page', {
    config: { permission: '/system/role' },
    schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Text(64)) }) },
  }, async (request) => {
    const q = request.query;
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const keyword = q.keyword?.trim();
    return ok(await storage.roles.page(scope, { current: q.current, size: q.size, ...(keyword ? { keyword } : {}) }), requestLang(request));
  });

  app.get('/service-priv/role/list', { config: { permission: 'session' }, schema: { querystring: Strict({}) } }, async (request) => {
    // Pickers offer every role the caller can assign, whatever company is selected in the tree.
    return ok(await storage.roles.list(auth(request).scope), requestLang(request));
  });

  app.post('/service-priv/role', {
    config: { permission: '/system/role:create' },
    schema: { body: Strict({ name: Name(32), remark: Type.Optional(Text(200)), permissionIds: Type.Optional(PermissionIds) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const companyId = b.companyId ?? ctx.user.companyId;
    await narrowedScope(storage, ctx, companyId);
    const permissionIds = b.permissionIds ?? [];
    await checkGrantable(storage, ctx, 'permissionIds', permissionIds);
    const id = await storage.transaction((tx) => tx.roles.create({ name: b.name.trim(), companyId, remark: b.remark?.trim() ?? '' }, permissionIds));
    return ok(await storage.roles.get(ctx.scope, id), requestLang(request));
  });

  app.put('/service-priv/role', {
    config: { permission: '/system/role:update' },
    schema: { body: Strict({ id: Id, name: Type.Optional(Name(32)), remark: Type.Optional(Text(200)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    const role = await roleInScope(ctx, b.id);
    await storage.transaction((tx) => tx.roles.update(role.id, { name: b.name?.trim(), remark: b.remark?.trim() }));
    return ok(await storage.roles.get(ctx.scope, role.id), requestLang(request));
  });

  app.delete('/service-priv/role', {
    config: { permission: '/system/role:delete' },
    schema: { querystring: Strict({ ids: IdList }) },
  }, async (request) => {
    const ctx = auth(request);
    const ids = request.query.ids;
    for (const id of ids) await roleInScope(ctx, id);
    await storage.transaction(async (tx) => {
      for (const id of ids) {
        const users = await tx.roles.userCount(id);
        if (users > 0) throw fail.conflict(Messages.roleInUse(users));
        await tx.roles.delete(id);
      }
    });
    return ok({ deleted: ids.length }, requestLang(request));
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
    await storage.transaction((tx) => tx.roles.setPermissions(role.id, request.body.permissionIds));
    const updated = await roleInScope(ctx, role.id);
    return ok(rolePermissionsView(updated), requestLang(request));
  });
}
