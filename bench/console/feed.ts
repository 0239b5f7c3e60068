/**
 * The console bench's live source, in the bench's Node process (never on the browser's threads): a
 * websocket server that replays pre-generated push messages at 1 Hz, every vehicle reporting each
 * second (the worst case a fleet reaches: 808 terminals report every 1–30 s).
 *
 *   binary — exactly what server/push sends a console: on connect the full directory (plates) and a
 *            positions snapshot, then one positions delta per second, all encoded by proto/codec.ts's
 *            PushEncoder (the hub's encoder), so the stream worker pays the real decode and apply.
 *   json   — what Traccar's `/api/socket` sends traccar-web: `{"positions":[…]}` text with one record
 *            per vehicle (id, deviceId, fixTime, latitude, longitude, speed, course, attributes). Real
 *            Traccar records also carry protocol, serverTime, deviceTime, altitude, accuracy, network…
 *            (≈ 2× the bytes); the trimmed record favours the baseline.
 *
 * Both sides carry the same vehicles and motion: each circles `orbit` degrees around a start point
 * near one of 14 cities, one eighth of the circle per second, so K = 8 messages per side repeat
 * without a jump. Everything is encoded before the page opens; sending a cached buffer costs the
 * feeder nothing measurable, and its time is not the page's.
 */
import { WebSocketServer, type WebSocket } from 'ws';
import { DirectoryKind, FrameKind, PushEncoder, type DirectoryEntry, type PositionSource } from '../../proto/codec.ts';
import { VehicleState } from '../../domain/vehicle/state.ts';

export const CENTRES = [
  [116.41, 39.9], [121.47, 31.23], [113.26, 23.13], [114.06, 22.54], [104.07, 30.57], [106.55, 29.56], [108.94, 34.34],
  [114.31, 30.59], [120.16, 30.27], [118.8, 32.06], [117.2, 39.13], [113.63, 34.75], [112.94, 28.23], [123.43, 41.8],
] as const;

/** Distinct messages per side; the motion repeats after K seconds. */
const K = 8;
export const TICK_MS = 1000;

export interface FeedShape {
  count: number;
  /** Half-width (degrees) of the square around a city each vehicle starts in. @default 0.5 (a region) */
  spread?: number;
  /** Radius (degrees) of each vehicle's circle. @default 0.02 */
  orbit?: number;
}

interface Prepared {
  /** Directory + snapshot, sent on connect (binary side). */
  opening: Uint8Array[];
  binary: Uint8Array[];
  json: string[];
}

/** A Beijing-style plate per vehicle id (the directory's plates; labels at street zoom show them). */
export function plateOf(id: number): string {
  return `京${String.fromCharCode(65 + (id % 26))}${String(id % 100_000).padStart(5, '0')}`;
}

function key(s: FeedShape): string {
  return `${s.count}:${s.spread ?? 0.5}:${s.orbit ?? 0.02}`;
}

