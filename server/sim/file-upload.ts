/**
 * The simulated terminal's side of JT/T 1078 file upload: on 0x9206 it answers 0x0001, logs in to the
 * platform's FTP server with the credentials it was given (basic-ftp), stores the file of every
 * recording in the requested range (`simRecordingFile`), then reports 0x1206 with the 0x9206's serial.
 * 0x9207 pauses (the transfer stalls mid-file), resumes or cancels (the FTP session is closed and no
 * 0x1206 follows: the platform already counts the task as cancelled).
 *
 * Uplink speed: SIM_UPLOAD.bytesPerSecond (2 MB/s, a good 4G uplink), so a 60 s file (≈ 5 MB) takes
 * ≈ 2.5 s and a pause has something to pause.
 */
import { Readable } from 'node:stream';
import { Client } from 'basic-ftp';
import type { FileUploadControl, FileUploadRequest } from '../gateway/jt808/file-upload.ts';
import { FILE_UPLOAD_MSG, UPLOAD_COMMAND, UPLOAD_RESULT } from '../gateway/jt808/file-upload.ts';
import { RESULT, type Jt808MessageInput } from '../gateway/jt808/index.ts';
import { simRecordingFile, simRecordings, type SimRecording } from './recordings.ts';

export const SIM_UPLOAD = {
  bytesPerSecond: 2 * 1024 * 1024,
  /** Chunk cadence of the throttled uplink. */
  tickMs: 50,
};

/** What the terminal's message switch hands over: its identity and how to answer on its 808 link. */
export interface SimUploadLink {
  readonly deviceNo: string;
  /** Serial of the platform message being handled. */
  readonly serial: number;
  readonly cameras: number;
  reply(result: number): void;
  send(message: Jt808MessageInput): void;
  now(): number;
}

interface Transfer {
  paused: boolean;
  cancelled: boolean;
  client: Client;
  wake: (() => void) | null;
}

/** Uploads in progress by device and 0x9206 serial. */
const transfers = new Map<string, Transfer>();

const CHINA_MS = 8 * 3_600_000;
/** Recording file name as DVRs write it: CH<n>_<start>_<end>.h264, China time. */
export function recordingFileName(r: SimRecording): string {
  const t = (ms: number) => new Date(ms + CHINA_MS).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `CH${r.channel}_${t(r.startTime)}_${t(r.endTime)}.h264`;
}

/** The recordings a 0x9206 selects: range, channel, and the type, stream, storage and alarm conditions. */
export function selectRecordings(deviceNo: string, m: FileUploadRequest, now: number): SimRecording[] {
  return simRecordings(deviceNo, m.channel, m.startTime, m.endTime, now).filter(
    (r) =>
      (m.mediaType === 0 || m.mediaType === 3 || m.mediaType === 2 || r.mediaType === m.mediaType) &&
      (m.streamType === 0 || r.streamType === m.streamType) &&
      (m.storageType === 0 || r.storageType === m.storageType) &&
      (m.alarmFlags === 0n || (r.alarmFlags & m.alarmFlags) !== 0n),
  );
}

/** The bytes as a throttled stream that stalls while paused and fails once cancelled. */
function uplink(bytes: Uint8Array, t: Transfer): Readable {
  let at = 0;
  const perTick = Math.max(1024, Math.round((SIM_UPLOAD.bytesPerSecond * SIM_UPLOAD.tickMs) / 1000));
  let timer: NodeJS.Timeout | undefined;
  return new Readable({
    read() {
      if (timer) return;
      const step = () => {
        timer = undefined;
        if (t.cancelled) {
          this.destroy(new Error('cancelled'));
          return;
        }
        if (t.paused) {
          t.wake = () => {
            t.wake = null;
            step();
          };
          return;
        }
        if (at >= bytes.length) {
          this.push(null);
          return;
        }
        const end = Math.min(bytes.length, at + perTick);
        const more = this.push(bytes.subarray(at, end));
        at = end;
        if (more || at >= bytes.length) timer = setTimeout(step, SIM_UPLOAD.tickMs);
      };
      timer = setTimeout(step, SIM_UPLOAD.tickMs);
    },
    destroy(err, cb) {
      if (timer) clearTimeout(timer);
      cb(err);
    },
  });
}

async function run(link: SimUploadLink, m: FileUploadRequest, key: string, t: Transfer): Promise<void> {
  const recordings = selectRecordings(link.deviceNo, m, link.now());
  let result: number = UPLOAD_RESULT.FAIL;
  try {
    if (recordings.length > 0) {
      await t.client.access({ host: m.host, port: m.port, user: m.username, password: m.password, secure: false });
      if (m.path && m.path !== '/') await t.client.ensureDir(m.path);
      for (const r of recordings) {
        if (t.cancelled) break;
        await t.client.uploadFrom(uplink(simRecordingFile(r), t), recordingFileName(r));
      }
      result = UPLOAD_RESULT.OK;
    }
  } catch {
    result = UPLOAD_RESULT.FAIL;
  } finally {
    t.client.close();
    transfers.delete(key);
  }
  if (!t.cancelled) link.send({ msgId: FILE_UPLOAD_MSG.UPLOAD_DONE, replySerial: link.serial, result });
}

/** Handles 0x9206 and 0x9207 for one simulated terminal (called from its message switch). */
export function handleSimFileUpload(link: SimUploadLink, m: FileUploadRequest | FileUploadControl): void {
  if (m.msgId === FILE_UPLOAD_MSG.UPLOAD_REQUEST) {
    const camera = m.channel >= 1 && m.channel <= link.cameras;
    link.reply(camera ? RESULT.OK : RESULT.FAIL);
    if (!camera) return;
    const key = `${link.deviceNo}:${link.serial}`;
    const t: Transfer = { paused: false, cancelled: false, client: new Client(30_000), wake: null };
    transfers.set(key, t);
    void run(link, m, key, t);
    return;
  }
  const t = transfers.get(`${link.deviceNo}:${m.replySerial}`);
  if (!t) {
    link.reply(RESULT.FAIL);
    return;
  }
  link.reply(RESULT.OK);
  if (m.command === UPLOAD_COMMAND.PAUSE) t.paused = true;
  else if (m.command === UPLOAD_COMMAND.RESUME) {
    t.paused = false;
    t.wake?.();
  } else if (m.command === UPLOAD_COMMAND.CANCEL) {
    t.cancelled = true;
    t.paused = false;
    t.wake?.();
    t.client.close();
  }
}
