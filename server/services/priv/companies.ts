/** Company management (/information/company) and the flat company tree, scoped to the caller's subtree. */
import { Type } from '@fastify/type-provider-typebox';
import { COMPANY_LIMITS, COMPANY_PHONE_PATTERN, LIST_LIMITS } from '../../../domain/management/limits.ts';
import { ALL_COMPANIES, pathInScope } from '../../db/scope.ts';
import type { Company, CompanyInput } from '../../db/types.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { MAX_ID, Name, Strict, Text, type App } from '../../http/route.ts';
import { exportEndpoints, firstRows, registerResource, type ResourceDeclaration } from '../../resources/resource.ts';
import { chinaTimeText } from '../track/common.ts';
import type { ServiceDeps } from '../deps.ts';
import { assertCompanyUnused } from '../fleet-assets/company-assets.ts';
import { companyNames, companyViews, type CompanyView } from './views.ts';

const Phone = Type.String({ pattern: COMPANY_PHONE_PATTERN });
const CompanyFields = {
  contact: Type.Optional(Text(COMPANY_LIMITS.contact)),
  phone: Type.Optional(Phone),
  address: Type.Optional(Text(COMPANY_LIMITS.address)),
  remark: Type.Optional(Text(COMPANY_LIMITS.remark)),
};

function trimmed(b: Partial<CompanyInput>): Partial<CompanyInput> {
  return {
    name: b.name?.trim(), contact: b.contact?.trim(), phone: b.phone?.trim(), address: b.address?.trim(), remark: b.remark?.trim(),
  };
}

type ParentCheck = (ctx: AuthContext, id: number) => Promise<Company>;

/** Companies on the resource layer (server/resources/): page, detail, create, update (with move) and delete keep the paths and answers of API.md. */
/** A row of the companies' sheet: the company's view with its parent's name. */
type CompanySheetRow = CompanyView & { readonly parentName: string };

