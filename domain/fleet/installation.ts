/**
 * Installation records (issue 15, /information/vehicle_installed): the pure rules the server's calls and
 * the console's form share — record kinds, photo checks (type by the file's first bytes, never by its
 * name or declared type; size; count) and the install time, with their words in both languages.
 */
import { INSTALLATION_LIMITS } from './limits.ts';

export const INSTALLATION_KIND_CODES = ['install', 'remove', 'replace'] as const;
export type InstallationKindCode = (typeof INSTALLATION_KIND_CODES)[number];
export const INSTALLATION_KIND_NAMES: Readonly<Record<InstallationKindCode, readonly [zh: string, en: string]>> = {
  install: ['安装', 'Install'], remove: ['拆除', 'Remove'], replace: ['更换', 'Replace'],
};

/** The kind a change makes: none → device installs, device → none removes, device → another replaces; undefined when nothing changes. */
export function installationKind(current: string | null, next: string | null): InstallationKindCode | undefined {
  if (current === next) return undefined;
  if (current === null) return 'install';
  return next === null ? 'remove' : 'replace';
}

export type PhotoMime = 'image/jpeg' | 'image/png';

/** The image type the bytes are (JPEG: FF D8 FF; PNG: 89 50 4E 47 0D 0A 1A 0A), else undefined. */
export function sniffPhoto(bytes: Uint8Array): PhotoMime | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return undefined;
}

export type PhotoProblem =
  | { readonly code: 'photoType'; readonly name: string }
  | { readonly code: 'photoTypeMismatch'; readonly name: string; readonly declared: string; readonly actual: PhotoMime }
  | { readonly code: 'photoSize'; readonly name: string; readonly max: number }
  | { readonly code: 'photoEmpty'; readonly name: string }
  | { readonly code: 'photoCount'; readonly max: number };

/** What is wrong with one photo file: its bytes decide the type; a declared type (the browser's `file.type`) must agree. */
export function photoProblem(name: string, bytes: Uint8Array, declared?: string): PhotoProblem | undefined {
  if (bytes.length === 0) return { code: 'photoEmpty', name };
  if (bytes.length > INSTALLATION_LIMITS.photoMaxBytes) return { code: 'photoSize', name, max: INSTALLATION_LIMITS.photoMaxBytes };
  const actual = sniffPhoto(bytes);
  if (!actual) return { code: 'photoType', name };
  if (declared && declared !== actual) return { code: 'photoTypeMismatch', name, declared, actual };
  return undefined;
}

/** A record's photos after an edit: what it has, less what is removed, plus what is added; above the limit is a problem. */
export function photoCountProblem(count: number): PhotoProblem | undefined {
  return count > INSTALLATION_LIMITS.photosMax ? { code: 'photoCount', max: INSTALLATION_LIMITS.photosMax } : undefined;
}

const MiB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

export function photoProblemText(p: PhotoProblem, lang: 'zh' | 'en'): string {
  const zh = lang === 'zh';
  switch (p.code) {
    case 'photoType': return zh ? `照片「${p.name}」不是 JPEG 或 PNG 图片` : `The photo "${p.name}" is not a JPEG or PNG image`;
    case 'photoTypeMismatch': return zh
      ? `照片「${p.name}」声明为 ${p.declared}，内容却是 ${p.actual}`
      : `The photo "${p.name}" says ${p.declared} but its content is ${p.actual}`;
    case 'photoSize': return zh ? `照片「${p.name}」超过 ${MiB(p.max)}` : `The photo "${p.name}" is larger than ${MiB(p.max)}`;
    case 'photoEmpty': return zh ? `照片「${p.name}」是空文件` : `The photo "${p.name}" is empty`;
    case 'photoCount': return zh ? `每条记录最多 ${p.max} 张照片` : `A record holds at most ${p.max} photos`;
  }
}

/** How far ahead of the server's clock an install time may lie (clock skew of the operator's machine). */
export const INSTALL_TIME_SKEW_MS = 10 * 60_000;

/** Work is recorded after it is done: an install time later than now (plus skew) is refused. */
export function installTimeInFuture(time: number, now: number): boolean {
  return time > now + INSTALL_TIME_SKEW_MS;
}

export function installTimeText(lang: 'zh' | 'en'): string {
  return lang === 'zh' ? '安装时间不能晚于当前时间' : 'The installation time cannot be in the future';
}

/** A change that changes nothing is not a record. */
export function unchangedText(deviceNo: string | null, lang: 'zh' | 'en'): string {
  if (deviceNo === null) return lang === 'zh' ? '该车辆未安装设备，无需拆除' : 'The vehicle has no device to remove';
  return lang === 'zh' ? `该车辆已安装设备「${deviceNo}」` : `The vehicle already has the device "${deviceNo}"`;
}

/** A photo's file name as stored and shown (the name the operator's file had). */
export const PHOTO_NAME_MAX = 100;
