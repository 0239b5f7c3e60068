/**
 * The FTP server terminals upload recordings to after 0x9206 (JT/T 1078 names FTP). Built on ftp-srv.
 *
 * - Every upload task gets its own one-time user name and password (`grant`); nothing else logs in
 *   (no anonymous). A login is chrooted to the task's directory (DATA_DIR/media/recordings/<task>/):
 *   paths are normalised against "/" of that directory, so "../" cannot leave it.
 * - Terminals may store (STOR/APPE), create directories, list and change directory. Reading,
 *   deleting, renaming and chmod are refused: the directory is evidence, not a scratch area.
 * - A file larger than `maxFileBytes` is cut off, deleted and the transfer answered 552.
 * - `revoke` (task finished, cancelled) forgets the credentials and drops the task's connections.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { FileSystem, FtpSrv, type FtpConnection } from 'ftp-srv';

export interface FtpGrant {
  readonly taskId: number;
  readonly username: string;
  readonly password: string;
  /** Absolute directory the task's files land in. */
  readonly dir: string;
}

export interface FtpReceiverEvents {
  /** A terminal logged in with a task's credentials. */
  onLogin(taskId: number): void;
  /** A file was stored completely (`name` relative to the task directory, "/" separated). Awaited before 226. */
  onFile(taskId: number, name: string, size: number): Promise<void>;
}

export interface FtpReceiverOptions {
  /** Address put in PASV answers to clients that are not on this machine (IPv4: PASV carries no names). */
  readonly publicHost: string;
  /** Passive data ports [min, max]; [0, 0] = any free port (tests). */
  readonly passivePorts: readonly [number, number];
  readonly maxFileBytes: number;
  readonly events: FtpReceiverEvents;
  readonly log?: { warn(obj: object, msg: string): void };
}

export interface FtpStats {
  logins: number;
  refusedLogins: number;
  filesStored: number;
  bytesStored: number;
  tooLarge: number;
}

/** A refused file operation; ftp-srv answers it 550 with the message (the package does not export its own error classes at run time). */
class FileSystemError extends Error {
  constructor(message: string, readonly code: number) {
    super(message);
  }
}

/** ftp-srv logs through a bunyan-like object; the server's own log gets warnings only. */
function quietLog(warn?: (obj: object, msg: string) => void) {
  const log = {
    child: () => log,
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    // ftp-srv logs bunyan-style: (fields, message) or (error) alone; name the error either way.
    error: (obj: unknown, msg?: unknown) => warn?.({ err: obj }, `ftp: ${typeof msg === 'string' ? msg : obj instanceof Error ? obj.message : 'error'}`),
    fatal: () => undefined,
  };
  return log;
}

