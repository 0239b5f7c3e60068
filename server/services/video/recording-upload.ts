/**
 * Recordings pulled to the server (issue 6, page /monitor/mediaRemoteExtraction1 "video callback"):
 * the `/service-command/1078command/*` calls over the upload runtime (server/media/recording-upload.ts).
 * Contract: server/API.md "Recordings pulled to the server".
 */
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { MAX_LOGICAL_CHANNEL } from '../../../domain/video/limits.ts';
import {
  checkUploadRange,
  uploadMessage,
  UPLOAD_STATES,
  type UploadControl,
  type UploadProblem,
  type UploadFileView, type UploadTaskView,
} from '../../../domain/video/recording-upload.ts';
import type { Config } from '../../config.ts';
import type { Storage } from '../../db/repositories.ts';
import type { UploadFile, UploadTask } from '../../db/recording-upload-types.ts';
import type { Jt808Gateway } from '../../gateway/server.ts';
import { auth, narrowedScope, type AuthContext } from '../../http/auth.ts';
import { AppError, fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { EpochMs, Id, PageFields, Strict, type App } from '../../http/route.ts';
import { createRecordingUploadRuntime, UploadRefused, type RecordingUploadRuntime } from '../../media/recording-upload.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Recordings pulled to the server: upload tasks, FTP receiver (tests read its port and directory). */
    recordingUpload: RecordingUploadRuntime;
  }
}

const BASE = '/service-command/1078command';
const PERMISSION = '/monitor/mediaRemoteExtraction1';

/** HTTP-like code of each problem (409 for states and refusals, 504 when the terminal stays silent). */
const PROBLEM_CODE: Record<UploadProblem, number> = {
  startAfterEnd: 400, future: 400, tooLong: 400, deviceOffline: 409, vehicleOffline: 409, noResponse: 504, refused: 409,
  uploadFailed: 409, nothingReceived: 409, tooLarge: 409, notApplicable: 409, receiverDown: 503, fileMissing: 404, stalled: 504,
};
const problemError = (p: UploadProblem) => new AppError(PROBLEM_CODE[p], (lang: Lang) => uploadMessage(p, lang));

const fileView = (f: UploadFile): UploadFileView => ({ id: f.id, taskId: f.taskId, name: f.name, size: f.size, receivedAt: f.receivedAt });

function taskView(t: UploadTask, plate: string, files: readonly UploadFile[], lang: Lang): UploadTaskView {
  const own = files.filter((f) => f.taskId === t.id);
  return {
    id: t.id, vehicleId: t.vehicleId, vehiidno: plate, deviceNo: t.deviceNo, channel: t.channel, startTime: t.startTime, endTime: t.endTime,
    alarmFlags: t.alarmFlags.toString(), mediaType: t.mediaType, streamType: t.streamType, storageType: t.storageType, state: t.state,
    failReason: t.failReason, failMessage: t.failReason ? uploadMessage(t.failReason as UploadProblem, lang) : '', result: t.result,
    createdAt: t.createdAt, updatedAt: t.updatedAt, finishedAt: t.finishedAt, files: own.map(fileView), receivedBytes: own.reduce((n, f) => n + f.size, 0),
  };
}

export interface RecordingUploadDeps {
  readonly config: Config;
  readonly storage: Storage;
  readonly gateway: Jt808Gateway;
}

const UploadBody = Strict({
  vehicleId: Id,
  channel: Type.Integer({ minimum: 1, maximum: MAX_LOGICAL_CHANNEL }),
  startTime: EpochMs,
  endTime: EpochMs,
  mediaType: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  streamType: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  storageType: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  alarmFlags: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
});

const Control = Type.Union([Type.Literal('pause'), Type.Literal('resume'), Type.Literal('cancel')]);
const StateList = Type.Array(Type.Union(UPLOAD_STATES.map((s) => Type.Literal(s))), { maxItems: 6 });

