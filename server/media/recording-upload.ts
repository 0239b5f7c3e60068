/**
 * Recordings pulled to the server (issue 6, JT/T 1078 file upload): upload tasks, the FTP receiver
 * and the terminal messages that drive them.
 *
 *   uploadVideoDirect → task row (requested) + one-time FTP credentials → 0x9206 → terminal 0x0001
 *   terminal logs in to the FTP receiver (uploading) → STOR files → MEDIA_DIR/recordings/<task>/ (default DATA_DIR/media)
 *   terminal 0x1206 (reply serial = the 0x9206's) → done (files received) | failed; credentials revoked
 *   uploadVideoControl → 0x9207 pause / resume / cancel (cancel also revokes: nothing more lands)
 *
 * The FTP receiver binds when the HTTP server is made ready (FTP_PORT; a free port when PORT is 0,
 * as in tests). Credentials live in memory only: tasks left unfinished by a restart are failed on start; in a
 * cluster (shared database) each task names its node, and the leader fails those of nodes gone instead.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  controlTarget,
  UPLOAD_CONTROL_CODE,
  UPLOAD_IDLE_MS,
  type UploadControl,
  type UploadProblem,
  type UploadState,
} from '../../domain/video/recording-upload.ts';
import { mediaDirOf, type Config } from '../config.ts';
import type { Storage } from '../db/repositories.ts';
import type { UploadFile, UploadRequest, UploadTask } from '../db/recording-upload-types.ts';
import { FILE_UPLOAD_MSG, UPLOAD_NETWORK, UPLOAD_RESULT } from '../gateway/jt808/file-upload.ts';
import { RESULT } from '../gateway/jt808/messages.ts';
import type { Jt808Gateway } from '../gateway/server.ts';
import { PRESENCE_FORGET_MS, PRESENCE_STALE_MS } from '../ops/presence.ts';
import { newCredentials, RecordingFtpServer } from './recording-ftp.ts';

/** How long the terminal has to acknowledge 0x9206 / 0x9207 with 0x0001. */
const COMMAND_TIMEOUT_MS = 8_000;
const FINAL: readonly UploadState[] = ['done', 'failed', 'cancelled'];

/** What a request or control ended in: the task as it stands, and a problem when the call failed. */
export interface UploadOutcome {
  readonly task: UploadTask;
  readonly problem?: UploadProblem;
}

export class UploadRefused extends Error {
  constructor(readonly problem: UploadProblem) {
    super(problem);
  }
}

export interface RecordingUploadRuntime {
  readonly ftp: RecordingFtpServer;
  /** Root of the received files (MEDIA_DIR/recordings; default DATA_DIR/media/recordings). */
  readonly dir: string;
  listen(port: number, host: string): Promise<number>;
  request(req: UploadRequest, now: number): Promise<UploadOutcome>;
  control(task: UploadTask, control: UploadControl, now: number): Promise<UploadOutcome>;
  /** Fails unpaused tasks without FTP activity for UPLOAD_IDLE_MS before `now` (runs every minute; tests call it). */
  sweep(now: number): Promise<number[]>;
  /**
   * Scale-out, on the leader: fails the unfinished tasks of nodes gone (not checked in for PRESENCE_STALE_MS
   * before `now`): their credentials died with them. Runs every ORPHAN_SWEEP_MS; tests call it.
   */
  recoverOrphans(now: number): Promise<number[]>;
  /** The bytes of a received file (a stream), or undefined when it is gone from disk. */
  open(file: UploadFile): Promise<{ stream: ReadStream; size: number } | undefined>;
  close(): Promise<void>;
}

export interface RecordingUploadOptions {
  readonly log?: FastifyBaseLogger;
  readonly clock?: () => number;
  /**
   * This node (server/ops/presence.ts): its tasks carry its id. On a shared database a start fails nothing
   * (other nodes' uploads are running) and the leader fails the tasks of nodes gone instead.
   */
  readonly node?: { readonly id: string; readonly shared: boolean };
  /** True while this node runs the once-per-cluster jobs (`app.leadership`). */
  readonly isLeader?: () => boolean;
}

/** How often the leader looks for uploads of nodes gone (a task is failed ≤ PRESENCE_STALE_MS + this after its node's last check-in). */
export const ORPHAN_SWEEP_MS = 15_000;

