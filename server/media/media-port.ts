/**
 * The JT/T 1078 media port: terminals connect here after 0x9101 (or 0x9201 on the playback port) and
 * stream packets; each connection gets its own splitter and frame assembler, whole frames go to the
 * sink (the MediaHub, or the PlaybackHub). A malformed packet is counted and dropped (the splitter
 * resyncs on the next 0x30316364), and only its own stream pays for it.
 *
 * Binding (issue 12 §2): the SIM and channel written inside a packet are claims, not identity. A
 * connection is therefore bound, at its FIRST valid packet, to one (SIM, channel) that the platform
 * requested and still awaits (the sink's `awaiting`, or the intercom tap's), and only when it comes
 * from the remote address of that terminal's authenticated JT/T 808 connection (unless the operator
 * turned the check off: carrier NAT). A later packet naming another (SIM, channel) closes the
 * connection; so does sending no valid packet within `firstPacketMs`. Each refusal is counted. So a
 * terminal (or anyone) cannot inject frames into another terminal's stream, nor keep a socket open
 * by naming a channel nobody asked for.
 *
 * SIM length: 2013 terminals put a 6-byte BCD SIM in each packet, 2019 terminals 10 bytes, and the
 * packet does not say which. The first packet's SIM and channel are read both ways and matched
 * against the awaited channels.
 */
import net from 'node:net';
import { normaliseIp } from '../auth/ip.ts';
import type { Config } from '../config.ts';
import { DATA_TYPE, decodeSim, FrameAssembler, MAGIC, PacketSplitter, type Jt1078Packet, type MediaFrame, type SimLength } from './jt1078/index.ts';
import { normalizeSim } from './media-hub.ts';
import type { MediaLink, MediaTapSink } from './talk.ts';

export interface MediaPortStats {
  connections: number;
  /** Packets accepted from bound connections. */
  packets: number;
  badPackets: number;
  /** Connections closed because their first packet named no requested, awaited (SIM, channel). */
  unexpected: number;
  /** Connections closed because they came from another address than the terminal's 808 connection. */
  wrongAddress: number;
  /** Bound connections closed because a later packet named another (SIM, channel). */
  foreign: number;
  /** Connections closed because no valid packet came within the bound time. */
  silent: number;
  /** Bound connections closed because they went quiet for `idleMs` (a dead link whose socket stayed open). */
  idle: number;
}

/** The terminal connection a frame came over: which one, and when it was accepted (epoch ms). */
export interface Upstream {
  readonly id: number;
  readonly openedAt: number;
}

/** Where whole frames go: the live MediaHub, or the playback hub on the playback port. */
export interface FrameSink {
  /**
   * The vehicle whose request for this SIM and channel awaits a connection (the platform sent
   * 0x9101 / 0x9201 and no connection is bound to it yet), else undefined.
   */
  awaiting(sim: string, channel: number, upstream: Upstream): number | undefined;
  /** Binds the connection to the awaited request (called right after `awaiting` answered a vehicle). */
  bind(sim: string, channel: number, upstream: Upstream): void;
  onFrame(frame: MediaFrame, arrival: number, upstream: Upstream): void;
  /** A bound connection closed. */
  upstreamClosed(sim: string, channel: number, upstream: Upstream): void;
  sweep(): void;
}

/** Connections claimed by their first packet instead of going to the hub (the intercom, talk.ts). */
export interface MediaTap {
  /** The vehicle whose intercom / broadcast on this SIM and channel waits for its connection, else undefined. */
  awaiting(sim: string, channel: number): number | undefined;
  claim(sim: string, channel: number, link: MediaLink): MediaTapSink | undefined;
}

export interface MediaPortOptions {
  /**
   * Remote address of the vehicle's authenticated JT/T 808 connection (`gateway.authenticatedAddress`):
   * a media connection is bound only when it comes from that address. 'off' accepts any address
   * (MEDIA_ADDRESS_CHECK=off, for terminals behind a carrier NAT that uses several public addresses).
   */
  readonly terminalAddress: ((vehicleId: number) => string | undefined) | 'off';
  /** A connection that has sent no valid packet this long after it was accepted is closed. @default 5000 */
  readonly firstPacketMs?: number;
  /**
   * A bound connection that sends nothing for this long is closed, so its channel awaits a connection
   * again: a terminal whose link died without a FIN reconnects, and a channel must not stay bound to the
   * dead socket. Live streams only (a paused playback and a broadcast are legitimately quiet); the
   * intercom has its own silence timeout. Undefined: never.
   */
  readonly idleMs?: number;
  readonly now?: () => number;
}