export function recordingUploadRoutes(app: App, deps: RecordingUploadDeps): void {
  const { config, storage, gateway } = deps;
  const runtime = createRecordingUploadRuntime(config, storage, gateway, {
    log: app.log, node: app.presence, isLeader: () => app.leadership.isLeader,
  });
  (app as unknown as FastifyInstance).decorate('recordingUpload', runtime);
  // Bind the FTP receiver with the HTTP server (awaited by listen); PORT 0 (tests) takes a free port.
  app.addHook('onReady', async () => {
    // The FTP receiver is part of the media role (ROLES, issue 20); upload requests elsewhere answer "receiver not running".
    if (!config.roles.has('media')) return;
    const port = config.port === 0 ? 0 : config.ftpPort;
    try {
      const bound = await runtime.listen(port, config.gatewayHost);
      app.log.info(`FTP receiver for recording uploads: ftp://${config.gatewayHost}:${bound} (terminals are told ${config.ftpPublicHost})`);
    } catch (err) {
      // A busy port must not keep the console down: upload requests answer "receiver not running".
      app.log.error({ err }, `FTP receiver could not listen on ${port}`);
    }
  });
  app.addHook('preClose', async () => runtime.close());

  /** A task the caller may see: its own (any task for administrators), on a vehicle in its scope. */
  async function visibleTask(ctx: AuthContext, id: number, companyId?: number): Promise<{ task: UploadTask; plate: string }> {
    const task = await storage.recordingUploads.get(id);
    if (!task || (task.userId !== ctx.user.id && !ctx.isAdmin)) throw fail.notFound();
    const scope = await narrowedScope(storage, ctx, companyId);
    const vehicle = await storage.fleet.getVehicle(scope, task.vehicleId);
    if (!vehicle) throw fail.notFound();
    return { task, plate: vehicle.vehiidno };
  }

  async function views(ctx: AuthContext, tasks: readonly UploadTask[], companyId: number | undefined, lang: Lang): Promise<UploadTaskView[]> {
    const scope = await narrowedScope(storage, ctx, companyId);
    const labels = await storage.terminals.labels(scope, [...new Set(tasks.map((t) => t.vehicleId))]);
    const visible = tasks.filter((t) => labels.has(t.vehicleId));
    const files = await storage.recordingUploads.files(visible.map((t) => t.id));
    return visible.map((t) => taskView(t, labels.get(t.vehicleId)!.vehiidno, files, lang));
  }

  app.post(`${BASE}/uploadVideoDirect`, { config: { permission: PERMISSION }, schema: { body: UploadBody } }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const b = request.body;
    const now = Date.now();
    const range = checkUploadRange(b.startTime, b.endTime, now);
    if (range) throw problemError(range);
    const flags = BigInt(b.alarmFlags ?? '0');
    if (flags > 0xffff_ffff_ffff_ffffn) throw fail.badRequest((l) => (l === 'zh' ? '报警标志超出64位' : 'alarmFlags does not fit 64 bits'));
    const scope = await narrowedScope(storage, ctx, b.companyId);
    const vehicle = await storage.fleet.getVehicle(scope, b.vehicleId);
    if (!vehicle) throw fail.notFound();
    if (vehicle.deviceNo === null) throw fail.conflict((lang) => uploadMessage('deviceOffline', lang));
    try {
      const { task, problem } = await runtime.request({
        userId: ctx.user.id, vehicleId: vehicle.id, deviceNo: vehicle.deviceNo, channel: b.channel, startTime: b.startTime, endTime: b.endTime,
        alarmFlags: flags, mediaType: b.mediaType ?? 0, streamType: b.streamType ?? 0, storageType: b.storageType ?? 0,
      }, now);
      if (problem) throw problemError(problem);
      return ok(taskView(task, vehicle.vehiidno, [], lang), lang);
    } catch (err) {
      if (err instanceof UploadRefused) throw problemError(err.problem);
      throw err;
    }
  });

  const MyQuery = Strict({ ...PageFields, vehicleId: Type.Optional(Id), states: Type.Optional(StateList) });
  app.get(`${BASE}/myFtpVideo`, { config: { permission: PERMISSION }, schema: { querystring: MyQuery } }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const { current, size, vehicleId, states, companyId } = request.query;
    const page = await storage.recordingUploads.page({ userId: ctx.user.id, vehicleId, states, offset: (current - 1) * size, limit: size });
    return ok({ total: page.total, records: await views(ctx, page.records, companyId, lang), current, size }, lang);
  });

  // The console polls this with the ids of the tasks it shows (spec: client-held "upload results").
  app.post(`${BASE}/uploadVideoResult`, {
    config: { permission: PERMISSION },
    schema: { body: Strict({ taskIds: Type.Array(Id, { minItems: 1, maxItems: 100, uniqueItems: true }) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const tasks = (await Promise.all(request.body.taskIds.map((id) => storage.recordingUploads.get(id))))
      .filter((t): t is UploadTask => t !== undefined && (t.userId === ctx.user.id || ctx.isAdmin));
    return ok(await views(ctx, tasks, request.body.companyId, lang), lang);
  });

  app.get(`${BASE}/uploadVideoControl`, {
    config: { permission: PERMISSION },
    schema: { querystring: Strict({ taskId: Id, control: Control }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const { task, plate } = await visibleTask(ctx, request.query.taskId, request.query.companyId);
    try {
      const { task: after, problem } = await runtime.control(task, request.query.control as UploadControl, Date.now());
      const files = await storage.recordingUploads.files([after.id]);
      // A cancel stands even when the terminal did not hear it; the answer says so in msg.
      const answer = ok(taskView(after, plate, files, lang), lang);
      return problem ? { ...answer, msg: uploadMessage(problem, lang) } : answer;
    } catch (err) {
      if (err instanceof UploadRefused) throw problemError(err.problem);
      throw err;
    }
  });

  app.get(`${BASE}/ftpList`, {
    config: { permission: PERMISSION },
    schema: { querystring: Strict({ taskId: Type.Optional(Id) }) },
  }, async (request) => {
    const ctx = auth(request);
    const lang = requestLang(request);
    const { taskId, companyId } = request.query;
    let taskIds: number[];
    if (taskId !== undefined) taskIds = [(await visibleTask(ctx, taskId, companyId)).task.id];
    else {
      const mine = await storage.recordingUploads.page({ userId: ctx.user.id, offset: 0, limit: 500 });
      const scope = await narrowedScope(storage, ctx, companyId);
      const labels = await storage.terminals.labels(scope, [...new Set(mine.records.map((t) => t.vehicleId))]);
      taskIds = mine.records.filter((t) => labels.has(t.vehicleId)).map((t) => t.id);
    }
    return ok((await storage.recordingUploads.files(taskIds)).map(fileView), lang);
  });

  async function download(ctx: AuthContext, fileId: number, companyId: number | undefined, reply: FastifyReply) {
    const file = await storage.recordingUploads.getFile(fileId);
    if (!file) throw problemError('fileMissing');
    await visibleTask(ctx, file.taskId, companyId);
    const opened = await runtime.open(file);
    if (!opened) throw problemError('fileMissing');
    const base = file.name.split('/').pop() ?? 'recording.h264';
    const ascii = base.replace(/[^\x20-\x7e]|"/g, '_');
    return reply
      .header('content-type', 'video/h264')
      .header('content-length', String(opened.size))
      .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`)
      .send(opened.stream);
  }

  app.get(`${BASE}/ftpdownload`, { config: { permission: PERMISSION }, schema: { querystring: Strict({ fileId: Id }) } }, async (request, reply) =>
    download(auth(request), request.query.fileId, request.query.companyId, reply));
  app.post(`${BASE}/ftpdownload`, { config: { permission: PERMISSION }, schema: { body: Strict({ fileId: Id }) } }, async (request, reply) =>
    download(auth(request), request.body.fileId, request.body.companyId, reply));
}
