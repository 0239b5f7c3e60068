/**
 * The company tree panel: lazy children (treeStruct) and search (treeSearch). Node ids carry their
 * type: C_<company>, L_<line>, V_<vehicle>. Both calls work in the caller's scope and ignore the
 * injected companyId (the panel shows the whole visible tree whatever is selected).
 */
import { Type } from '@fastify/type-provider-typebox';
import type { Repositories } from '../../db/repositories.ts';
import type { Scope } from '../../db/scope.ts';
import type { Company, Line, Vehicle } from '../../db/types.ts';
import { auth } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { Strict, Text, type App } from '../../http/route.ts';
import type { ServiceDeps } from '../deps.ts';

export interface TreeNode {
  readonly id: string;
  readonly name: string;
  readonly nodeType: 'C' | 'V' | 'L';
  readonly companyId: number;
  readonly hasChildren: boolean;
  readonly vehicleCount: number;
  readonly deviceNo?: string;
}

async function companyNodes(repos: Repositories, companies: readonly Company[]): Promise<TreeNode[]> {
  const ids = companies.map((c) => c.id);
  const [children, vehicles, lines] = await Promise.all([
    repos.companies.childCounts(ids), repos.companies.subtreeVehicleCounts(ids), repos.fleet.lineCounts(ids),
  ]);
  return companies.map((c) => {
    const vehicleCount = vehicles.get(c.id) ?? 0;
    return {
      id: `C_${c.id}`, name: c.name, nodeType: 'C', companyId: c.id, vehicleCount,
      hasChildren: (children.get(c.id) ?? 0) > 0 || (lines.get(c.id) ?? 0) > 0 || vehicleCount > 0,
    };
  });
}

function lineNode(l: Line & { vehicleCount: number }): TreeNode {
  return { id: `L_${l.id}`, name: l.name, nodeType: 'L', companyId: l.companyId, hasChildren: l.vehicleCount > 0, vehicleCount: l.vehicleCount };
}

function vehicleNode(v: Vehicle): TreeNode {
  return { id: `V_${v.id}`, name: v.vehiidno, nodeType: 'V', companyId: v.companyId, hasChildren: false, vehicleCount: 0, deviceNo: v.deviceNo ?? undefined };
}

/** Ancestor company node ids of a path inside the scope, root first (`/1/3/12/` → C_1, C_3, C_12). */
function companyPath(scope: Scope, path: string): string[] {
  const ids = path.split('/').filter(Boolean);
  const start = scope.all ? 0 : ids.indexOf(String(scope.rootId));
  return ids.slice(Math.max(start, 0)).map((id) => `C_${id}`);
}

export function treeRoutes(app: App, deps: ServiceDeps): void {
  const { storage } = deps;

  app.get('/service-priv/company/treeStruct', {
    config: { permission: 'session' },
    schema: { querystring: Strict({ nodeId: Type.Optional(Type.String({ pattern: '^[CVL]_[1-9][0-9]{0,14}$' })) }) },
  }, async (request) => {
    const { scope } = auth(request);
    const lang = requestLang(request);
    const nodeId = request.query.nodeId;
    if (nodeId === undefined) {
      const roots = scope.all ? await storage.companies.children(scope, null) : [await storage.companies.get(scope, scope.rootId)];
      return ok(await companyNodes(storage, roots.filter((c): c is Company => c !== undefined)), lang);
    }
    const id = Number(nodeId.slice(2));
    switch (nodeId[0]) {
      case 'C': {
        const company = await storage.companies.get(scope, id);
        if (!company) throw fail.notFound(Messages.notFound);
        const [children, lines, vehicles] = await Promise.all([
          storage.companies.children(scope, id), storage.fleet.linesOf(scope, id), storage.fleet.vehiclesOfCompany(scope, id),
        ]);
        return ok([...(await companyNodes(storage, children)), ...lines.map(lineNode), ...vehicles.map(vehicleNode)], lang);
      }
      case 'L': {
        const line = await storage.fleet.getLine(scope, id);
        if (!line) throw fail.notFound(Messages.notFound);
        return ok((await storage.fleet.vehiclesOfLine(scope, id)).map(vehicleNode), lang);
      }
      default: {
        if (!(await storage.fleet.getVehicle(scope, id))) throw fail.notFound(Messages.notFound);
        return ok([], lang);
      }
    }
  });

  app.get('/service-priv/company/treeSearch', {
    config: { permission: 'session' },
    schema: { querystring: Strict({ keyword: Text(64, 1), limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }) }) },
  }, async (request) => {
    const { scope } = auth(request);
    const { keyword: raw, limit } = request.query;
    const keyword = raw.trim();
    if (!keyword) return ok([], requestLang(request));
    const companies = await storage.fleet.searchCompanies(scope, keyword, limit);
    const lines = companies.length < limit ? await storage.fleet.searchLines(scope, keyword, limit - companies.length) : [];
    const left = limit - companies.length - lines.length;
    const vehicles = left > 0 ? await storage.fleet.searchVehicles(scope, keyword, left) : [];
    const out: { node: TreeNode; path: string[] }[] = [];
    const nodes = await companyNodes(storage, companies);
    companies.forEach((c, i) => {
      const node = nodes[i];
      if (node) out.push({ node, path: companyPath(scope, c.path).slice(0, -1) });
    });
    for (const l of lines) out.push({ node: lineNode(l), path: companyPath(scope, l.path) });
    for (const v of vehicles) out.push({ node: vehicleNode(v), path: [...companyPath(scope, v.path), ...(v.lineId ? [`L_${v.lineId}`] : [])] });
    return ok(out, requestLang(request));
  });
}