export function createRecordingUploadRuntime(config: Config, storage: Storage, gateway: Jt808Gateway, options: RecordingUploadOptions = {}): RecordingUploadRuntime {
  const clock = options.clock ?? Date.now;
  const log = options.log;
  const dir = path.join(mediaDirOf(config), 'recordings');
  const taskDir = (taskId: number) => path.join(dir, String(taskId));
  const repo = storage.recordingUploads;

  const ftp = new RecordingFtpServer({
    publicHost: config.ftpPublicHost,
    passivePorts: config.ftpPassivePorts,
    maxFileBytes: config.ftpMaxFileBytes,
    passivePerLogin: config.ftpPassivePerLogin,
    passivePerAddress: config.ftpPassivePerAddress,
    throttle: { windowMs: config.throttleWindowMs, maxFailures: config.throttleMaxFailures, baseMs: config.throttleBaseMs, maxMs: config.throttleMaxMs },
    log,
    events: {
      onLogin(taskId) {
        // The first login moves a requested task on; a paused one stays paused.
        void repo.get(taskId).then((t) => (t?.state === 'requested' ? repo.update(taskId, { state: 'uploading' }, clock(), FINAL) : false)).catch(() => undefined);
      },
      async onFile(taskId, name, size) {
        await repo.addFile(taskId, name, size, clock());
      },
    },
  });

  const finish = async (task: UploadTask, state: UploadState, failReason: UploadProblem | '', result: number | null = null): Promise<UploadTask> => {
    ftp.revoke(task.id);
    const at = clock();
    await repo.update(task.id, { state, failReason, finishedAt: at, ...(result === null ? {} : { result }) }, at, FINAL);
    return (await repo.get(task.id))!;
  };

  let sweeper: NodeJS.Timeout | undefined;
  const node = options.node;
  let orphanSweeper: NodeJS.Timeout | undefined;
  const recoverOrphans = async (now: number): Promise<number[]> => {
    const failed = await repo.failOrphaned('uploadFailed', now, now - PRESENCE_STALE_MS, now - PRESENCE_FORGET_MS);
    if (failed.length > 0) log?.warn({ tasks: failed }, 'recording uploads of a node gone failed (their FTP credentials died with it)');
    return failed;
  };
  if (node?.shared) {
    // Not at start: the unfinished tasks in the shared database are other nodes' running uploads.
    orphanSweeper = setInterval(() => {
      if (options.isLeader?.() ?? true) void recoverOrphans(clock()).catch((err: unknown) => log?.warn({ err: String(err) }, 'recording uploads: recovering a gone node\'s tasks failed'));
    }, ORPHAN_SWEEP_MS);
    orphanSweeper.unref();
  } else {
    // One process on its own database: tasks left running by the previous process lost their credentials with it.
    void repo.failUnfinished('uploadFailed', clock());
  }

  gateway.handleTerminalMessage(FILE_UPLOAD_MSG.UPLOAD_DONE, async ({ vehicleId, message }) => {
    if (message.msgId !== FILE_UPLOAD_MSG.UPLOAD_DONE) return RESULT.BAD_MESSAGE;
    // Matched by the 0x9206's serial (the newest task with it: serials restart with a connection). A late
    // notice for a task already finished (cancelled, stalled) is ignored; only a serial no recent task has
    // falls back to the oldest unfinished task (a terminal that fills the field badly).
    const recent = await repo.page({ userId: null, vehicleId, offset: 0, limit: 100 });
    const bySerial = recent.records.find((t) => t.serial === message.replySerial);
    const task = bySerial ?? (await repo.activeForVehicle(vehicleId))[0];
    if (!task || FINAL.includes(task.state)) return RESULT.OK;
    if (message.result !== UPLOAD_RESULT.OK) {
      await finish(task, 'failed', 'uploadFailed', message.result);
      return RESULT.OK;
    }
    const files = await repo.files([task.id]);
    await finish(task, files.length > 0 ? 'done' : 'failed', files.length > 0 ? '' : 'nothingReceived', message.result);
    return RESULT.OK;
  });

  return {
    ftp,
    dir,
    async listen(port, host) {
      const bound = await ftp.listen(port, host);
      sweeper ??= setInterval(() => void this.sweep(clock()).catch(() => undefined), 60_000);
      sweeper.unref();
      return bound;
    },

    async sweep(now) {
      const failed: number[] = [];
      for (const id of ftp.idleSince(now - UPLOAD_IDLE_MS)) {
        const task = await repo.get(id);
        if (!task || task.state === 'paused') continue;
        if (task.state === 'requested' || task.state === 'uploading') {
          await finish(task, 'failed', 'stalled');
          failed.push(id);
        } else ftp.revoke(id);
      }
      return failed;
    },

    async request(req, now) {
      if (ftp.port === 0) throw new UploadRefused('receiverDown');
      if (!gateway.isReachable(req.vehicleId)) throw new UploadRefused('vehicleOffline');
      const { username, password } = newCredentials();
      const id = await repo.create({ ...req, ftpUser: username, node: node?.id ?? '', createdAt: now });
      ftp.grant({ taskId: id, username, password, dir: taskDir(id) });
      const outcome = await gateway.sendCommand(
        req.vehicleId,
        {
          msgId: FILE_UPLOAD_MSG.UPLOAD_REQUEST,
          host: config.ftpPublicHost,
          port: ftp.port,
          username,
          password,
          path: '/',
          channel: req.channel,
          startTime: req.startTime,
          endTime: req.endTime,
          alarmFlags: req.alarmFlags,
          mediaType: req.mediaType,
          streamType: req.streamType,
          storageType: req.storageType,
          conditions: UPLOAD_NETWORK.WIFI | UPLOAD_NETWORK.LAN | UPLOAD_NETWORK.CELLULAR,
        },
        COMMAND_TIMEOUT_MS,
        (serial) => void repo.update(id, { serial }, now),
      );
      const task = (await repo.get(id))!;
      if (outcome.kind === 'reply' && outcome.result === RESULT.OK) return { task };
      const problem: UploadProblem = outcome.kind === 'offline' ? 'deviceOffline' : outcome.kind === 'timeout' ? 'noResponse' : 'refused';
      return { task: await finish(task, 'failed', problem), problem };
    },

    async control(task, control, now) {
      const target = controlTarget(task.state, control);
      if (!target || task.serial === null) throw new UploadRefused('notApplicable');
      if (control === 'cancel') {
        // Cancelling never depends on the terminal: revoking the credentials stops anything more landing.
        const cancelled = await finish(task, 'cancelled', '');
        const outcome = await gateway.sendCommand(task.vehicleId, { msgId: FILE_UPLOAD_MSG.UPLOAD_CONTROL, replySerial: task.serial, command: UPLOAD_CONTROL_CODE.cancel }, COMMAND_TIMEOUT_MS);
        return outcome.kind === 'reply' && outcome.result === RESULT.OK ? { task: cancelled } : { task: cancelled, problem: outcome.kind === 'offline' ? 'deviceOffline' : outcome.kind === 'timeout' ? 'noResponse' : 'refused' };
      }
      const outcome = await gateway.sendCommand(task.vehicleId, { msgId: FILE_UPLOAD_MSG.UPLOAD_CONTROL, replySerial: task.serial, command: UPLOAD_CONTROL_CODE[control] }, COMMAND_TIMEOUT_MS);
      if (outcome.kind !== 'reply') throw new UploadRefused(outcome.kind === 'offline' ? 'deviceOffline' : 'noResponse');
      if (outcome.result !== RESULT.OK) throw new UploadRefused('refused');
      await repo.update(task.id, { state: target }, now, FINAL);
      const after = (await repo.get(task.id))!;
      return { task: after };
    },

    recoverOrphans,

    async open(file) {
      const full = path.join(taskDir(file.taskId), ...file.name.split('/'));
      if (!full.startsWith(taskDir(file.taskId) + path.sep)) return undefined;
      const s = await stat(full).catch(() => undefined);
      if (!s?.isFile()) return undefined;
      return { stream: createReadStream(full), size: s.size };
    },

    close: () => {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      if (orphanSweeper) clearInterval(orphanSweeper);
      orphanSweeper = undefined;
      return ftp.close();
    },
  };
}
