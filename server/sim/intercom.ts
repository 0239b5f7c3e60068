/**
 * The intercom of a simulated terminal (JT/T 1078 0x9101 data type 2 two-way intercom, 4 centre
 * broadcast). After accepting, the terminal connects to the media port on its own TCP connection:
 * - talk: its "microphone" sends the committed G.711A tone (fixtures/video/, 440 Hz with a beep each
 *   second) in 40 ms audio packets on the intercom channel;
 * - broadcast: it only listens, and identifies the connection with one empty audio packet (the
 *   platform learns a connection's SIM and channel from its first packet).
 * In both it reads the platform's audio packets on the same connection and counts them per SIM, so
 * tests can assert what the platform sent reached the "speaker". 0x9102 command 4 (talk) or 0
 * (broadcast) on the channel, or losing the 808 session, ends it.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_TYPE, PacketSplitter, Packetizer, type SimLength } from '../media/jt1078/index.ts';
import { LIVE_COMMAND, LIVE_DATA } from '../gateway/jt808/media-signalling.ts';

const TONE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/video/audio-g711a-8k-mono-4s.alaw');
const FRAME_MS = 40;
/** 40 ms of G.711A at 8 kHz. */
const FRAME_BYTES = 320;
/** Received audio kept per SIM for inspection (≈ 8 s); counting goes on past it. */
const KEEP_BYTES = 64 * 1024;

export type IntercomMode = 'talk' | 'broadcast';

export interface IntercomRequest {
  host: string;
  port: number;
  sim: string;
  simLength: SimLength;
  channel: number;
  mode: IntercomMode;
}

/** What one terminal heard from the platform. */
export interface IntercomHeard {
  channel: number;
  mode: IntercomMode;
  packets: number;
  bytes: number;
  /** Payload types seen (6 = G.711A). */
  payloadTypes: number[];
  /** The first KEEP_BYTES of audio, in order. */
  audio: Uint8Array;
  /** Packet serials were consecutive. */
  serialsInOrder: boolean;
  /** Every packet named the intercom channel and this terminal's SIM. */
  addressedRight: boolean;
  /** Timestamps never went backwards. */
  timestampsInOrder: boolean;
}

export interface IntercomStats {
  sessions: number;
  framesSent: number;
  packetsReceived: number;
  bytesReceived: number;
  badPackets: number;
  connectFailures: number;
}

interface Session {
  readonly request: IntercomRequest;
  readonly socket: net.Socket;
  readonly tx: Packetizer;
  timestamp: number;
  at: number;
}

let tone: Uint8Array | undefined;