/**
 * The binding rules both media ports share, from the configuration: a connection is bound only from the
 * address of the terminal's authenticated 808 connection unless MEDIA_ADDRESS_CHECK is off, and must send
 * a valid packet within MEDIA_FIRST_PACKET_MS.
 */
export function mediaPortOptions(
  config: Pick<Config, 'mediaAddressCheck' | 'mediaFirstPacketMs'>,
  gateway: { authenticatedAddress(vehicleId: number): string | undefined },
  live = false,
): MediaPortOptions {
  return {
    terminalAddress: config.mediaAddressCheck ? (vehicleId) => gateway.authenticatedAddress(vehicleId) : 'off',
    firstPacketMs: config.mediaFirstPacketMs,
    // A live terminal sends 25 frames a second: 10 s without a byte is a dead link.
    idleMs: live ? LIVE_IDLE_MS : undefined,
  };
}

const LIVE_IDLE_MS = 10_000;

/** The platform's side of a claimed connection: it can write back (intercom audio to the terminal). */
function linkOf(socket: net.Socket, simLength: SimLength): MediaLink {
  return {
    simLength,
    write: (bytes) => socket.write(bytes),
    get queued() {
      return socket.writableLength;
    },
    // A terminal that ignores the end (and the 0x9102 before it) must not keep its socket for ever.
    close: () => {
      socket.end();
      setTimeout(() => socket.destroy(), LINK_CLOSE_GRACE_MS).unref();
    },
  };
}

/** How long a claimed connection may linger after the platform ended it before it is destroyed. */
const LINK_CLOSE_GRACE_MS = 5000;

/** SIM at offset 8 (after magic, V/P/X/CC, M/PT and the serial); the logical channel follows it. */
const SIM_OFFSET = 8;

/** One connection carries one channel (video, audio, maybe transparent data): a small assembler suffices. */
const CONNECTION_ASSEMBLER = { maxBytes: 8 * 1024 * 1024, maxStreams: 8 } as const;

/** What a connection was bound to at its first valid packet. */
type Binding =
  | { readonly kind: 'sink'; readonly sim: string; readonly channel: number }
  | { readonly kind: 'tap'; readonly sim: string; readonly channel: number; readonly sink: MediaTapSink };

interface Connection {
  readonly socket: net.Socket;
  readonly upstream: Upstream;
  readonly assembler: FrameAssembler;
  binding: Binding | null;
  closed: boolean;
}

export class MediaPort {
  readonly stats: MediaPortStats = { connections: 0, packets: 0, badPackets: 0, unexpected: 0, wrongAddress: 0, foreign: 0, silent: 0, idle: 0 };
  private server: net.Server | null = null;
  private readonly connections = new Set<Connection>();
  private sweeper: NodeJS.Timeout | null = null;
  /** Takes the connections of two-way intercoms and broadcasts (talk.ts; set by runtime.ts). */
  tap: MediaTap | null = null;
  private nextUpstream = 0;
  private readonly now: () => number;
  private readonly firstPacketMs: number;

  constructor(private readonly hub: FrameSink, private readonly options: MediaPortOptions) {
    this.now = options.now ?? Date.now;
    this.firstPacketMs = options.firstPacketMs ?? 5000;
  }

  /** The bound port, 0 while not listening. */
  get port(): number {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : 0;
  }