const isLoopback = (ip: string | undefined) => !!ip && (ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.'));

/** A file being stored: counts bytes against the limit, flushes to disk before the transfer is answered. */
class TaskFileWriter extends Writable {
  private fh: FileHandle | undefined;
  private bytes = 0;
  private failed = false;

  constructor(
    private readonly fsPath: string,
    private readonly append: boolean,
    private readonly limit: number,
    private readonly stored: (size: number) => Promise<void>,
    private readonly tooLarge: () => void,
    private readonly touch: () => void,
  ) {
    super();
  }

  override _construct(cb: (err?: Error | null) => void): void {
    const start = this.append ? stat(this.fsPath).then((s) => s.size, () => 0) : Promise.resolve(0);
    start
      .then(async (size) => {
        this.bytes = size;
        this.fh = await open(this.fsPath, this.append ? 'a' : 'w');
      })
      .then(() => cb(), (err: Error) => cb(err));
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.bytes += chunk.length;
    this.touch();
    if (this.bytes > this.limit) {
      this.failed = true;
      this.tooLarge();
      cb(new FileSystemError(`File exceeds ${this.limit} bytes`, 552));
      return;
    }
    this.fh!.write(chunk).then(() => cb(), (err: Error) => cb(err));
  }

  override _final(cb: (err?: Error | null) => void): void {
    const fh = this.fh;
    this.fh = undefined;
    (fh ? fh.close() : Promise.resolve())
      .then(() => this.stored(this.bytes))
      .then(() => cb(), (err: Error) => cb(err));
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    const fh = this.fh;
    this.fh = undefined;
    const removeFile = err !== null || this.failed;
    (fh ? fh.close() : Promise.resolve())
      .catch(() => undefined)
      .then(() => (removeFile ? unlink(this.fsPath).catch(() => undefined) : undefined))
      .then(() => cb(err));
  }
}

/** One task's view of the disk: its directory is "/", and only storing is allowed. */
class TaskFileSystem extends FileSystem {
  constructor(
    connection: FtpConnection,
    root: string,
    private readonly receiver: RecordingFtpServer,
    private readonly taskId: number,
  ) {
    super(connection, { root, cwd: '/' });
  }

  /** Client path → absolute path inside the task directory (or a 550). */
  private inside(name: string): { fsPath: string; clientPath: string } {
    const clientPath = path.posix.normalize(path.posix.isAbsolute(name) ? name : path.posix.join('/', this.cwd, name));
    const fsPath = path.resolve(path.join(this.root, clientPath));
    if (fsPath !== this.root && !fsPath.startsWith(this.root + path.sep)) throw new FileSystemError('Path outside the upload directory', 550);
    return { fsPath, clientPath };
  }

  override write(fileName: string, { append = false }: { append?: boolean; start?: unknown } = {}) {
    if (!this.receiver.isGranted(this.taskId)) throw new FileSystemError('Upload task closed', 550);
    const { fsPath, clientPath } = this.inside(fileName);
    if (fsPath === this.root) throw new FileSystemError('Not a file name', 553);
    mkdirSync(path.dirname(fsPath), { recursive: true });
    const name = path.relative(this.root, fsPath).split(path.sep).join('/');
    const stream = new TaskFileWriter(fsPath, append, this.receiver.maxFileBytes, (size) => this.receiver.stored(this.taskId, name, size), () => this.receiver.stats.tooLarge++, () => this.receiver.touch(this.taskId));
    this.receiver.track(this.taskId, stream);
    // ftp-srv ends a piped upload by emitting 'close' on the stream (its own fs stream ends on it).
    stream.once('close', () => {
      if (!stream.writableEnded && !stream.destroyed) stream.end();
    });
    return { stream, clientPath };
  }

  override mkdir(p: string): Promise<string> {
    this.inside(p);
    return super.mkdir(p) as Promise<string>;
  }

  override read(): Promise<never> {
    return Promise.reject(new FileSystemError('Reading is not allowed', 550));
  }

  override delete(): Promise<never> {
    return Promise.reject(new FileSystemError('Deleting is not allowed', 550));
  }

  override rename(): Promise<never> {
    return Promise.reject(new FileSystemError('Renaming is not allowed', 550));
  }

  override chmod(): Promise<never> {
    return Promise.reject(new FileSystemError('Not allowed', 550));
  }
}

/** Random credentials for one task: a user name the terminal can store in a BYTE-length field. */
export function newCredentials(): { username: string; password: string } {
  return { username: `rec${randomBytes(5).toString('hex')}`, password: randomBytes(12).toString('base64url') };
}

export class RecordingFtpServer {
  readonly stats: FtpStats = { logins: 0, refusedLogins: 0, filesStored: 0, bytesStored: 0, tooLarge: 0 };
  private srv: FtpSrv | undefined;
  private bound = 0;
  private readonly byUser = new Map<string, FtpGrant>();
  private readonly byTask = new Map<number, FtpGrant>();
  /** FTP connection ids per task, to drop them on revoke. */
  private readonly connections = new Map<number, Set<string>>();
  /** Last login, data or file per task (epoch ms): the runtime fails tasks idle for too long. */
  private readonly lastActivity = new Map<number, number>();
  /** Files being written per task: revoke destroys them (a dropped data socket alone would leave them open). */
  private readonly writers = new Map<number, Set<Writable>>();

  constructor(private readonly opts: FtpReceiverOptions) {}

  get maxFileBytes(): number {
    return this.opts.maxFileBytes;
  }

  /** The bound port, 0 while not listening. */
  get port(): number {
    return this.bound;
  }

  async listen(port: number, host: string): Promise<number> {
    // ftp-srv installs SIGTERM/SIGINT/SIGQUIT handlers that exit the process: the server's own shutdown owns those.
    const signals = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;
    const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
    const [pasvMin, pasvMax] = this.opts.passivePorts;
    const srv = new FtpSrv({
      url: `ftp://${host}:${port}`,
      pasv_url: ((ip: string) => (isLoopback(ip) ? '127.0.0.1' : this.opts.publicHost)) as unknown as string,
      pasv_min: pasvMin,
      pasv_max: pasvMax,
      anonymous: false,
      greeting: 'fleet recording upload',
      log: quietLog(this.opts.log ? (o, m) => this.opts.log!.warn(o, m) : undefined),
      timeout: 0,
    });
    for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
    srv.on('login', ({ connection, username, password }, resolve, reject) => {
      const grant = this.byUser.get(username);
      if (!grant || !sameSecret(grant.password, password)) {
        this.stats.refusedLogins++;
        reject(new Error('Login incorrect'));
        return;
      }
      this.stats.logins++;
      this.touch(grant.taskId);
      let ids = this.connections.get(grant.taskId);
      if (!ids) this.connections.set(grant.taskId, (ids = new Set()));
      ids.add(connection.id);
      this.opts.events.onLogin(grant.taskId);
      resolve({ fs: new TaskFileSystem(connection, grant.dir, this, grant.taskId) });
    });
    srv.on('disconnect', ({ id }) => {
      for (const ids of this.connections.values()) ids.delete(id);
    });
    srv.on('client-error', () => undefined);
    await srv.listen();
    this.srv = srv;
    const address = (srv as unknown as { server: { address(): { port: number } } }).server.address();
    this.bound = address.port;
    return this.bound;
  }

  grant(g: FtpGrant): void {
    mkdirSync(g.dir, { recursive: true });
    this.byUser.set(g.username, g);
    this.byTask.set(g.taskId, g);
    this.touch(g.taskId);
  }

  touch(taskId: number): void {
    if (this.byTask.has(taskId)) this.lastActivity.set(taskId, Date.now());
  }

  /** Granted tasks with no activity since `before` (epoch ms). */
  idleSince(before: number): number[] {
    const out: number[] = [];
    for (const [taskId, at] of this.lastActivity) if (at < before) out.push(taskId);
    return out;
  }

  isGranted(taskId: number): boolean {
    return this.byTask.has(taskId);
  }

  /** Forgets the task's credentials and closes its open connections (a transfer in flight is cut off). */
  revoke(taskId: number): void {
    const g = this.byTask.get(taskId);
    if (!g) return;
    this.byTask.delete(taskId);
    this.byUser.delete(g.username);
    this.lastActivity.delete(taskId);
    for (const w of this.writers.get(taskId) ?? []) w.destroy(new FileSystemError('Upload task closed', 550));
    this.writers.delete(taskId);
    const ids = this.connections.get(taskId);
    this.connections.delete(taskId);
    if (ids && this.srv) for (const id of ids) void this.srv.disconnectClient(id).catch(() => undefined);
  }

  /** Called by a task's file system for every file it starts writing. */
  track(taskId: number, writer: Writable): void {
    let set = this.writers.get(taskId);
    if (!set) this.writers.set(taskId, (set = new Set()));
    set.add(writer);
    writer.once('close', () => set.delete(writer));
  }

  /** Called by a task's file system when a file was written completely. */
  async stored(taskId: number, name: string, size: number): Promise<void> {
    // A transfer cut off by revoke (cancel) must not count as a received file; the writer deletes it.
    if (!this.isGranted(taskId)) throw new FileSystemError('Upload task closed', 550);
    this.stats.filesStored++;
    this.stats.bytesStored += size;
    await this.opts.events.onFile(taskId, name, size);
  }

  async close(): Promise<void> {
    const srv = this.srv;
    this.srv = undefined;
    this.bound = 0;
    if (srv) await srv.close();
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
