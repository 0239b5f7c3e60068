/**
 * Device types (/information/deviceType; spec: `/service-priv/devtype` POST /save, GET /remove,
 * GET /search), declared on the resource layer. The whole resource is this declaration: schemas with
 * the limits of domain/device-type/limits.ts, permission bits, repository, and two rules (a name is
 * unique within its company; maker id and model fit the edition's registration fields).
 */
import { Type } from '@fastify/type-provider-typebox';
import { DEVICE_TYPE_LIMITS as L, registrationFieldTooWide, type DeviceProtocol } from '../../domain/device-type/limits.ts';
import { LIST_LIMITS } from '../../domain/management/limits.ts';
import { ErrorCode, FieldMessage } from '../../domain/errors/catalogue.ts';
import type { DeviceType } from '../db/device-type-types.ts';
import { narrowedScope } from '../http/auth.ts';
import { AppError, fail } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { Name, Text } from '../http/route.ts';
import type { ImportColumn } from './import.ts';
import { exportEndpoints, type ResourceDeclaration } from './resource.ts';

const page = '/information/deviceType' as const;

const Protocol = Type.Union([Type.Literal(2013), Type.Literal(2019)]);
/** Maker id and model as a terminal reports them: printable ASCII. */
const Ascii = (max: number) => Type.String({ maxLength: max, pattern: '^[\\x20-\\x7E]*$' });

const fields = {
  devTypeName: Name(L.nameMax),
  protocol: Protocol,
  makerId: Type.Optional(Ascii(L.makerIdMax)),
  model: Type.Optional(Ascii(L.modelMax)),
  remark: Type.Optional(Text(L.remarkMax)),
};

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const DeviceTypeMessages = {
  nameTaken: (name: string): Message => pair(`设备类型「${name}」已存在`, `The device type "${name}" already exists`),
} as const;

const PROTOCOL_NAME = { 2013: 'JT/T 808-2013', 2019: 'JT/T 808-2019' } as const;

const importColumns: ImportColumn[] = [
  { key: 'devTypeName', header: ['设备类型名称', 'Type name'], schema: fields.devTypeName, required: true },
  { key: 'protocol', header: ['协议版本', 'Protocol'], schema: Protocol, required: true },
  { key: 'makerId', header: ['制造商ID', 'Maker ID'], schema: fields.makerId, required: false },
  { key: 'model', header: ['终端型号', 'Model'], schema: fields.model, required: false },
  { key: 'remark', header: ['备注', 'Remark'], schema: fields.remark, required: false },
];

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);

export const deviceTypeResource: ResourceDeclaration<DeviceType> = {
  name: 'deviceType',
  store: (repos) => ({
    get: (scope, id) => repos.deviceTypes.get(scope, id),
    page: (scope, req) => repos.deviceTypes.page(scope, req),
    create: (input) => repos.deviceTypes.create({
      companyId: input.companyId as number, devTypeName: input.devTypeName as string, protocol: input.protocol as DeviceProtocol,
      makerId: (input.makerId as string | undefined) ?? '', model: (input.model as string | undefined) ?? '', remark: (input.remark as string | undefined) ?? '',
    }),
    update: (id, patch) => repos.deviceTypes.update(id, {
      devTypeName: patch.devTypeName as string | undefined, protocol: patch.protocol as DeviceProtocol | undefined,
      makerId: patch.makerId as string | undefined, model: patch.model as string | undefined, remark: patch.remark as string | undefined,
    }),
    delete: (record) => repos.deviceTypes.delete(record.id),
  }),
  page: { method: 'GET', url: '/service-priv/devtype/search', permission: page, filters: { keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)), protocol: Type.Optional(Protocol) } },
  save: {
    method: 'POST', url: '/service-priv/devtype/save', permission: page,
    createPermission: `${page}:create`, updatePermission: `${page}:update`, fields,
  },
  delete: { method: 'GET', url: '/service-priv/devtype/remove', permission: `${page}:delete` },
  import: { endpoint: { method: 'POST', url: '/service-priv/devtype/import', permission: `${page}:create` }, columns: importColumns, maxRows: L.importRowsMax,
    // The template is for whoever may import: the same bit.
    template: { method: 'GET', url: '/service-priv/devtype/import_template', permission: `${page}:create`, fileName: ['设备类型导入模板', 'device_type_import_template'], asciiName: 'device_type_import_template' },
  },
  export: {
    ...exportEndpoints('/service-priv/devtype', `${page}:export`),
    cap: 5000,
    list: (repos, scope, filters, limit) => repos.deviceTypes.list(scope, filters, limit),
    fileName: ['设备类型', 'device_types'],
    asciiName: 'device_types',
    columns: [
      { header: ['设备类型名称', 'Type name'], width: 24, value: (d) => d.devTypeName },
      { header: ['协议版本', 'Protocol'], width: 10, value: (d) => d.protocol },
      { header: ['制造商ID', 'Maker ID'], width: 12, value: (d) => d.makerId },
      { header: ['终端型号', 'Model'], width: 20, value: (d) => d.model },
      { header: ['备注', 'Remark'], width: 30, value: (d) => d.remark },
    ],
  },
  hooks: {
    async prepareCreate({ ctx, storage }, body) {
      // A new type belongs to the company selected in the tree (else the caller's own): it must lie in the caller's subtree (403).
      const companyId = (body.companyId as number | undefined) ?? ctx.user.companyId;
      await narrowedScope(storage, ctx, companyId);
      return { ...trimmed(body), companyId };
    },
    async prepareUpdate(_call, record, body) {
      // `companyId` on an update is the tree selection the console sends with every call, never a move.
      return { ...trimmed(body), companyId: record.companyId };
    },
    async checkWrite(tx, input, record) {
      const protocol = (input.protocol ?? record?.protocol) as DeviceProtocol;
      for (const field of ['makerId', 'model'] as const) {
        const value = (input[field] as string | undefined) ?? record?.[field] ?? '';
        const max = registrationFieldTooWide(protocol, field, value);
        if (max !== undefined) {
          throw fail.badRequest((lang) => FieldMessage.invalid(field, lang === 'zh'
            ? `${PROTOCOL_NAME[protocol]} 终端注册时最多 ${max} 个字符`
            : `${PROTOCOL_NAME[protocol]} terminals register at most ${max} characters`, lang));
        }
      }
      const name = input.devTypeName as string | undefined;
      if (name !== undefined && await tx.deviceTypes.nameTaken(input.companyId as number, name, record?.id)) throw new AppError(ErrorCode.Conflict, DeviceTypeMessages.nameTaken(name), null, { devTypeName: { code: 'taken' } });
    },
  },
};

function trimmed(body: Record<string, unknown>): Record<string, unknown> {
  return { devTypeName: str(body.devTypeName), protocol: body.protocol, makerId: str(body.makerId), model: str(body.model), remark: str(body.remark) };
}
