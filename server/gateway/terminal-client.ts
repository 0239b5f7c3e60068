/**
 * A JT/T 808 terminal over real TCP, built from the codec's encoders: integration tests and the
 * gateway benchmark drive the gateway with it. Requests wait for the platform reply carrying their
 * serial (0x8001 or 0x8100).
 */
import net from 'node:net';
import {
  decodeFrame,
  encodePacket,
  FrameSplitter,
  MSG,
  type Jt808Message,
  type Jt808MessageInput,
  type LocationInput,
  type PlatformResponse,
  type ProtocolEdition,
  type RegisterResponse,
} from './jt808/index.ts';

export type PlatformReply = PlatformResponse | RegisterResponse;

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
  readonly closed: Promise<void>;

  private constructor(
    readonly socket: net.Socket,
    readonly phone: string,
    readonly version: ProtocolEdition,
  ) {
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => this.splitter.push(chunk, (frame) => {
      const r = decodeFrame(frame);
      if (r.kind !== 'message') return;
      const m = r.message;
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

  /** Sends and waits for the platform's reply to this message (rejects after `timeoutMs`). */
  request(message: Jt808MessageInput, timeoutMs = 10_000): Promise<PlatformReply> {
    const serial = this.send(message);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(serial);
        reject(new Error(`terminal ${this.phone}: no reply to 0x${message.msgId.toString(16)} serial ${serial}`));
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
    return reply;
  }

  async authenticate(authCode: string): Promise<PlatformResponse> {
    return (await this.request({ msgId: MSG.AUTHENTICATE, authCode, imei: '860000000000001', softwareVersion: '1.0' })) as PlatformResponse;
  }

  /** Register + authenticate; throws unless both succeed. */
  async login(): Promise<void> {
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
