/**
 * The JT/T 1078 media port: terminals connect here after 0x9101 and stream packets; each connection
 * gets its own splitter, whole frames go to the MediaHub. A malformed packet is counted and dropped
 * (the splitter resyncs on the next 0x30316364), and only its own stream pays for it.
 *
 * SIM length: 2013 terminals put a 6-byte BCD SIM in each packet, 2019 terminals 10 bytes, and the
 * packet does not say which. The first packet's SIM is read both ways and matched against the
 * channels the hub has requested; an unrequested stream is closed.
 */
import net from 'node:net';
import { DATA_TYPE, decodeSim, FrameAssembler, MAGIC, PacketSplitter, type Jt1078Packet, type SimLength } from './jt1078/index.ts';
import type { MediaHub } from './media-hub.ts';
import type { MediaLink, MediaTapSink } from './talk.ts';

export interface MediaPortStats {
  connections: number;
  packets: number;
  badPackets: number;
  /** Connections closed because their first packet named no requested channel. */
  unexpected: number;
}

/** The terminal connection a frame came over: which one, and when it was accepted (epoch ms). */
export interface Upstream {
  readonly id: number;
  readonly openedAt: number;
}

/** Where whole frames go: the live MediaHub, or the playback hub on the playback port. */
export interface FrameSink {
  expects(sim: string): boolean;
  onFrame(frame: Parameters<MediaHub['onFrame']>[0], arrival: number, upstream: Upstream): void;
  /** A connection closed; `channels` are the channels its packets named. */
  upstreamClosed(sim: string, channels: readonly number[], upstream: Upstream): void;
  sweep(): void;
}

/** Connections claimed by their first packet instead of going to the hub (the intercom, talk.ts). */
export interface MediaTap {
  expects(sim: string): boolean;
  claim(sim: string, channel: number, link: MediaLink): MediaTapSink | undefined;
}

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

/** SIM at offset 8 (after magic, V/P/X/CC, M/PT and the serial). */
const SIM_OFFSET = 8;

export class MediaPort {
  readonly stats: MediaPortStats = { connections: 0, packets: 0, badPackets: 0, unexpected: 0 };
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private readonly assembler = new FrameAssembler();
  private sweeper: NodeJS.Timeout | null = null;
  /** Takes the connections of two-way intercoms and broadcasts (talk.ts; set by runtime.ts). */
  tap: MediaTap | null = null;
  private nextUpstream = 0;

  constructor(private readonly hub: FrameSink, private readonly now: () => number = Date.now) {}

  /** Listens; answers the bound port (0 picks a free one). */
  listen(port: number, host: string): Promise<number> {
    const server = net.createServer((socket) => this.accept(socket));
    this.server = server;
    this.sweeper = setInterval(() => {
      this.hub.sweep();
      this.assembler.sweep(this.now());
    }, 1000);
    this.sweeper.unref();
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve((server.address() as net.AddressInfo).port));
    });
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    this.stats.connections++;
    socket.setNoDelay(true);
    const upstream: Upstream = { id: ++this.nextUpstream, openedAt: this.now() };
    let splitter: PacketSplitter | null = null;
    let head: Uint8Array = new Uint8Array(0);
    let sim: string | undefined;
    const channels = new Set<number>();
    const onError = () => this.stats.badPackets++;
    // The intercom (talk.ts) may claim the connection by its first packet: its frames then skip the hub,
    // through an assembler of its own (a video stream of the same channel must not mix with it). Only an
    // audio packet can open an intercom connection: a live stream of the same SIM and channel starting
    // while an intercom waits opens with video and must stay with the hub.
    let tap: { sink: MediaTapSink; assembler: FrameAssembler } | null | undefined;
    let simLength: SimLength = 6;
    const route = (p: Jt1078Packet) => {
      if (tap === undefined) {
        const sink = p.dataType === DATA_TYPE.AUDIO ? this.tap?.claim(p.sim, p.channel, linkOf(socket, simLength)) : undefined;
        tap = sink ? { sink, assembler: new FrameAssembler() } : null;
      }
      if (!tap) {
        this.onPacket(p, (s) => (sim = s), channels, upstream);
        return;
      }
      this.stats.packets++;
      const now = this.now();
      const frame = tap.assembler.push(p, now);
      if (frame) tap.sink.onFrame(frame, now);
    };
    socket.on('data', (chunk: Buffer) => {
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (!splitter) {
        head = concat(head, bytes);
        const length = this.simLengthOf(head);
        if (length === undefined) {
          if (head.length > 64) this.refuse(socket);
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
      this.sockets.delete(socket);
      if (tap) tap.sink.closed();
      else if (sim !== undefined) {
        this.assembler.close(sim);
        this.hub.upstreamClosed(sim, [...channels], upstream);
      }
    });
  }

  private onPacket(packet: Parameters<FrameAssembler['push']>[0], seen: (sim: string) => void, channels: Set<number>, upstream: Upstream): void {
    this.stats.packets++;
    seen(packet.sim);
    channels.add(packet.channel);
    const now = this.now();
    const frame = this.assembler.push(packet, now);
    if (frame) this.hub.onFrame(frame, now, upstream);
  }

  /** 6 or 10 when the buffered start names a requested SIM either way; undefined until it can tell. */
  private simLengthOf(head: Uint8Array): SimLength | undefined {
    if (head.length < SIM_OFFSET + 10) return undefined;
    if (new DataView(head.buffer, head.byteOffset, 4).getUint32(0) !== MAGIC) return undefined;
    for (const length of [6, 10] as const) {
      const s = decodeSim(head, SIM_OFFSET, length);
      if (s !== undefined && (this.hub.expects(s) || this.tap?.expects(s))) return length;
    }
    return undefined;
  }

  private refuse(socket: net.Socket): void {
    this.stats.unexpected++;
    socket.destroy();
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice();
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
