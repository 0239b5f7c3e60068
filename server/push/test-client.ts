/**
 * A Node websocket client of the push channel for tests and the load runners: connects with a token,
 * decodes every message (binary or JSON) into plain records, and lets a test wait for a condition.
 */
import WebSocket from 'ws';
import { Commands, PushDecoder, type CommandHeaders } from '../../proto/codec.ts';
import type { AlarmHandled, AlarmReplay } from './hub.ts';
import { columnsFromJson, type JsonDirectory, type JsonEnvelope, type JsonPositions } from '../../proto/json.ts';

export interface VehicleRecord {
  vehicleId: number; lng: number; lat: number; speed: number; heading: number; state: number; alarmFlags: number; gpsTime: number; lastContact: number;
}

export type Received =
  | { kind: 'positions'; mutation: string; headers: CommandHeaders; serverTime: number; at: number; vehicles: VehicleRecord[] }
  | { kind: 'directory'; mutation: string; headers: CommandHeaders; vehicles: { vehicleId: number; companyId: number; plate: string; deviceNo: string }[] }
  | { kind: 'alarm'; headers: CommandHeaders; data: unknown }
  | { kind: 'alarmReplay'; headers: CommandHeaders; data: AlarmReplay }
  | { kind: 'alarmHandled'; headers: CommandHeaders; data: AlarmHandled };

export interface PushTestClient {
  readonly ws: WebSocket;
  readonly received: Received[];
  /** Resolves with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  waitFor<T>(find: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): void;
}

/** Opens a push connection; rejects with the HTTP status when the upgrade is refused. */
export function connectPush(baseUrl: string, token: string | undefined, query: Record<string, string> = {}): Promise<PushTestClient> {
  const params = new URLSearchParams(query);
  if (token !== undefined) params.set('token', token);
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws-service/websocket?${params}`;
  const ws = new WebSocket(url);
  const decoder = new PushDecoder();
  const received: Received[] = [];
  ws.on('message', (data: Buffer, isBinary: boolean) => received.push(isBinary ? fromBinary(decoder, data) : fromJson(data.toString('utf8'))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      reject(Object.assign(new Error(`upgrade refused with HTTP ${res.statusCode}`), { status: res.statusCode }));
      ws.terminate();
    });
    ws.once('error', reject);
    ws.once('open', () => resolve({
      ws, received, closed,
      waitFor: (find, timeoutMs = 10_000) => waitFor(find, timeoutMs),
      close: () => ws.close(),
    }));
  });
}

async function waitFor<T>(find: () => T | undefined | false, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = find();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error('timed out waiting for a push message');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function fromBinary(decoder: PushDecoder, data: Buffer): Received {
  const m = decoder.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  if (m.body.type === 'positions') {
    const f = m.body.frame;
    const vehicles: VehicleRecord[] = [];
    for (let i = 0; i < f.count; i++) {
      vehicles.push({
        vehicleId: f.vehicleId[i]!, lng: f.lng[i]!, lat: f.lat[i]!, speed: f.speed[i]!, heading: f.heading[i]!, state: f.state[i]!,
        alarmFlags: f.alarmFlags[i]!, gpsTime: f.gpsTime[i]!, lastContact: f.lastContact[i]!,
      });
    }
    return { kind: 'positions', mutation: m.commandHeaders.mutation, headers: m.commandHeaders, serverTime: f.serverTime, at: Date.now(), vehicles };
  }
  if (m.body.type === 'directory') {
    const d = m.body.directory;
    return {
      kind: 'directory', mutation: m.commandHeaders.mutation, headers: m.commandHeaders,
      vehicles: Array.from(d.vehicleId, (vehicleId, i) => ({ vehicleId, companyId: d.companyId[i]!, plate: d.plates[i]!, deviceNo: d.deviceNos[i]! })),
    };
  }
  const body = (m.body.value as { data: unknown }).data;
  if (m.commandType === Commands.alarmReplay.commandType) return { kind: 'alarmReplay', headers: m.commandHeaders, data: body as AlarmReplay };
  if (m.commandType === Commands.alarmHandled.commandType) return { kind: 'alarmHandled', headers: m.commandHeaders, data: body as AlarmHandled };
  return { kind: 'alarm', headers: m.commandHeaders, data: body };
}

function fromJson(text: string): Received {
  const env = JSON.parse(text) as JsonEnvelope<unknown>;
  const h = env.commandHeaders;
  if (env.commandType === 'positions') {
    const data = env.commandBody.data as JsonPositions;
    const f = columnsFromJson(data);
    const vehicles: VehicleRecord[] = [];
    for (let i = 0; i < f.count; i++) {
      vehicles.push({
        vehicleId: f.vehicleId[i]!, lng: f.lng[i]!, lat: f.lat[i]!, speed: Math.fround(f.speed[i]!), heading: f.heading[i]!, state: f.state[i]!,
        alarmFlags: f.alarmFlags[i]!, gpsTime: f.gpsTime[i]!, lastContact: f.lastContact[i]!,
      });
    }
    return { kind: 'positions', mutation: h.mutation, headers: h, serverTime: data.serverTime, at: Date.now(), vehicles };
  }
  if (env.commandType === 'directory') return { kind: 'directory', mutation: h.mutation, headers: h, vehicles: (env.commandBody.data as JsonDirectory).vehicles };
  if (env.commandType === Commands.alarmReplay.commandType) return { kind: 'alarmReplay', headers: h, data: env.commandBody.data as AlarmReplay };
  if (env.commandType === Commands.alarmHandled.commandType) return { kind: 'alarmHandled', headers: h, data: env.commandBody.data as AlarmHandled };
  return { kind: 'alarm', headers: h, data: env.commandBody.data };
}