  /** Listens; answers the bound port (0 picks a free one). */
  listen(port: number, host: string): Promise<number> {
    const server = net.createServer((socket) => this.accept(socket));
    this.server = server;
    this.sweeper = setInterval(() => {
      this.hub.sweep();
      const now = this.now();
      for (const c of this.connections) c.assembler.sweep(now);
    }, 1000);
    this.sweeper.unref();
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port));
    });
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const c of this.connections) c.socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.stats.connections++;
    socket.setNoDelay(true);
    const conn: Connection = {
      socket,
      upstream: { id: ++this.nextUpstream, openedAt: this.now() },
      assembler: new FrameAssembler(CONNECTION_ASSEMBLER),
      binding: null,
      closed: false,
    };
    this.connections.add(conn);
    // Bounded: a socket that never names an awaited channel must not hold a file descriptor for ever.
    const silence = setTimeout(() => {
      if (conn.binding || conn.closed) return;
      this.stats.silent++;
      this.drop(conn);
    }, this.firstPacketMs);
    silence.unref();
    let splitter: PacketSplitter | null = null;
    let head: Uint8Array = new Uint8Array(0);
    let simLength: SimLength = 6;
    const onError = () => this.stats.badPackets++;
    const route = (p: Jt1078Packet) => {
      if (conn.closed) return;
      if (!conn.binding && !this.bind(conn, p, simLength)) return;
      const b = conn.binding!;
      if (normalizeSim(p.sim) !== b.sim || p.channel !== b.channel) {
        // A bound connection speaks for one channel only; a packet naming another is an injection attempt.
        this.stats.foreign++;
        this.drop(conn);
        return;
      }
      this.stats.packets++;
      const now = this.now();
      const frame = conn.assembler.push(p, now);
      if (!frame) return;
      if (b.kind === 'tap') b.sink.onFrame(frame, now);
      else this.hub.onFrame(frame, now, conn.upstream);
    };
    socket.on('data', (chunk: Buffer) => {
      if (conn.closed) return;
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (!splitter) {
        head = concat(head, bytes);
        const length = this.simLengthOf(head, conn.upstream);
        if (length === undefined) {
          if (head.length > 64) {
            this.stats.unexpected++;
            this.drop(conn);
          }
          return;
        }
        splitter = new PacketSplitter({ simLength: length });
        simLength = length;
        const first = head;
        head = new Uint8Array(0);
        splitter.push(first, route, onError);
        return;
      }
      splitter.push(bytes, route, onError);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(silence);
      conn.closed = true;
      this.connections.delete(conn);
      const b = conn.binding;
      if (b?.kind === 'tap') b.sink.closed();
      else if (b) this.hub.upstreamClosed(b.sim, b.channel, conn.upstream);
    });
  }

  /** Binds the connection at its first valid packet, or closes it (counted); true when bound. */
  private bind(conn: Connection, p: Jt1078Packet, simLength: SimLength): boolean {
    const sim = normalizeSim(p.sim);
    // Only an audio packet can open an intercom connection: a live stream of the same SIM and channel
    // starting while an intercom waits opens with video and must stay with the hub.
    const tapVehicle = p.dataType === DATA_TYPE.AUDIO ? this.tap?.awaiting(sim, p.channel) : undefined;
    const vehicleId = tapVehicle ?? this.hub.awaiting(sim, p.channel, conn.upstream);
    if (vehicleId === undefined) {
      this.stats.unexpected++;
      this.drop(conn);
      return false;
    }
    if (!this.fromTerminal(conn.socket, vehicleId)) {
      this.stats.wrongAddress++;
      this.drop(conn);
      return false;
    }
    if (tapVehicle !== undefined) {
      const sink = this.tap?.claim(sim, p.channel, linkOf(conn.socket, simLength));
      if (!sink) {
        this.stats.unexpected++;
        this.drop(conn);
        return false;
      }
      conn.binding = { kind: 'tap', sim, channel: p.channel, sink };
    } else {
      this.hub.bind(sim, p.channel, conn.upstream);
      conn.binding = { kind: 'sink', sim, channel: p.channel };
      const idleMs = this.options.idleMs;
      if (idleMs !== undefined) {
        conn.socket.setTimeout(idleMs, () => {
          this.stats.idle++;
          this.drop(conn);
        });
      }
    }
    return true;
  }

  /** Whether the connection comes from the address the vehicle's terminal authenticated from (or the check is off). */
  private fromTerminal(socket: net.Socket, vehicleId: number): boolean {
    const rule = this.options.terminalAddress;
    if (rule === 'off') return true;
    const expected = rule(vehicleId);
    const actual = socket.remoteAddress;
    return expected !== undefined && actual !== undefined && normaliseIp(expected) === normaliseIp(actual);
  }

  /** 6 or 10 when the buffered start names an awaited SIM and channel either way; undefined until it can tell. */
  private simLengthOf(head: Uint8Array, upstream: Upstream): SimLength | undefined {
    if (head.length < SIM_OFFSET + 11) return undefined;
    if (new DataView(head.buffer, head.byteOffset, 4).getUint32(0) !== MAGIC) return undefined;
    for (const length of [6, 10] as const) {
      const s = decodeSim(head, SIM_OFFSET, length);
      const channel = head[SIM_OFFSET + length]!;
      if (s !== undefined && (this.hub.awaiting(s, channel, upstream) !== undefined || this.tap?.awaiting(s, channel) !== undefined)) return length;
    }
    return undefined;
  }

  private drop(conn: Connection): void {
    conn.closed = true;
    conn.socket.destroy();
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice();
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
