/**
 * Lines (/information/lineManagement, issue 15): the line itself (name, code, remark, company) is a
 * declaration on the resource layer — page, create, update, delete behind bits 345–347 with the
 * operator log (resource 'line'). Its stations and vehicles are hand-written calls beside it
 * (services/fleet-assets/lines.ts), because they replace lists rather than fields.
 *
 * Rules: a name is unique within its company (case-insensitively), and so is a code when entered; a
 * new line belongs to the company picked in the tree (else the caller's) inside the caller's subtree;
 * an update never moves a line to another company; a line that still has vehicles is not deleted
 * (409 naming how many: move them off first, so no vehicle silently loses its line).
 */
import { Type } from '@fastify/type-provider-typebox';
import { LINE_LIMITS as L } from '../../domain/fleet/limits.ts';
import { LIST_LIMITS } from '../../domain/management/limits.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import type { LineRecord } from '../db/line-types.ts';
import { narrowedScope } from '../http/auth.ts';
import { AppError, fail } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { Name, Text } from '../http/route.ts';
import type { ResourceDeclaration } from './resource.ts';

export const LINE_PAGE = '/information/lineManagement' as const;

export const LineFields = {
  name: Name(L.nameMax),
  code: Type.Optional(Text(L.codeMax)),
  remark: Type.Optional(Text(L.remarkMax)),
};

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const LineMessages = {
  notFound: pair('线路不存在', 'The line does not exist'),
  nameTaken: (name: string): Message => pair(`线路「${name}」已存在`, `The line "${name}" already exists`),
  codeTaken: (code: string): Message => pair(`线路编号「${code}」已被使用`, `The line code "${code}" is already taken`),
  hasVehicles: (name: string, n: number): Message => pair(`线路「${name}」上还有 ${n} 辆车，请先将车辆移出线路再删除`, `The line "${name}" still has ${n} vehicle(s); take them off the line before deleting it`),
} as const;

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);

export const lineResource: ResourceDeclaration<LineRecord> = {
  name: 'line',
  notFound: LineMessages.notFound,
  store: (repos) => ({
    get: (scope, id) => repos.lines.get(scope, id),
    page: (scope, req) => repos.lines.page(scope, req),
    create: (input) => repos.lines.create({
      companyId: input.companyId as number, name: input.name as string, code: (input.code as string | undefined) ?? '', remark: (input.remark as string | undefined) ?? '',
    }),
    update: (id, patch) => repos.lines.update(id, { name: patch.name as string | undefined, code: patch.code as string | undefined, remark: patch.remark as string | undefined }),
    delete: (record) => repos.lines.delete(record.id),
  }),
  page: { method: 'GET', url: '/service-priv/line/page', permission: LINE_PAGE, filters: { keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)) } },
  create: { method: 'POST', url: '/service-priv/line', permission: `${LINE_PAGE}:create`, fields: LineFields },
  update: { method: 'PUT', url: '/service-priv/line', permission: `${LINE_PAGE}:update`, fields: { ...LineFields, name: Type.Optional(LineFields.name) } },
  delete: { method: 'DELETE', url: '/service-priv/line', permission: `${LINE_PAGE}:delete` },
  changeLog: {
    resource: 'line',
    label: (r) => r.name,
    companyId: (r) => r.companyId,
    fields: (r) => ({ name: r.name, code: r.code, remark: r.remark, companyId: r.companyId }),
  },
  hooks: {
    async prepareCreate({ ctx, storage }, body) {
      // A new line belongs to the company selected in the tree (else the caller's own), inside the caller's subtree (403).
      const companyId = (body.companyId as number | undefined) ?? ctx.user.companyId;
      await narrowedScope(storage, ctx, companyId);
      return { name: str(body.name), code: str(body.code) ?? '', remark: str(body.remark) ?? '', companyId };
    },
    async prepareUpdate(_call, record, body) {
      // `companyId` on an update is the tree selection the console sends with every call, never a move.
      return { name: str(body.name), code: str(body.code), remark: str(body.remark), companyId: record.companyId };
    },
    async checkWrite(tx, input, record) {
      const companyId = input.companyId as number;
      const name = input.name as string | undefined;
      if (name !== undefined && await tx.lines.nameTaken(companyId, name, record?.id)) {
        throw new AppError(ErrorCode.Conflict, LineMessages.nameTaken(name), null, { name: { code: 'taken' } });
      }
      const code = input.code as string | undefined;
      if (code && await tx.lines.codeTaken(companyId, code, record?.id)) {
        throw new AppError(ErrorCode.Conflict, LineMessages.codeTaken(code), null, { code: { code: 'taken' } });
      }
    },
    async checkDelete(tx, record) {
      const n = await tx.lines.vehicleCount(record.id);
      if (n > 0) throw fail.conflict(LineMessages.hasVehicles(record.name, n));
    },
  },
};
