/**
 * decode: position frames of 1k / 10k / 100k vehicles decoded into typed-array columns, same process.
 * Candidates: JSON (baseline: the format=json text, JSON.parse + copy), msgpackr records, protobufjs
 * (generic decoder of position.proto), FlatBuffers (position.fbs, typed-array views) and the hand-written
 * columnar decoder of position.proto (proto/codec.ts). Every candidate carries the same content (a delta
 * frame where every vehicle moved) and fills the same columns.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createPositionColumns, FrameKind, PushDecoder, PushEncoder, type PositionColumns } from '../proto/codec.ts';
import { decodeFlatFrame, encodeFlatFrame } from '../proto/candidates/flatbuffers.ts';
import { decodeMsgpackFrame, encodeMsgpackFrame } from '../proto/candidates/msgpackr.ts';
import { protobufjsDecoder } from '../proto/candidates/protobufjs.ts';
import { advance, syntheticFleet } from '../proto/fixtures.ts';
import { FleetState } from '../src/live/stream/fleet-state.ts';
import { columnsFromJson, type JsonEnvelope, type JsonPositions } from '../proto/json.ts';
import { jsonPositions } from '../proto/json.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

interface Candidate {
  readonly name: string;
  readonly bytes: number;
  /** Decodes the prepared frame into columns; answers the vehicle count (checked against the input). */
  decode(): number;
}

export interface DecodeRow {
  vehicles: number;
  format: string;
  bytes: number;
  msPerFrame: number;
  positionsPerSecond: number;
  ratio: number;
}

/** Runs `fn` until `budgetMs` has passed (after a warm-up) and answers the median ms of one call. */
function measure(fn: () => void, budgetMs: number): number {
  const warm = performance.now();
  while (performance.now() - warm < budgetMs / 4) fn();
  const times: number[] = [];
  const start = performance.now();
  while (performance.now() - start < budgetMs || times.length < 5) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function candidates(n: number): Candidate[] {
  const now = Date.UTC(2026, 10, 22, 8, 0, 0);
  const fleet = syntheticFleet(n, now);
  advance(fleet, 1);
  const serverTime = now + 1000;
  const kind = FrameKind.Delta;
  const encoder = new PushEncoder();
  const json = jsonPositions(kind, serverTime, fleet, fleet.rows, n);
  const proto = encoder.positions(kind, serverTime, fleet, fleet.rows, n);
  const flat = encodeFlatFrame(kind, serverTime, fleet, fleet.rows, n);
  const msgpack = encodeMsgpackFrame(json);
  const protoText = readFileSync(fileURLToPath(new URL('../proto/position.proto', import.meta.url)), 'utf8');
  const pbjs = protobufjsDecoder(protoText);
  const decoder = new PushDecoder();
  let out: PositionColumns = createPositionColumns(n);
  const jsonBytes = new TextEncoder().encode(json).length;
  // The worker's whole job per delta frame: decode, then apply to its fleet columns (id lookup, glide set-up).
  const fleet0 = syntheticFleet(n, now);
  const worker = new FleetState();
  const snapshotMsg = new PushDecoder().decode(encoder.positions(FrameKind.Snapshot, now, fleet0, fleet0.rows, n));
  if (snapshotMsg.body.type === 'positions') worker.applyPositions(snapshotMsg.body.frame, 0);
  const workerDecoder = new PushDecoder();
  let clock = 1000;
  return [
    { name: 'JSON.parse (baseline)', bytes: jsonBytes, decode: () => (out = columnsFromJson((JSON.parse(json) as JsonEnvelope<JsonPositions>).commandBody.data, out)).count },
    { name: 'msgpackr records', bytes: msgpack.length, decode: () => (out = decodeMsgpackFrame(msgpack, out)).count },
    { name: 'protobufjs', bytes: proto.length, decode: () => (out = pbjs(proto, out)).count },
    { name: 'flatbuffers', bytes: flat.length, decode: () => (out = decodeFlatFrame(flat, out)).count },
    {
      name: 'protobuf wire, hand-written columnar', bytes: proto.length,
      decode: () => { const m = decoder.decode(proto); return m.body.type === 'positions' ? m.body.frame.count : -1; },
    },
    {
      name: 'chosen: decode + apply to worker fleet', bytes: proto.length,
      decode: () => {
        const m = workerDecoder.decode(proto);
        if (m.body.type !== 'positions') return -1;
        worker.applyPositions(m.body.frame, (clock += 1000));
        return m.body.frame.count;
      },
    },
  ];
}

export async function measureDecode(quick: boolean): Promise<DecodeRow[]> {
  const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const rows: DecodeRow[] = [];
  for (const n of sizes) {
    const list = candidates(n);
    let baselineMs = NaN;
    for (const c of list) {
      if (c.decode() !== n) throw new Error(`${c.name} decoded the wrong number of vehicles`);
      const ms = measure(() => c.decode(), quick ? 150 : n >= 100_000 ? 2_000 : 800);
      if (Number.isNaN(baselineMs)) baselineMs = ms;
      rows.push({ vehicles: n, format: c.name, bytes: c.bytes, msPerFrame: ms, positionsPerSecond: (n / ms) * 1000, ratio: baselineMs / ms });
    }
  }
  return rows;
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const rows = await measureDecode(quick);
  const records: BenchRecord[] = [];
  for (const r of rows) {
    const base = rows.find((x) => x.vehicles === r.vehicles)!;
    const name = `decode ${r.vehicles / 1000}k ${r.format}`;
    records.push({ name, metric: 'positions/s', value: r.positionsPerSecond, unit: 'pos/s', baseline: base.positionsPerSecond, ratio: r.ratio });
    records.push({ name, metric: 'ms per frame', value: r.msPerFrame, unit: 'ms' });
    records.push({ name, metric: 'frame size', value: r.bytes, unit: 'bytes' });
  }
  return records;
}
