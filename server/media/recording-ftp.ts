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
 * - Issue 12 §3: passive data ports are capped per login (all connections of one task) and per remote
 *   address, so one login cannot hold every passive port; failed logins are throttled per address
 *   (ftp-guard.ts, the HTTP login's rule); replies name paths as the client sees them ("/" is the task
 *   directory), never the server's; active mode (PORT/EPRT) connects only back to the control
 *   connection's own address, ports ≥ 1024.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { EventEmitter } from 'node:events';
import { FileSystem, FtpSrv, type FtpConnection } from 'ftp-srv';
import { normaliseIp } from '../auth/ip.ts';
import { activeModeRefusal, FailedLoginThrottle, type ThrottleRule } from './ftp-guard.ts';

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
  /** Passive data ports one login (upload task) may hold at once, over all its connections. */
  readonly passivePerLogin: number;
  /** Passive data ports one remote address may hold at once. */
  readonly passivePerAddress: number;
  /** Failed logins per address (the HTTP login throttle's window and count). */
  readonly throttle: ThrottleRule;
  /**
   * A connection not logged in this long is closed (421). ftp-srv has no pre-login bound of its own and
   * runs with its idle timeout off (an idle control connection during a long upload is normal).
   * @default 30_000
   */
  readonly loginWithinMs?: number;
  /** Connections not yet logged in that one remote address may hold; one more is closed at once (421). @default 8 */
  readonly unauthenticatedPerAddress?: number;
  readonly events: FtpReceiverEvents;
  readonly log?: { warn(obj: object, msg: string): void };
}

export interface FtpStats {
  logins: number;
  refusedLogins: number;
  filesStored: number;
  bytesStored: number;
  tooLarge: number;
  /** Logins refused without looking at the password: the address failed too often. */
  throttledLogins: number;
  /** PASV / EPSV refused: the login or the address already holds its share of passive ports. */
  passiveRefused: number;
  /** PORT / EPRT refused: another address than the client's, or a port below 1024. */
  activeRefused: number;
  /** Connections closed for not logging in within `loginWithinMs`. */
  loginTimeouts: number;
  /** Connections closed at once: their address already held `unauthenticatedPerAddress` connections not logged in. */
  unauthenticatedRefused: number;
}

/** What the receiver reaches into ftp-srv's connection for (not in its type declarations). */
interface ConnectionInternals {
  readonly id: string;
  readonly ip: string | undefined;
  readonly commands: {
    parse(message: string): { directive: string; arg: string | null };
    handle(command: string | { directive: string; arg: string | null }): Promise<unknown>;
  };
  readonly connector?: { readonly type: string | false; readonly dataServer?: unknown };
  reply(code: number, message: string): Promise<unknown>;
  close(code?: number, message?: string): Promise<unknown>;
}

/** An error's message as a client may see it: never a server path (Node's fs errors name the absolute path). */
function clientMessage(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof FileSystemError) return err.message;
  if (code === 'ENOENT') return 'No such file or directory';
  if (code === 'ENOTDIR') return 'Not a directory';
  if (code === 'EISDIR') return 'Is a directory';
  if (code === 'EEXIST') return 'Already exists';
  if (code === 'ENOSPC') return 'No space left on the server';
  return 'File operation failed';
}

