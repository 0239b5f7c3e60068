/**
 * M console connections to the push channel in one process: every connection decodes every frame
 * into columns (like the stream worker), counts bytes, and samples when chosen vehicles' positions
 * were decoded (for latency). Used by bench/fanout.bench.ts as a child process (IPC) and by
 * bench/load/push.ts.
 */
import WebSocket from 'ws';
import { PushDecoder } from '../../proto/codec.ts';
import { wallNow } from './common.ts';

export interface PushClientsOptions {
  /** ws://127.0.0.1:port/ws-service/websocket */
  url: string;
  token: string;
  clients: number;
  /** Sample vehicles whose id is a multiple of this (0: no samples). */
  sampleEvery: number;
}

export interface PushClientsResult {
  clients: number;
  seconds: number;
  bytes: number;
  messages: number;
  positions: number;
  decodeMs: number;
  errors: number;
  closed: number;
  /** [vehicleId, gpsTime seconds, decoded at (wall ms)] of sampled vehicles in delta frames. */
  samples: [number, number, number][];
}

export class PushClients {
  private sockets: WebSocket[] = [];
  private counting = false;
  private started = 0;
  private result: PushClientsResult;
  private snapshots = 0;

  constructor(private readonly opts: PushClientsOptions) {
    this.result = this.empty();
  }

  /** Connects every client and resolves once each has its first snapshot. */
  async connect(): Promise<void> {
    const url = `${this.opts.url}?token=${encodeURIComponent(this.opts.token)}`;
    await Promise.all(Array.from({ length: this.opts.clients }, () => new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url);
      const decoder = new PushDecoder();
      let ready = false;
      ws.on('message', (data: Buffer) => {
        const t0 = performance.now();
        let m;
        try {
          m = decoder.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
        } catch {
          this.result.errors++;
          return;
        }
        const decodedAt = wallNow();
        if (this.counting) {
          this.result.bytes += data.byteLength;
          this.result.messages++;
          this.result.decodeMs += performance.now() - t0;
        }
        if (m.body.type !== 'positions') return;
        const f = m.body.frame;
        if (f.kind === 1) {
          this.snapshots++;
          if (!ready) {
            ready = true;
            resolve();
          }
          return;
        }
        if (!this.counting) return;
        this.result.positions += f.count;
        const every = this.opts.sampleEvery;
        if (every > 0) {
          for (let i = 0; i < f.count; i++) {
            const id = f.vehicleId[i]!;
            if (id % every === 0) this.result.samples.push([id, f.gpsTime[i]! / 1000, decodedAt]);
          }
        }
      });
      ws.on('close', () => {
        if (this.counting) this.result.closed++;
      });
      ws.once('error', reject);
      this.sockets.push(ws);
    })));
  }

  start(): void {
    this.result = this.empty();
    this.started = performance.now();
    this.counting = true;
  }

  stop(): PushClientsResult {
    this.counting = false;
    this.result.seconds = (performance.now() - this.started) / 1000;
    return this.result;
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
    this.sockets = [];
  }

  private empty(): PushClientsResult {
    return { clients: this.opts.clients, seconds: 0, bytes: 0, messages: 0, positions: 0, decodeMs: 0, errors: 0, closed: 0, samples: [] };
  }
}

// Child-process mode (bench/fanout.bench.ts): options in argv as JSON, commands over IPC.
if (process.send && process.argv[2] === '--child') {
  const clients = new PushClients(JSON.parse(process.argv[3]!) as PushClientsOptions);
  process.on('message', (msg: { cmd: string }) => {
    if (msg.cmd === 'start') clients.start();
    else if (msg.cmd === 'stop') {
      process.send!({ type: 'result', result: clients.stop() }, () => {
        clients.close();
        process.exit(0);
      });
    }
  });
  clients.connect().then(() => process.send!({ type: 'ready' }), (err: unknown) => {
    process.send!({ type: 'error', message: String(err) });
    process.exit(1);
  });
}
