/**
 * Installation records (/information/vehicle_installed; spec: GET /service-priv/vehicle/installed_records,
 * GET …/installed_records/{id}, POST …/installed_records/update), declared on the resource layer: the
 * page (keyword: plate, device number or installer; kind; period; company subtree) and the detail with
 * its photos; and the schemas and checks the hand-written writes share (services/fleet-assets/installations.ts:
 * the create, which changes the binding through `changeDevice`; the edit of the record's own fields and
 * photos, never its devices; the delete with a body `{ids}`; the photo bytes). Those are hand-written
 * because photo bodies need a larger body limit than the layer's routes have and a create is a binding change.
 */
import { Type } from '@fastify/type-provider-typebox';
import {
  INSTALLATION_KIND_CODES, PHOTO_NAME_MAX, installTimeInFuture, installTimeText, photoCountProblem, photoProblem, photoProblemText,
  type PhotoProblem,
} from '../../domain/fleet/installation.ts';
import { INSTALLATION_LIMITS as L } from '../../domain/fleet/limits.ts';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { LIST_LIMITS } from '../../domain/management/limits.ts';
import type { Installation, NewPhoto } from '../db/installation-types.ts';
import { AppError } from '../http/envelope.ts';
import type { Message } from '../http/messages.ts';
import { EpochMs, Id, Text } from '../http/route.ts';
import type { ResourceDeclaration } from './resource.ts';

export const INSTALLED_PAGE = '/information/vehicle_installed' as const;

/** Base64 of the largest photo (no line breaks, no data: prefix). */
const PHOTO_BASE64_MAX = Math.ceil(L.photoMaxBytes / 3) * 4;
export const PhotoInput = Type.Object({
  /** The file's name as picked (named in every problem about it). */
  name: Type.String({ minLength: 1, maxLength: PHOTO_NAME_MAX }),
  /** The type the browser declares (`file.type`); the bytes decide, a disagreeing declaration is refused. */
  type: Type.Optional(Type.String({ maxLength: 64 })),
  data: Type.String({ minLength: 1, maxLength: PHOTO_BASE64_MAX, pattern: '^[A-Za-z0-9+/]*={0,2}$' }),
}, { additionalProperties: false });
export const PhotoList = Type.Array(PhotoInput, { minItems: 1, maxItems: L.photosMax });
/** Stored photos an edit removes. */
export const PhotoIdList = Type.Array(Id, { minItems: 1, maxItems: L.photosMax, uniqueItems: true });
/** Room for nine photos of the largest size as base64 in JSON, plus the other fields. */
export const PHOTO_BODY_LIMIT = L.photosMax * (PHOTO_BASE64_MAX + 256) + 64 * 1024;

export const Kind = Type.Union(INSTALLATION_KIND_CODES.map((k) => Type.Literal(k)));
export const recordFields = {
  installer: Type.Optional(Text(L.installerMax)),
  installTime: Type.Optional(EpochMs),
  remark: Type.Optional(Text(L.remarkMax)),
};

const pair = (zh: string, en: string): Message => (lang) => (lang === 'zh' ? zh : en);
export const InstallationMessages = {
  notFound: pair('安装记录不存在', 'No such installation record'),
  noSuchPhoto: (id: number): Message => pair(`照片 ${id} 不属于该记录`, `Photo ${id} is not a photo of this record`),
} as const;

function photoError(p: PhotoProblem): AppError {
  const { code, ...params } = p;
  return new AppError(ErrorCode.BadRequest, (lang) => photoProblemText(p, lang), null, { photos: { code, params } });
}

/** The photos of a call decoded and checked (type by magic bytes, size); the first bad one refuses the call with 400 naming its file. */
export function decodePhotos(list: readonly { name: string; type?: string; data: string }[] | undefined): NewPhoto[] {
  const out: NewPhoto[] = [];
  for (const p of list ?? []) {
    const bytes = Buffer.from(p.data, 'base64');
    const name = p.name.trim() || 'photo';
    const problem = photoProblem(name, bytes, p.type?.trim() || undefined);
    if (problem) throw photoError(problem);
    out.push({ name, mime: bytes[0] === 0xff ? 'image/jpeg' : 'image/png', bytes });
  }
  return out;
}

export function checkPhotoCount(count: number): void {
  const problem = photoCountProblem(count);
  if (problem) throw photoError(problem);
}

/** 400 on `installTime` when the work would lie in the future. */
export function checkInstallTime(time: number | undefined): void {
  if (time !== undefined && installTimeInFuture(time, Date.now())) {
    throw new AppError(ErrorCode.BadRequest, (lang) => installTimeText(lang), null, { installTime: { code: 'future' } });
  }
}

export const installationResource: ResourceDeclaration<Installation> = {
  name: 'installation',
  notFound: InstallationMessages.notFound,
  store: (repos) => ({
    get: (scope, id) => repos.installations.get(scope, id),
    page: (scope, req) => repos.installations.page(scope, req),
    // Writes are hand-written (services/fleet-assets/installations.ts): a record is created only with its binding change.
    create: () => Promise.reject(new Error('installation records are created by changeDevice')),
    update: () => Promise.reject(new Error('installation records are updated by their own call')),
    delete: (record) => repos.installations.delete(record.id),
  }),
  view: async (repos, records) => Promise.all(records.map(async (r) => ({ ...r, photos: await repos.installations.photos(r.id) }))),
  page: {
    method: 'GET', url: '/service-priv/vehicle/installed_records', permission: INSTALLED_PAGE,
    filters: {
      keyword: Type.Optional(Text(LIST_LIMITS.keywordMax)),
      kind: Type.Optional(Kind),
      vehicleId: Type.Optional(Id),
      from: Type.Optional(EpochMs),
      to: Type.Optional(EpochMs),
    },
  },
  detail: { method: 'GET', url: '/service-priv/vehicle/installed_records/:id', permission: INSTALLED_PAGE },
};
