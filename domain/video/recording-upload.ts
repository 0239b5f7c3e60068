/**
 * Recordings pulled to the server (JT/T 1078 0x9206 / 0x1206 / 0x9207, spec "video callback" page
 * /monitor/mediaRemoteExtraction1): the task states, which control applies in which state, the
 * request limits and the messages. Shared by the server, the console and the tests.
 */
import type { Lang } from '../errors/catalogue.ts';

/**
 * requested: 0x9206 sent and acknowledged, the terminal has not logged in to the FTP server yet;
 * uploading: the terminal logged in (files may be arriving); paused: 0x9207 pause acknowledged;
 * done: 0x1206 success; failed: refused, no reply, 0x1206 failure, or nothing received;
 * cancelled: 0x9207 cancel acknowledged.
 */
export type UploadState = 'requested' | 'uploading' | 'paused' | 'done' | 'failed' | 'cancelled';
export const UPLOAD_STATES: readonly UploadState[] = ['requested', 'uploading', 'paused', 'done', 'failed', 'cancelled'];

/** A file received for a task, as the upload calls answer it (server and console share the shape). */
export interface UploadFileView {
  id: number;
  taskId: number;
  name: string;
  size: number;
  receivedAt: number;
}

/** An upload task as the upload calls answer it. */
export interface UploadTaskView {
  id: number;
  vehicleId: number;
  vehiidno: string;
  deviceNo: string;
  channel: number;
  startTime: number;
  endTime: number;
  /** 64-bit alarm flags as a decimal string. */
  alarmFlags: string;
  mediaType: number;
  streamType: number;
  storageType: number;
  state: UploadState;
  failReason: string;
  /** failReason in the caller's language ('' when none). */
  failMessage: string;
  /** The terminal's 0x1206 result (0 success, 1 failure), null until it arrives. */
  result: number | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  files: UploadFileView[];
  receivedBytes: number;
}

export type UploadControl = 'pause' | 'resume' | 'cancel';
/** 0x9207 command codes (JT/T 1078-2016 table 29). */
export const UPLOAD_CONTROL_CODE: Record<UploadControl, number> = { pause: 0, resume: 1, cancel: 2 };

export function isFinal(state: UploadState): boolean {
  return state === 'done' || state === 'failed' || state === 'cancelled';
}

/** The state a control leads to, or null when it does not apply in `state`. */
export function controlTarget(state: UploadState, control: UploadControl): UploadState | null {
  if (control === 'cancel') return isFinal(state) ? null : 'cancelled';
  if (control === 'pause') return state === 'requested' || state === 'uploading' ? 'paused' : null;
  return state === 'paused' ? 'uploading' : null;
}

/** A task that is not paused and sees no FTP login or data for this long is failed (`stalled`). */
export const UPLOAD_IDLE_MS = 30 * 60_000;

/** One request covers at most this much recording time: a day of four cameras is already ≈ 28 GB on a real DVR. */
export const MAX_UPLOAD_SPAN_MS = 24 * 3_600_000;

export type UploadRangeProblem = 'startAfterEnd' | 'future' | 'tooLong';

/** Checks a requested range [start, end] (epoch ms). */
export function checkUploadRange(start: number, end: number, now: number): UploadRangeProblem | null {
  if (!(start < end)) return 'startAfterEnd';
  if (start > now) return 'future';
  if (end - start > MAX_UPLOAD_SPAN_MS) return 'tooLong';
  return null;
}

/** Why a task failed (`failReason`), or why a request or control was refused. */
export type UploadProblem =
  | UploadRangeProblem
  | 'deviceOffline'
  | 'vehicleOffline'
  | 'noResponse'
  | 'refused'
  | 'uploadFailed'
  | 'nothingReceived'
  | 'tooLarge'
  | 'notApplicable'
  | 'receiverDown'
  | 'stalled'
  | 'fileMissing';

const MESSAGES: Record<UploadProblem, readonly [zh: string, en: string]> = {
  startAfterEnd: ['开始时间必须早于结束时间', 'The start time must be before the end time'],
  future: ['开始时间不能晚于当前时间', 'The start time cannot be in the future'],
  tooLong: ['一次最多上传24小时的录像', 'At most 24 hours of recordings can be uploaded at once'],
  deviceOffline: ['设备不在线', 'The device is offline'],
  vehicleOffline: ['车辆不在线', 'The vehicle is not online'],
  noResponse: ['设备无响应，请重试', 'No response from the device, retry'],
  refused: ['设备拒绝了上传请求', 'The device refused the upload request'],
  uploadFailed: ['上传失败', 'Upload failed'],
  nothingReceived: ['上传失败：设备报告完成，但服务器没有收到文件', 'Upload failed: the device reported completion but no file reached the server'],
  tooLarge: ['上传失败：文件超过服务器允许的大小', 'Upload failed: the file exceeds the size the server accepts'],
  notApplicable: ['当前状态下不能执行该操作', 'That action is not possible in the current state'],
  receiverDown: ['上传失败：服务器的FTP接收服务未启动', 'Upload failed: the server\'s FTP receiver is not running'],
  fileMissing: ['文件不存在', 'The file does not exist'],
  stalled: ['上传超时：终端长时间没有传输数据', 'Upload timed out: the terminal sent nothing for too long'],
};

export function uploadMessage(problem: UploadProblem, lang: Lang): string {
  return MESSAGES[problem][lang === 'zh' ? 0 : 1];
}

export function isUploadProblem(key: string): key is UploadProblem {
  return Object.hasOwn(MESSAGES, key);
}