/** Runs a file-system step, answering any failure with a path-free 550. */
async function safely<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw err instanceof FileSystemError ? err : new FileSystemError(clientMessage(err), 550);
  }
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
      // STOR answers 550 with the error's message: Node's names the absolute path.
      .then(() => cb(), (err: Error) => cb(new FileSystemError(clientMessage(err), 550)));
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
    this.fh!.write(chunk).then(() => cb(), (err: Error) => cb(new FileSystemError(clientMessage(err), 550)));
  }

  override _final(cb: (err?: Error | null) => void): void {
    const fh = this.fh;
    this.fh = undefined;
    (fh ? fh.close() : Promise.resolve())
      .then(() => this.stored(this.bytes))
      .then(() => cb(), (err: Error) => cb(new FileSystemError(clientMessage(err), 550)));
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
    try {
      mkdirSync(path.dirname(fsPath), { recursive: true });
    } catch (err) {
      throw new FileSystemError(clientMessage(err), 550);
    }
    const name = path.relative(this.root, fsPath).split(path.sep).join('/');
    const stream = new TaskFileWriter(fsPath, append, this.receiver.maxFileBytes, (size) => this.receiver.stored(this.taskId, name, size), () => this.receiver.stats.tooLarge++, () => this.receiver.touch(this.taskId));
    this.receiver.track(this.taskId, stream);
    // ftp-srv ends a piped upload by emitting 'close' on the stream (its own fs stream ends on it).
    stream.once('close', () => {
      if (!stream.writableEnded && !stream.destroyed) stream.end();
    });
    return { stream, clientPath };
  }

  /** Answers the client's path: ftp-srv's own answers the server's absolute path (257 "/srv/data/..."). */
  override mkdir(p: string): Promise<string> {
    return safely(async () => {
      const { clientPath } = this.inside(p);
      await super.mkdir(p);
      return clientPath;
    });
  }

  override get(fileName: string) {
    return safely(() => {
      this.inside(fileName);
      return super.get(fileName);
    });
  }

  override list(p = '.') {
    return safely(() => {
      this.inside(p);
      return super.list(p);
    });
  }

  override chdir(p = '.') {
    return safely(() => {
      this.inside(p);
      return super.chdir(p);
    });
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
  readonly stats: FtpStats = { logins: 0, refusedLogins: 0, filesStored: 0, bytesStored: 0, tooLarge: 0, throttledLogins: 0, passiveRefused: 0, activeRefused: 0, loginTimeouts: 0, unauthenticatedRefused: 0 };
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
  /** The task each logged-in connection belongs to. */
  private readonly taskOf = new Map<string, number>();
  /** Live connections by id (ftp-srv's own table is not part of its API). */
  private readonly live = new Map<string, ConnectionInternals>();
  /** Connections whose PASV / EPSV is being set up (the port is not listening yet, but already taken). */
  private readonly passivePending = new Set<string>();
  private readonly throttle: FailedLoginThrottle;

  constructor(private readonly opts: FtpReceiverOptions) {
    this.throttle = new FailedLoginThrottle(opts.throttle);
  }

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
    (srv as unknown as EventEmitter).on('connect', ({ connection }: { connection: ConnectionInternals }) => this.guard(connection));
    srv.on('login', ({ connection, username, password }, resolve, reject) => {
      const ip = connection.ip ?? '';
      const now = Date.now();
      // As the HTTP login: checked before the password, so a blocked address learns nothing from its guesses.
      const wait = this.throttle.wait(ip, now);
      if (wait > 0) {
        this.stats.throttledLogins++;
        reject(new Error(`Too many failed logins from your address, try again in ${Math.ceil(wait / 1000)} s`));
        return;
      }
      const grant = this.byUser.get(username);
      if (!grant || !sameSecret(grant.password, password)) {
        this.stats.refusedLogins++;
        this.throttle.fail(ip, now);
        reject(new Error('Login incorrect'));
        return;
      }
      this.throttle.clear(ip);
      this.stats.logins++;
      this.taskOf.set(connection.id, grant.taskId);
      this.touch(grant.taskId);
      let ids = this.connections.get(grant.taskId);
      if (!ids) this.connections.set(grant.taskId, (ids = new Set()));
      ids.add(connection.id);
      this.opts.events.onLogin(grant.taskId);
      resolve({ fs: new TaskFileSystem(connection, grant.dir, this, grant.taskId) });
    });
    srv.on('disconnect', ({ id }) => {
      for (const ids of this.connections.values()) ids.delete(id);
      this.taskOf.delete(id);
      this.live.delete(id);
      this.passivePending.delete(id);
    });
    srv.on('client-error', () => undefined);
    await srv.listen();
    this.srv = srv;
    const address = (srv as unknown as { server: { address(): { port: number } } }).server.address();
    this.bound = address.port;
    return this.bound;
  }

  /**
   * Checks every command of a connection before ftp-srv runs it: passive ports within the login's and
   * the address's share, active mode only back to the client. ftp-srv has no hook for this, so its
   * per-connection command handler is wrapped.
   */
  private guard(connection: ConnectionInternals): void {
    // Before login: a bounded number per address, each for a bounded time, so that idle control
    // connections cannot pile up (ftp-srv would keep every one forever).
    const ip = normaliseIp(connection.ip ?? '');
    let waiting = 0;
    for (const [id, c] of this.live) if (!this.taskOf.has(id) && normaliseIp(c.ip ?? '') === ip) waiting++;
    this.live.set(connection.id, connection);
    if (waiting >= (this.opts.unauthenticatedPerAddress ?? 8)) {
      this.stats.unauthenticatedRefused++;
      void connection.close(421, 'Too many connections from your address, try again later').catch(() => undefined);
      return;
    }
    const loginTimer = setTimeout(() => {
      if (this.taskOf.has(connection.id) || !this.live.has(connection.id)) return;
      this.stats.loginTimeouts++;
      void connection.close(421, 'Login timed out').catch(() => undefined);
    }, this.opts.loginWithinMs ?? 30_000);
    loginTimer.unref();
    const commands = connection.commands;
    const handle = commands.handle.bind(commands);
    commands.handle = (raw) => {
      const command = typeof raw === 'string' ? commands.parse(raw) : raw;
      const directive = command.directive.trim().toUpperCase();
      if (directive === 'PORT' || directive === 'EPRT') {
        const refusal = activeModeRefusal(directive, command.arg, connection.ip);
        if (refusal) {
          this.stats.activeRefused++;
          return connection.reply(504, refusal);
        }
      }
      if ((directive === 'PASV' || directive === 'EPSV') && this.taskOf.has(connection.id)) {
        const refusal = this.passiveRefusal(connection);
        if (refusal) {
          this.stats.passiveRefused++;
          return connection.reply(425, refusal);
        }
        this.passivePending.add(connection.id);
        return handle(raw).finally(() => this.passivePending.delete(connection.id));
      }
      return handle(raw);
    };
  }

  /** Why this connection may not open another passive port, or undefined. Its own current one is replaced, so it does not count. */
  private passiveRefusal(connection: ConnectionInternals): string | undefined {
    const taskId = this.taskOf.get(connection.id);
    const ip = normaliseIp(connection.ip ?? '');
    let ofTask = 0;
    let ofAddress = 0;
    for (const [id, c] of this.live) {
      if (id === connection.id) continue;
      const holds = this.passivePending.has(id) || (c.connector?.type === 'passive' && !!c.connector.dataServer);
      if (!holds) continue;
      if (this.taskOf.get(id) === taskId) ofTask++;
      if (normaliseIp(c.ip ?? '') === ip) ofAddress++;
    }
    if (ofTask >= this.opts.passivePerLogin) return `Too many passive connections for this login (${this.opts.passivePerLogin})`;
    if (ofAddress >= this.opts.passivePerAddress) return `Too many passive connections from your address (${this.opts.passivePerAddress})`;
    return undefined;
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
