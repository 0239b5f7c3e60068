/**
 * A JT/T 808 terminal over real TCP, built from the codec's encoders: integration tests and the
 * gateway benchmark drive the gateway with it. Requests wait for the platform reply carrying their
 * serial (0x8001 or 0x8100). Like a real terminal it keeps its auth code (by number, for the life of
 * the process) and the packages of its recent sub-packaged messages, which it sends
 * again when the platform asks with 0x8003. With `reassembles`, a sub-packaged platform message (0x8108
 * upgrade packages) is put back together and handled as one command, answered once with its first serial.
 */
import net from 'node:net';
import {
  decodeBody,
  decodeFrame,
  encodeBody,
  encodeFrames,
  encodePacket,
  FrameSplitter,
  MSG,
  Reassembler,
  type Jt808Message,
  type Jt808MessageInput,
  type LocationInput,
  type PlatformResponse,
  type ProtocolEdition,
  type RegisterResponse,
} from './jt808/index.ts';

export type PlatformReply = PlatformResponse | RegisterResponse;

/** A terminal's "flash": auth codes by number, so a new connection authenticates without registering. */
const storedCodes = new Map<string, string>();

/** Sub-packaged messages kept for 0x8003, by first serial (the most recent few). */
const KEPT_MESSAGES = 16;

export class TestTerminal {
  private serial = 0;
  private readonly waiting = new Map<number, (reply: PlatformReply) => void>();
  private readonly splitter = new FrameSplitter();
  /** Every platform reply received, in order. */
  readonly replies: PlatformReply[] = [];
  /** Platform commands received (0x8203, 0x8300, ...), in order; each is answered with 0x0001. */
  readonly commands: { serial: number; message: Jt808Message }[] = [];
  /** Result of the 0x0001 answering a command; null: do not answer (a silent terminal). */
  commandResult: number | null = 0;
  /** 0x8003 requests received, in order. */
  readonly resendRequests: { firstSerial: number; packageIds: number[] }[] = [];
  /** False: ignore 0x8003 (a terminal that keeps no packages). */
  answerResends = true;
  /** Packages of recent sub-packaged messages by first serial (wire frames, index 1 first). */
  private readonly kept = new Map<number, Uint8Array[]>();
  /**
   * True: sub-packaged platform messages are put back together and handled as one command (answered once). False
   * (default): their packages are ignored, as the tests that script the answers to each package expect.
   */
  reassembles = false;
  /** Sub-packaged platform messages put back together (sized for a 60 MiB upgrade package, as the simulator's). */
  private readonly reassembler = new Reassembler({ maxParts: 0xffff, maxMessages: 2, maxBytes: 64 * 1024 * 1024, maxAgeMs: 600_000 });
  readonly closed: Promise<void>;

