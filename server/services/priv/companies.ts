/** Company management (/information/company) and the flat company tree, scoped to the caller's subtree. */
import { Type } from '@fastify/type-provider-typebox';
import { ALL_COMPANIES, pathInScope } from '../../db/scope.ts';
import type { Company, CompanyInput } from '../../db/types.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { Id, IdList, MAX_ID, Name, PageFields, Strict, Text, type App } from '../../http/route.ts';
import type { ServiceDeps } from '../deps.ts';
import { companyViews } from './views.ts';

const Phone = Type.String({ pattern: '^[0-9+\\- ]{0,20}$' });
const CompanyFields = {
  contact: Type.Optional(Text(32)),
  phone: Type.Optional(Phone),
  address: Type.Optional(Text(200)),
  remark: Type.Optional(Text(200)),
};

function trimmed(b: Partial<CompanyInput>): Partial<CompanyInput> {
  return {
    name: b.name?.trim(), contact: b.contact?.trim(), phone: b.phone?.trim(), address: b.address?.trim(), remark: b.remark?.trim(),
  };
}

export function companyRoutes(app: App, deps: ServiceDeps): void {
  const { storage } = deps;

  async function companyInScope(ctx: AuthContext, id: number): Promise<Company> {
    const company = await storage.companies.get(ctx.scope, id);
    if (!company) throw fail.notFound(Messages.notFound);
    return company;
  }

  /**
   * A parent company the caller names: 403 with the out-of-scope message when it lies outside the
   * caller's subtree. A missing company is 404 only for callers who see every company; others get the
   * same 403, so a sub-tree administrator cannot probe which foreign company ids exist.
   */
  async function parentInScope(ctx: AuthContext, id: number): Promise<Company> {
    const company = await storage.companies.get(ALL_COMPANIES, id);
    if (!company && ctx.scope.all) throw fail.notFound(Messages.notFound);
    if (!company || !pathInScope(ctx.scope, company.path)) throw fail.forbidden(Messages.companyOutOfScope);
    return company;
  }

  async function view(company: Company) {
    return (await companyViews(storage, [company]))[0];
  }

  app.get('/service-priv/company/tree', { config: { permission: 'session' }, schema: { querystring: Strict({}) } }, async (request) => {
    const views = await companyViews(storage, await storage.companies.listAll(auth(request).scope));
    return ok(views.map(({ id, pid, name, childCount, vehicleCount }) => ({ id, pid, name, childCount, vehicleCount })), requestLang(request));
  });

  app.get('/service-priv/company/page', {
    config: { permission: '/information/company' },
    schema: { querystring: Strict({ ...PageFields, keyword: Type.Optional(Text(64)), pid: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })) }) },
  }, async (request) => {
    const q = request.query;
    const scope = await narrowedScope(storage, auth(request), q.companyId);
    const keyword = q.keyword?.trim();
    const page = await storage.companies.page(scope, {
      current: q.current, size: q.size, ...(keyword ? { keyword } : {}), ...(q.pid !== undefined ? { pid: q.pid } : {}),
    });
    return ok({ ...page, records: await companyViews(storage, page.records) }, requestLang(request));
  });

  app.get('/service-priv/company/:id', {
    config: { permission: '/information/company' },
    schema: { params: Type.Object({ id: Id }), querystring: Strict({}) },
  }, async (request) => ok(await view(await companyInScope(auth(request), request.params.id)), requestLang(request)));

  app.post('/service-priv/company', {
    config: { permission: '/information/company:create' },
    schema: { body: Strict({ ...CompanyFields, pid: Type.Integer({ minimum: 0, maximum: MAX_ID }), name: Name(64) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    // The selected company (`companyId`, which the console adds to every call) and the parent must both
    // lie in the caller's subtree: a foreign one is refused with 403, never quietly replaced by another.
    if (b.companyId !== undefined) await narrowedScope(storage, ctx, b.companyId);
    if (b.pid === 0 && !ctx.isAdmin) throw fail.forbidden(Messages.newRootAdminOnly);
    if (b.pid !== 0) await parentInScope(ctx, b.pid);
    const t = trimmed(b);
    const created = await storage.transaction((tx) => tx.companies.create(b.pid === 0 ? null : b.pid, {
      name: t.name ?? '', contact: t.contact ?? '', phone: t.phone ?? '', address: t.address ?? '', remark: t.remark ?? '',
    }));
    return ok(await view(created), requestLang(request));
  });

  app.put('/service-priv/company', {
    config: { permission: '/information/company:update' },
    schema: { body: Strict({ ...CompanyFields, id: Id, pid: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID })), name: Type.Optional(Name(64)) }) },
  }, async (request) => {
    const ctx = auth(request);
    const b = request.body;
    if (b.companyId !== undefined) await narrowedScope(storage, ctx, b.companyId);
    const company = await companyInScope(ctx, b.id);
    const moving = b.pid !== undefined && b.pid !== company.pid;
    if (moving) {
      if (!ctx.isAdmin && !ctx.scope.all && company.id === ctx.scope.rootId) throw fail.forbidden(Messages.ownRootCompany);
      if (b.pid === 0) {
        if (!ctx.isAdmin) throw fail.forbidden(Messages.newRootAdminOnly);
      } else {
        const parent = await storage.companies.get(ALL_COMPANIES, b.pid as number);
        if (parent && parent.path.startsWith(company.path)) throw fail.badRequest(Messages.moveIntoOwnSubtree);
        await parentInScope(ctx, b.pid as number);
      }
    }
    await storage.transaction(async (tx) => {
      await tx.companies.update(company.id, trimmed(b));
      if (moving) await tx.companies.move(company.id, b.pid === 0 ? null : (b.pid as number));
    });
    return ok(await view(await companyInScope(ctx, company.id)), requestLang(request));
  });

  app.delete('/service-priv/company', {
    config: { permission: '/information/company:delete' },
    schema: { querystring: Strict({ ids: IdList }) },
  }, async (request) => {
    const ctx = auth(request);
    const companies: Company[] = [];
    for (const id of request.query.ids) {
      const company = await companyInScope(ctx, id);
      if (!ctx.scope.all && company.id === ctx.scope.rootId) throw fail.forbidden(Messages.ownRootCompany);
      companies.push(company);
    }
    // Deepest first, so deleting a parent together with its children succeeds; anything still in use rolls all back.
    companies.sort((a, b) => b.path.length - a.path.length);
    await storage.transaction(async (tx) => {
      for (const c of companies) {
        const usage = await tx.companies.usage(c.id);
        if (usage.children + usage.vehicles + usage.users + usage.roles + usage.lines > 0) throw fail.conflict(Messages.companyInUse(c.name, usage));
        await tx.companies.delete(c.id);
      }
    });
    return ok({ deleted: companies.length }, requestLang(request));
  });
}
