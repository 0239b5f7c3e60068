/**
 * The installation forms' checks, with the server's limits (domain/fleet/limits.ts INSTALLATION_LIMITS,
 * domain/fleet/installation.ts): a form refuses what the calls would — a vehicle and, unless the device
 * is removed, a device; installer ≤ 32, remark ≤ 200; a time not in the future; photos JPEG or PNG by
 * their first bytes, ≤ 2 MiB each, ≤ 9 a record.
 */
import {
  installTimeInFuture, photoCountProblem, photoProblem, type InstallationKindCode, type PhotoProblem,
} from '../../../domain/fleet/installation.ts';
import { DEVICE_NO_PATTERN, INSTALLATION_LIMITS as L } from '../../../domain/fleet/limits.ts';
import { periodValue, valueTime } from '../../../domain/period/period.ts';
import type { Installation, InstallationCreate, InstallationUpdate, PhotoUpload } from './api.ts';

/** A photo picked in the form: read, checked by its bytes, ready to send (or refused with its problem). */
export interface PickedPhoto {
  key: string;
  name: string;
  type: string;
  size: number;
  data: string;
  problem?: PhotoProblem;
}

/** `bind`: the vehicle gets the chosen device (an install or a replacement); `remove`: its device comes off. */
export type InstallAction = 'bind' | 'remove';

export interface CreateFormValues extends Record<string, unknown> {
  vehicleId: number | null;
  action: InstallAction;
  deviceNo: string | null;
  installer: string;
  /** `2026-11-25T08:05` (the kit's DateTimeField value). */
  installTime: string;
  remark: string;
  photos: PickedPhoto[];
}

export interface EditFormValues extends Record<string, unknown> {
  installer: string;
  installTime: string;
  remark: string;
  /** Stored photos the operator removes. */
  removePhotoIds: number[];
  photos: PickedPhoto[];
}

/** A problem worded by the page's messages (`key`), or a photo problem worded by domain/fleet/installation.ts. */
export type FormProblem = { key: string; params?: Record<string, string | number> } | { photo: PhotoProblem };

const DEVICE_NO = new RegExp(DEVICE_NO_PATTERN);

export function initialCreate(now: Date): CreateFormValues {
  return { vehicleId: null, action: 'bind', deviceNo: null, installer: '', installTime: periodValue(now, 'datetime'), remark: '', photos: [] };
}

export function initialEdit(r: Installation): EditFormValues {
  return { installer: r.installer, installTime: periodValue(new Date(r.installTime), 'datetime'), remark: r.remark, removePhotoIds: [], photos: [] };
}

/** The kind the create form records, given the vehicle's device now (undefined: nothing would change). */
export function createKind(current: string | null, v: Pick<CreateFormValues, 'action' | 'deviceNo'>): InstallationKindCode | undefined {
  if (v.action === 'remove') return current === null ? undefined : 'remove';
  if (v.deviceNo === null || v.deviceNo === current) return undefined;
  return current === null ? 'install' : 'replace';
}

function commonProblems(v: { installer: string; installTime: string; remark: string }, now: number): Record<string, FormProblem> {
  const out: Record<string, FormProblem> = {};
  if (v.installer.trim().length > L.installerMax) out.installer = { key: 'max', params: { max: L.installerMax } };
  if (v.remark.trim().length > L.remarkMax) out.remark = { key: 'max', params: { max: L.remarkMax } };
  const time = valueTime(v.installTime);
  if (!Number.isFinite(time)) out.installTime = { key: 'required' };
  else if (installTimeInFuture(time, now)) out.installTime = { key: 'future' };
  return out;
}

function photoProblems(photos: readonly PickedPhoto[], kept: number): FormProblem | undefined {
  const bad = photos.find((p) => p.problem)?.problem ?? photoCountProblem(kept + photos.length);
  return bad ? { photo: bad } : undefined;
}

/** `current`: the chosen vehicle's device now (undefined while it is being read). */
export function validateCreate(v: CreateFormValues, current: string | null | undefined, now: number): Record<string, FormProblem> {
  const out = commonProblems(v, now);
  if (v.vehicleId === null) out.vehicleId = { key: 'required' };
  else if (current !== undefined && createKind(current, v) === undefined) {
    out.deviceNo = v.action === 'remove' ? { key: 'nothingToRemove' } : v.deviceNo === null ? { key: 'required' } : { key: 'sameDevice' };
  }
  if (v.action === 'bind' && v.deviceNo !== null && !DEVICE_NO.test(v.deviceNo)) out.deviceNo = { key: 'deviceNo' };
  const photos = photoProblems(v.photos, 0);
  if (photos) out.photos = photos;
  return out;
}

export function validateEdit(v: EditFormValues, stored: number, now: number): Record<string, FormProblem> {
  const out = commonProblems(v, now);
  const photos = photoProblems(v.photos, stored - v.removePhotoIds.length);
  if (photos) out.photos = photos;
  return out;
}

const uploads = (photos: readonly PickedPhoto[]): PhotoUpload[] => photos.map((p) => ({ name: p.name, ...(p.type ? { type: p.type } : {}), data: p.data }));

export function toCreate(v: CreateFormValues): InstallationCreate {
  return {
    vehicleId: v.vehicleId!, deviceNo: v.action === 'remove' ? null : v.deviceNo, installer: v.installer.trim(), installTime: valueTime(v.installTime),
    remark: v.remark.trim(), ...(v.photos.length > 0 ? { photos: uploads(v.photos) } : {}),
  };
}

export function toUpdate(id: number, v: EditFormValues): InstallationUpdate {
  return {
    id, installer: v.installer.trim(), installTime: valueTime(v.installTime), remark: v.remark.trim(),
    ...(v.photos.length > 0 ? { addPhotos: uploads(v.photos) } : {}),
    ...(v.removePhotoIds.length > 0 ? { removePhotoIds: v.removePhotoIds } : {}),
  };
}

/** Bytes → base64 in chunks (a 2 MiB photo in one `String.fromCharCode` call would overflow the stack). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

let picked = 0;

/** A picked file read and checked by its bytes (type, size), as the server will check it. */
export async function readPhoto(file: File): Promise<PickedPhoto> {
  // A file past the limit is refused by its size without reading it all.
  const tooBig = file.size > L.photoMaxBytes;
  const bytes = new Uint8Array(await (tooBig ? file.slice(0, 16) : file).arrayBuffer());
  const problem: PhotoProblem | undefined = tooBig ? { code: 'photoSize', name: file.name, max: L.photoMaxBytes } : photoProblem(file.name, bytes, file.type || undefined);
  return { key: `p${++picked}`, name: file.name, type: file.type, size: file.size, data: problem ? '' : bytesToBase64(bytes), ...(problem ? { problem } : {}) };
}