function companyResource(parentInScope: ParentCheck): ResourceDeclaration<Company, CompanySheetRow> {
  const Pid = Type.Integer({ minimum: 0, maximum: MAX_ID });
  return {
    name: 'company',
    store: (repos) => ({
      get: (scope, id) => repos.companies.get(scope, id),
      page: (scope, req) => repos.companies.page(scope, req),
      create: async (input) => {
        const pid = input.pid as number;
        const t = input as Partial<CompanyInput>;
        const created = await repos.companies.create(pid === 0 ? null : pid, {
          name: t.name ?? '', contact: t.contact ?? '', phone: t.phone ?? '', address: t.address ?? '', remark: t.remark ?? '',
        });
        return created.id;
      },
      update: async (id, patch) => {
        await repos.companies.update(id, trimmed(patch as Partial<CompanyInput>));
        if (patch.moveTo !== undefined) await repos.companies.move(id, patch.moveTo as number | null);
      },
      delete: (company) => repos.companies.delete(company.id),
    }),
    view: companyViews,
    page: { method: 'GET', url: '/service-priv/company/page', permission: '/information/company', filters: { keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)), pid: Type.Optional(Pid) } },
    detail: { method: 'GET', url: '/service-priv/company/:id', permission: '/information/company' },
    create: { method: 'POST', url: '/service-priv/company', permission: '/information/company:create', fields: { ...CompanyFields, pid: Pid, name: Name(COMPANY_LIMITS.name) } },
    update: { method: 'PUT', url: '/service-priv/company', permission: '/information/company:update', fields: { ...CompanyFields, pid: Type.Optional(Pid), name: Type.Optional(Name(COMPANY_LIMITS.name)) } },
    delete: { method: 'DELETE', url: '/service-priv/company', permission: '/information/company:delete' },
    export: {
      ...exportEndpoints('/service-priv/company', '/information/company:export'),
      cap: 10_000,
      list: async (repos, scope, filters, limit) => {
        const { total, records } = await firstRows((sc, req) => repos.companies.page(sc, req), scope, filters, limit);
        const names = await companyNames(repos, scope);
        return { total, records: (await companyViews(repos, records)).map((c) => ({ ...c, parentName: names.get(c.pid) ?? '' })) };
      },
      fileName: ['公司', 'companies'],
      asciiName: 'companies',
      columns: [
        { header: ['公司名称', 'Company name'], width: 24, value: (c) => c.name },
        { header: ['上级公司', 'Parent company'], width: 24, value: (c) => c.parentName },
        { header: ['联系人', 'Contact'], width: 14, value: (c) => c.contact },
        { header: ['联系电话', 'Phone'], width: 16, value: (c) => c.phone },
        { header: ['地址', 'Address'], width: 30, value: (c) => c.address },
        { header: ['下级公司', 'Subsidiaries'], width: 10, value: (c) => c.childCount },
        { header: ['车辆数', 'Vehicles'], width: 10, value: (c) => c.vehicleCount },
        { header: ['备注', 'Remark'], width: 24, value: (c) => c.remark },
        { header: ['创建时间', 'Created'], width: 20, value: (c) => chinaTimeText(c.createTime) },
      ],
    },
    hooks: {
      async prepareCreate({ ctx, storage }, b) {
        // The selected company (`companyId`, which the console adds to every call) and the parent must both
        // lie in the caller's subtree: a foreign one is refused with 403, never quietly replaced by another.
        if (b.companyId !== undefined) await narrowedScope(storage, ctx, b.companyId as number);
        if (b.pid === 0 && !ctx.isAdmin) throw fail.forbidden(Messages.newRootAdminOnly);
        if (b.pid !== 0) await parentInScope(ctx, b.pid as number);
        return { ...trimmed(b as Partial<CompanyInput>), pid: b.pid };
      },
      async prepareUpdate({ ctx, storage }, company, b) {
        if (b.companyId !== undefined) await narrowedScope(storage, ctx, b.companyId as number);
        const pid = b.pid as number | undefined;
        const moving = pid !== undefined && pid !== company.pid;
        if (moving) {
          if (!ctx.isAdmin && !ctx.scope.all && company.id === ctx.scope.rootId) throw fail.forbidden(Messages.ownRootCompany);
          if (pid === 0) {
            if (!ctx.isAdmin) throw fail.forbidden(Messages.newRootAdminOnly);
          } else {
            const parent = await storage.companies.get(ALL_COMPANIES, pid);
            if (parent && parent.path.startsWith(company.path)) throw fail.badRequest(Messages.moveIntoOwnSubtree);
            await parentInScope(ctx, pid);
          }
        }
        return { ...trimmed(b as Partial<CompanyInput>), ...(moving ? { moveTo: pid === 0 ? null : pid } : {}) };
      },
      async prepareDelete({ ctx }, companies) {
        for (const company of companies) if (!ctx.scope.all && company.id === ctx.scope.rootId) throw fail.forbidden(Messages.ownRootCompany);
        // Deepest first, so deleting a parent together with its children succeeds; anything still in use rolls all back.
        return [...companies].sort((a, b) => b.path.length - a.path.length);
      },
      async checkDelete(tx, c) {
        const usage = { ...(await tx.companies.usage(c.id)), deviceTypes: await tx.deviceTypes.countOfCompany(c.id) };
        await assertCompanyUnused(tx, c.name, c.id, usage);
      },
    },
  };
}

export function companyRoutes(app: App, deps: ServiceDeps): void {
  const { storage } = deps;

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

  app.get('/service-priv/company/tree', { config: { permission: 'session' }, schema: { querystring: Strict({}) } }, async (request) => {
    const views = await companyViews(storage, await storage.companies.listAll(auth(request).scope));
    return ok(views.map(({ id, pid, name, childCount, vehicleCount }) => ({ id, pid, name, childCount, vehicleCount })), requestLang(request));
  });

  registerResource(app, storage, companyResource(parentInScope));
}
