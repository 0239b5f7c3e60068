/** The permission records (/system/privilege): list, rename, reorder, tree, and grants per role. */
import { Type } from '@fastify/type-provider-typebox';
import { auth, type AuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { Id, IdList, Name, Strict, type App } from '../../http/route.ts';
import type { ServiceDeps } from '../deps.ts';
import { checkGrantable, checkKnownPermissions } from './grants.ts';
import { toPermissionRecord, type PermissionRecord } from './views.ts';

interface PrivTreeNode extends PermissionRecord {
  readonly children: PrivTreeNode[];
}

/**
 * The permission catalogue (names and order of the nodes every company's menus and roles show) is
 * global: only a super administrator (`userLevel` 0) may change it. Holding `/system/privilege:update`
 * through a role is not enough, or a sub-tree administrator could rename the menus of every company.
 */
function superAdminOnly(ctx: AuthContext): void {
  if (!ctx.isAdmin) throw fail.forbidden(Messages.catalogueSuperAdminOnly);
}

export function permissionRoutes(app: App, deps: ServiceDeps): void {
  const { storage } = deps;

  async function records(): Promise<PermissionRecord[]> {
    return (await storage.permissions.list()).map(toPermissionRecord);
  }

  app.get('/service-priv/permissions', { config: { permission: 'session' }, schema: { querystring: Strict({}) } }, async (request) =>
    ok(await records(), requestLang(request)));

  app.post('/service-priv/permissions', {
    config: { permission: '/system/privilege:update' },
    schema: { body: Strict({ id: Id, name: Type.Optional(Name(32)), nameEn: Type.Optional(Name(64)), sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })) }) },
  }, async (request) => {
    superAdminOnly(auth(request));
    const b = request.body;
    if (!(await storage.permissions.get(b.id))) throw fail.notFound(Messages.notFound);
    await storage.transaction((tx) => tx.permissions.update(b.id, { name: b.name?.trim(), nameEn: b.nameEn?.trim(), sort: b.sort }));
    const row = await storage.permissions.get(b.id);
    return ok(row && toPermissionRecord(row), requestLang(request));
  });

  app.get('/service-priv/permissions/move', {
    config: { permission: '/system/privilege:update' },
    schema: { querystring: Strict({ id: Id, direction: Type.Enum(['up', 'down']) }) },
  }, async (request) => {
    superAdminOnly(auth(request));
    const { id, direction } = request.query;
    const row = await storage.permissions.get(id);
    if (!row) throw fail.notFound(Messages.notFound);
    const siblings = await storage.transaction(async (tx) => {
      const list = await tx.permissions.siblings(row.pid);
      const from = list.findIndex((p) => p.id === id);
      const to = direction === 'up' ? from - 1 : from + 1;
      const order = list.map((p) => p.id);
      if (to >= 0 && to < order.length) [order[from], order[to]] = [order[to] as number, order[from] as number];
      // Renumber the whole sibling list so equal or sparse sort values cannot make a move a no-op.
      await tx.permissions.setSorts(order.map((pid, index) => ({ id: pid, sort: index + 1 })));
      return tx.permissions.siblings(row.pid);
    });
    return ok(siblings.map(toPermissionRecord), requestLang(request));
  });

  app.get('/service-priv/priv/findAllPrivTree', { config: { permission: '/system/privilege' }, schema: { querystring: Strict({}) } }, async (request) => {
    const lang = requestLang(request);
    const nodes = new Map<number, PrivTreeNode>();
    const all = await records();
    for (const r of all) nodes.set(r.id, { ...r, children: [] });
    const roots: PrivTreeNode[] = [];
    // list() is ordered by (pid, sort, id), so children arrive in display order.
    for (const r of all) {
      const node = nodes.get(r.id) as PrivTreeNode;
      const parent = r.pid ? nodes.get(r.pid) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    return ok({ id: 0, name: Messages.allPermissions(lang), children: roots }, lang);
  });

  app.get('/service-priv/priv/findPrivDetail', {
    config: { permission: '/system/privilege' },
    schema: { querystring: Strict({ id: Id }) },
  }, async (request) => {
    const ctx = auth(request);
    const row = await storage.permissions.get(request.query.id);
    if (!row) throw fail.notFound(Messages.notFound);
    return ok({ record: toPermissionRecord(row), roles: await storage.roles.grantsOf(ctx.scope, row.id) }, requestLang(request));
  });

  const GrantBody = Strict({ roleId: Id, ids: IdList });

  app.post('/service-priv/priv/addPriv', { config: { permission: '/system/privilege:update' }, schema: { body: GrantBody } }, async (request) => {
    const ctx = auth(request);
    const role = await storage.roles.get(ctx.scope, request.body.roleId);
    if (!role) throw fail.notFound(Messages.notFound);
    await checkGrantable(storage, ctx, 'ids', request.body.ids, role.permissionIds);
    await storage.transaction((tx) => tx.roles.addPermissions(role.id, request.body.ids));
    const updated = await storage.roles.get(ctx.scope, role.id);
    return ok({ roleId: role.id, permissionIds: updated?.permissionIds ?? [] }, requestLang(request));
  });

  app.post('/service-priv/priv/delPriv', { config: { permission: '/system/privilege:update' }, schema: { body: GrantBody } }, async (request) => {
    const ctx = auth(request);
    const role = await storage.roles.get(ctx.scope, request.body.roleId);
    if (!role) throw fail.notFound(Messages.notFound);
    await checkKnownPermissions(storage, 'ids', request.body.ids);
    await storage.transaction((tx) => tx.roles.removePermissions(role.id, request.body.ids));
    const updated = await storage.roles.get(ctx.scope, role.id);
    return ok({ roleId: role.id, permissionIds: updated?.permissionIds ?? [] }, requestLang(request));
  });
}