  private constructor(
    readonly socket: net.Socket,
    readonly phone: string,
    readonly version: ProtocolEdition,
  ) {
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => this.splitter.push(chunk, (frame) => {
      let r = decodeFrame(frame);
      if (r.kind === 'fragment' && this.reassembles) {
        const whole = this.reassembler.push(r.header, r.body);
        if (typeof whole !== 'object') return;
        r = decodeBody(whole.header, whole.body);
      }
      if (r.kind !== 'message') return;
      const m = r.message;
      if (m.msgId === MSG.RESEND_REQUEST) {
        this.resendRequests.push({ firstSerial: m.firstSerial, packageIds: m.packageIds });
        const frames = this.kept.get(m.firstSerial);
        if (this.answerResends && frames) for (const id of m.packageIds) if (frames[id - 1]) this.socket.write(frames[id - 1]!);
        return;
      }
      if (m.msgId !== MSG.PLATFORM_RESPONSE && m.msgId !== MSG.REGISTER_RESPONSE) {
        this.commands.push({ serial: r.header.serial, message: m });
        if (this.commandResult !== null) this.send({ msgId: MSG.TERMINAL_RESPONSE, replySerial: r.header.serial, replyId: m.msgId, result: this.commandResult });
        return;
      }
      this.replies.push(m);
      const resolve = this.waiting.get(m.replySerial);
      if (resolve) {
        this.waiting.delete(m.replySerial);
        resolve(m);
      }
    }));
  }

  static connect(port: number, phone: string, version: ProtocolEdition = 2013, host = '127.0.0.1'): Promise<TestTerminal> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host }, () => {
        socket.off('error', reject);
        resolve(new TestTerminal(socket, phone, version));
      });
      socket.once('error', reject);
    });
  }

  /** Writes one message; answers its serial. */
  send(message: Jt808MessageInput): number {
    this.serial = (this.serial + 1) & 0xffff;
    this.socket.write(encodePacket({ phone: this.phone, serial: this.serial, version: this.version }, message));
    return this.serial;
  }

  /**
   * Writes one message as sub-packages of `packageSize` body bytes with consecutive serials, leaving
   * out the package indices in `drop` (lost on the way; kept for a 0x8003). Answers the first serial.
   */
  sendSplit(message: Jt808MessageInput, packageSize: number, drop: readonly number[] = []): number {
    const first = (this.serial + 1) & 0xffff;
    const frames = encodeFrames({ msgId: message.msgId, phone: this.phone, serial: first, version: this.version }, encodeBody(message, this.version), packageSize);
    this.serial = (first + frames.length - 1) & 0xffff;
    this.kept.set(first, frames);
    if (this.kept.size > KEPT_MESSAGES) this.kept.delete(this.kept.keys().next().value!);
    frames.forEach((f, i) => {
      if (!drop.includes(i + 1)) this.socket.write(f);
    });
    return first;
  }

  /** Waits for the platform's reply naming `serial` (e.g. the first serial of a sub-packaged message). */
  replyTo(serial: number, timeoutMs = 10_000): Promise<PlatformReply> {
    const seen = this.replies.find((r) => r.replySerial === serial);
    if (seen) return Promise.resolve(seen);
    return this.waitReply(serial, timeoutMs, `serial ${serial}`);
  }

  /** Sends and waits for the platform's reply to this message (rejects after `timeoutMs`). */
  request(message: Jt808MessageInput, timeoutMs = 10_000): Promise<PlatformReply> {
    const serial = this.send(message);
    return this.waitReply(serial, timeoutMs, `0x${message.msgId.toString(16)} serial ${serial}`);
  }

  private waitReply(serial: number, timeoutMs: number, what: string): Promise<PlatformReply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(serial);
        reject(new Error(`terminal ${this.phone}: no reply to ${what}`));
      }, timeoutMs);
      this.waiting.set(serial, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  async register(plate = '', plateColor = 0): Promise<RegisterResponse> {
    const reply = await this.request({
      msgId: MSG.REGISTER, province: 31, city: 100, makerId: 'TEST', model: 'T1', terminalId: 'T000001', plateColor, plate,
    });
    if (reply.msgId !== MSG.REGISTER_RESPONSE) throw new Error('register answered with a general response');
    if (reply.result === 0) storedCodes.set(this.codeKey, reply.authCode);
    return reply;
  }

  /** 0x0003 terminal unregistration: the platform voids the auth code (so is the stored one). */
  async unregister(): Promise<PlatformResponse> {
    const reply = (await this.request({ msgId: MSG.LOGOUT })) as PlatformResponse;
    if (reply.result === 0) storedCodes.delete(this.codeKey);
    return reply;
  }

  /** By number only: a server restarted on the same data keeps the code valid; elsewhere it fails and the terminal registers. */
  private get codeKey(): string {
    return this.phone;
  }

  async authenticate(authCode: string): Promise<PlatformResponse> {
    return (await this.request({ msgId: MSG.AUTHENTICATE, authCode, imei: '860000000000001', softwareVersion: '1.0' })) as PlatformResponse;
  }

  /**
   * Authenticate with the stored code (a terminal registered before keeps it), else register first;
   * throws unless it ends authenticated.
   */
  async login(): Promise<void> {
    const stored = storedCodes.get(this.codeKey);
    if (stored !== undefined && (await this.authenticate(stored)).result === 0) return;
    const reg = await this.register();
    if (reg.result !== 0) throw new Error(`terminal ${this.phone}: register result ${reg.result}`);
    const auth = await this.authenticate(reg.authCode);
    if (auth.result !== 0) throw new Error(`terminal ${this.phone}: authentication result ${auth.result}`);
  }

  async report(location: LocationInput, timeoutMs?: number): Promise<PlatformResponse> {
    return (await this.request({ msgId: MSG.LOCATION, ...location }, timeoutMs)) as PlatformResponse;
  }

  /** Writes raw bytes (fuzzing). */
  raw(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  close(): Promise<void> {
    this.socket.end();
    return this.closed;
  }
}

/** A location report input with sensible defaults. */
export function location(over: Partial<LocationInput> & Pick<LocationInput, 'lng' | 'lat' | 'time'>): LocationInput {
  return { alarm: 0, status: 0x3, altitude: 20, speed: 0, direction: 0, ...over };
}