/** Pre-encodes K seconds of one fleet; `json` false skips the Traccar text (1M vehicles: binary only). */
export function prepare(shape: FeedShape, json: boolean): Prepared {
  const n = shape.count;
  const spread = shape.spread ?? 0.5;
  const orbit = shape.orbit ?? 0.02;
  const baseLng = new Float64Array(n);
  const baseLat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = CENTRES[i % CENTRES.length]!;
    baseLng[i] = c[0] + (((i * 7919) % 1000) / 1000 - 0.5) * 2 * spread;
    baseLat[i] = c[1] + (((i * 104729) % 1000) / 1000 - 0.5) * 2 * spread;
  }
  const src = {
    vehicleId: Int32Array.from({ length: n }, (_, i) => i + 1),
    lng: new Float64Array(n), lat: new Float64Array(n), speed: new Float32Array(n).fill(30), heading: new Float32Array(n),
    state: new Uint8Array(n), alarmFlags: new Uint32Array(n), gpsTime: new Float64Array(n), lastContact: new Float64Array(n),
  } satisfies PositionSource;
  for (let i = 0; i < n; i++) {
    src.state[i] = i % 3 === 0 ? VehicleState.Driving : i % 3 === 1 ? VehicleState.Parking : VehicleState.Idling;
    src.alarmFlags[i] = i % 97 === 0 ? 1 : 0;
  }
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const enc = new PushEncoder();
  const binary: Uint8Array[] = [];
  const texts: string[] = [];
  const at = (k: number): void => {
    // serverTime is fixed at encoding; the worker judges offline on the server's clock (serverTime plus
    // the local time since that frame), and lastContact equals serverTime, so every vehicle stays online.
    const now = Date.now();
    for (let i = 0; i < n; i++) {
      const a = i + (k * 2 * Math.PI) / K;
      src.lng[i] = baseLng[i]! + orbit * Math.cos(a);
      src.lat[i] = baseLat[i]! + orbit * Math.sin(a);
      src.heading[i] = (((a * 180) / Math.PI) % 360 + 450) % 360;
      src.gpsTime[i] = now;
      src.lastContact[i] = now;
    }
  };
  let opening: Uint8Array[] = [];
  for (let k = 0; k < K; k++) {
    at(k);
    if (k === 0) {
      const entries: DirectoryEntry[] = Array.from({ length: n }, (_, i) => ({ vehicleId: i + 1, companyId: 1 + (i % 20), plate: plateOf(i + 1), deviceNo: String(13_800_000_000 + i + 1) }));
      opening = [enc.directory(DirectoryKind.Full, entries), enc.positions(FrameKind.Snapshot, Date.now(), src, rows, n)];
    }
    binary.push(enc.positions(FrameKind.Delta, Date.now(), src, rows, n));
    if (json) {
      const fixTime = new Date().toISOString();
      const list = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        list[i] = {
          id: k * n + i, deviceId: i + 1, fixTime, latitude: Math.round(src.lat[i]! * 1e6) / 1e6, longitude: Math.round(src.lng[i]! * 1e6) / 1e6,
          speed: 16.2, course: Math.round(src.heading[i]!), attributes: { motion: src.state[i] === VehicleState.Driving },
        };
      }
      texts.push(JSON.stringify({ positions: list }));
    }
  }
  return { opening, binary, json: texts };
}

/**
 * The websocket server. A console connects to `ws://…/?count=N&mode=binary|json[&spread=…&orbit=…]`
 * (the stream worker appends `&token=…`); the fleet must have been prepared with `feed.prepare`.
 */
export class Feed {
  private readonly cache = new Map<string, Prepared>();
  private readonly wss: WebSocketServer;
  private readonly timers = new Set<ReturnType<typeof setInterval>>();
  readonly ready: Promise<string>;

  constructor() {
    this.wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    this.ready = new Promise((resolve) => this.wss.on('listening', () => resolve(`ws://127.0.0.1:${(this.wss.address() as { port: number }).port}/`)));
    this.wss.on('connection', (ws, req) => this.serve(ws, new URL(req.url ?? '/', 'http://x')));
  }

  prepare(shape: FeedShape, json: boolean): void {
    const k = key(shape);
    const have = this.cache.get(k);
    if (have && (!json || have.json.length > 0)) return;
    this.cache.clear(); // one fleet at a time: 1M vehicles' messages are large
    this.cache.set(k, prepare(shape, json));
  }

  private serve(ws: WebSocket, u: URL): void {
    const shape: FeedShape = {
      count: Number(u.searchParams.get('count')),
      ...(u.searchParams.has('spread') ? { spread: Number(u.searchParams.get('spread')) } : {}),
      ...(u.searchParams.has('orbit') ? { orbit: Number(u.searchParams.get('orbit')) } : {}),
    };
    const p = this.cache.get(key(shape));
    const json = u.searchParams.get('mode') === 'json';
    if (!p || (json && p.json.length === 0)) {
      ws.close(4000, `fleet not prepared: ${key(shape)}`);
      return;
    }
    if (!json) for (const m of p.opening) ws.send(m);
    let k = 0;
    const timer = setInterval(() => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(json ? p.json[k % K]! : p.binary[k % K]!);
      k++;
    }, TICK_MS);
    this.timers.add(timer);
    ws.on('close', () => {
      clearInterval(timer);
      this.timers.delete(timer);
    });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    for (const c of this.wss.clients) c.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
  }
}