export class SimIntercom {
  readonly stats: IntercomStats = { sessions: 0, framesSent: 0, packetsReceived: 0, bytesReceived: 0, badPackets: 0, connectFailures: 0 };
  private readonly sessions = new Map<string, Session>();
  private readonly heardBy = new Map<string, IntercomHeard>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Connects to the media port and starts; resolves once connected. A terminal has one intercom. */
  start(request: IntercomRequest): Promise<void> {
    this.stop(request.sim);
    const heard: IntercomHeard = {
      channel: request.channel, mode: request.mode, packets: 0, bytes: 0, payloadTypes: [], audio: new Uint8Array(0),
      serialsInOrder: true, addressedRight: true, timestampsInOrder: true,
    };
    this.heardBy.set(request.sim, heard);
    return new Promise((resolve, reject) => {
      const socket = net.connect(request.port, request.host);
      socket.setNoDelay(true);
      socket.once('error', (err) => {
        if (this.sessions.get(request.sim)?.socket === socket) this.remove(request.sim);
        else {
          this.stats.connectFailures++;
          reject(err);
        }
      });
      socket.once('close', () => {
        if (this.sessions.get(request.sim)?.socket === socket) this.remove(request.sim);
      });
      const splitter = new PacketSplitter({ simLength: request.simLength });
      const kept: Uint8Array[] = [];
      let keptBytes = 0;
      let lastSerial = -1;
      let lastTs = -Infinity;
      socket.on('data', (chunk: Buffer) => {
        splitter.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength), (p) => {
          if (p.dataType !== DATA_TYPE.AUDIO) return;
          this.stats.packetsReceived++;
          this.stats.bytesReceived += p.body.length;
          heard.packets++;
          heard.bytes += p.body.length;
          if (!heard.payloadTypes.includes(p.payloadType)) heard.payloadTypes.push(p.payloadType);
          if (lastSerial >= 0 && p.serial !== ((lastSerial + 1) & 0xffff)) heard.serialsInOrder = false;
          lastSerial = p.serial;
          if (p.channel !== request.channel || p.sim !== request.sim.replace(/^0+(?=.)/, '')) heard.addressedRight = false;
          const ts = p.timestamp ?? 0;
          if (ts < lastTs) heard.timestampsInOrder = false;
          lastTs = ts;
          if (keptBytes < KEEP_BYTES) {
            const part = p.body.subarray(0, KEEP_BYTES - keptBytes);
            kept.push(part.slice());
            keptBytes += part.length;
            heard.audio = concat(kept, keptBytes);
          }
        }, () => this.stats.badPackets++);
      });
      socket.once('connect', () => {
        const s: Session = { request, socket, tx: new Packetizer({ sim: request.sim, channel: request.channel, simLength: request.simLength }), timestamp: this.now(), at: 0 };
        this.sessions.set(request.sim, s);
        this.stats.sessions = this.sessions.size;
        if (request.mode === 'broadcast') socket.write(s.tx.audio(new Uint8Array(0), s.timestamp));
        else this.timer ??= setInterval(() => this.tick(), FRAME_MS);
        resolve();
      });
    });
  }

  /** 0x9102 close, logout or a dropped 808 connection. */
  stop(sim: string): void {
    const s = this.sessions.get(sim);
    if (!s) return;
    s.socket.end();
    this.remove(sim);
  }

  isActive(sim: string): boolean {
    return this.sessions.has(sim);
  }

  /** What the terminal with this SIM heard in its latest intercom or broadcast. */
  heard(sim: string): IntercomHeard | undefined {
    return this.heardBy.get(sim);
  }

  close(): void {
    for (const s of this.sessions.values()) s.socket.destroy();
    this.sessions.clear();
    this.stats.sessions = 0;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private remove(sim: string): void {
    this.sessions.delete(sim);
    this.stats.sessions = this.sessions.size;
    if (![...this.sessions.values()].some((s) => s.request.mode === 'talk') && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private tick(): void {
    const audio = (tone ??= new Uint8Array(readFileSync(TONE_FILE)));
    for (const s of this.sessions.values()) {
      if (s.request.mode !== 'talk' || s.socket.writableLength > 64 * 1024) continue;
      s.timestamp += FRAME_MS;
      s.socket.write(s.tx.audio(audio.subarray(s.at, s.at + FRAME_BYTES), s.timestamp));
      s.at = (s.at + FRAME_BYTES) % (audio.length - (audio.length % FRAME_BYTES));
      this.stats.framesSent++;
    }
  }
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** One intercom per process, like the video streamer: every simulated terminal of this process shares it. */
export const simIntercom = new SimIntercom();

/** Is this 0x9101 an intercom or broadcast request (not live video)? */
export function isIntercomRequest(dataType: number): boolean {
  return dataType === LIVE_DATA.INTERCOM || dataType === LIVE_DATA.BROADCAST;
}

/** The terminal side of 0x9101 type 2 / 4: answers OK, then connects (as real terminals do). */
export function handleIntercomRequest(
  t: { deviceNo: string; simLength: SimLength; reply: (result: number) => void },
  m: { host: string; tcpPort: number; channel: number; dataType: number },
): void {
  t.reply(0);
  void simIntercom
    .start({ host: m.host, port: m.tcpPort, sim: t.deviceNo, simLength: t.simLength, channel: m.channel, mode: m.dataType === LIVE_DATA.INTERCOM ? 'talk' : 'broadcast' })
    .catch(() => undefined);
}

/** 0x9102: command 4 closes the intercom; 0 (close) of all or audio only (close type 0 or 1) on the broadcast's channel ends a broadcast. */
export function handleIntercomControl(deviceNo: string, m: { channel: number; command: number; closeType: number }): void {
  if (!simIntercom.isActive(deviceNo)) return;
  const heard = simIntercom.heard(deviceNo);
  const closesAudio = m.command === LIVE_COMMAND.CLOSE && m.closeType !== 2 && heard?.channel === m.channel && heard.mode === 'broadcast';
  if (m.command === LIVE_COMMAND.CLOSE_INTERCOM || closesAudio) simIntercom.stop(deviceNo);
}
