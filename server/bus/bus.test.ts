/**
 * The bus's pieces without a NATS server (issue 20): in-order release behind PubAcks, the gateway's
 * sink (an ack waits for the commit and the stream), the wire codec, applying another node's position,
 * and the ROLES / NATS_URL settings. The real thing end to end: two-node-bus.pgtest.ts.
 */
import { pack, unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { PositionRow } from '../db/repositories.ts';
import type { HistorySink } from '../live/history.ts';
import { LiveStore } from '../live/store.ts';
import { AckTracker } from './acks.ts';
import { decodePositions, encodePositions } from './codec.ts';
import { applyBusPosition, openBus } from './index.ts';
import { StreamedHistory } from './sink.ts';
import type { BusPosition, Following, PositionBus } from './types.ts';

const position: BusPosition = {
  vehicleId: 7, companyId: 3, lng: 121.4737, lat: 31.2304, speed: 42.5, heading: 270, altitude: -12,
  statusFlags: 0x8000_0003, alarmFlags: 0xffff_ffff, gpsTime: 1_790_000_000_000, receivedAt: 1_790_000_000_400,
};

describe('AckTracker', () => {
  it('releases callbacks in order once every item sent before each was acknowledged, acks in any order', () => {
    const t = new AckTracker();
    const ran: string[] = [];
    const a = t.next();
    t.after(() => ran.push('after 1'));
    const b = t.next();
    const c = t.next();
    t.after(() => ran.push('after 3'));
    t.ack(c);
    t.ack(b);
    expect(ran).toEqual([]);
    t.ack(a);
    expect(ran).toEqual(['after 1', 'after 3']);
    t.after(() => ran.push('nothing pending'));
    expect(ran.at(-1)).toBe('nothing pending');
  });

  it('settled: true once drained, false after the bound', async () => {
    const t = new AckTracker();
    const s = t.next();
    const late = t.settled(20);
    expect(await late).toBe(false);
    const drained = t.settled(1000);
    t.ack(s);
    expect(await drained).toBe(true);
  });
});

class FakeBus implements PositionBus {
  readonly nodeId = 'n1';
  readonly stats = { published: 0, persisted: 0, retried: 0, received: 0, skippedOwn: 0 };
  readonly tracker = new AckTracker();
  readonly sent: BusPosition[] = [];
  readonly paths: string[] = [];
  publish(p: BusPosition, companyPath: string): void {
    this.sent.push(p);
    this.paths.push(companyPath);
    this.tracker.next();
  }
  afterPersisted(cb: () => void): void {
    this.tracker.after(cb);
  }
  drain(maxMs: number): Promise<boolean> {
    return this.tracker.settled(maxMs);
  }
  follow(): Promise<Following> {
    return Promise.resolve({ close: () => Promise.resolve() });
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A history writer whose commits the test releases. */
class FakeHistory implements HistorySink {
  readonly stats = { rowsWritten: 0, flushes: 0, failedFlushes: 0, lastFlushMs: 0 };
  rows: PositionRow[] = [];
  private queued = 0;
  private committed = 0;
  private waiters: { seq: number; cb: () => void }[] = [];
  get pending() {
    return this.queued - this.committed;
  }
  enqueue(row: PositionRow) {
    this.rows.push(row);
    this.queued++;
  }
  afterCommit(cb: () => void) {
    if (this.committed >= this.queued && this.waiters.length === 0) cb();
    else this.waiters.push({ seq: this.queued, cb });
  }
  commit() {
    this.committed = this.queued;
    for (const w of this.waiters.splice(0)) w.cb();
  }
  async flush() {
    this.commit();
  }
  async close() {
    this.commit();
  }
}

function row(vehicleId: number, gpsTime: number): PositionRow {
  return { vehicleId, gpsTime, lng: 120, lat: 30, speed: 1, heading: 2, altitude: 3, status: 4, alarm: 5, mileage: null, fuel: null, receivedAt: gpsTime + 1 };
}

describe('StreamedHistory (the gateway sink with a bus)', () => {
  it('publishes each queued row with its company, and an ack waits for both the commit and the PubAck', () => {
    const bus = new FakeBus();
    const history = new FakeHistory();
    const sink = new StreamedHistory(history, bus, (id) => (id === 99 ? undefined : { id: 10 + id, path: `/1/${10 + id}/` }));
    const acks: number[] = [];
    sink.enqueue(row(1, 1000));
    sink.afterCommit(() => acks.push(1));
    sink.enqueue(row(2, 2000));
    sink.afterCommit(() => acks.push(2));
    sink.enqueue(row(99, 3000)); // unknown to the store: stored, not published
    expect(bus.sent.map((p) => [p.vehicleId, p.companyId, p.statusFlags, p.alarmFlags, p.heading])).toEqual([[1, 11, 4, 5, 2], [2, 12, 4, 5, 2]]);
    expect(bus.paths).toEqual(['/1/11/', '/1/12/']); // the company's path makes the subject
    expect(history.rows).toHaveLength(3);
    history.commit();
    expect(acks).toEqual([]); // committed, not yet in the stream
    bus.tracker.ack(2);
    expect(acks).toEqual([]); // the first still missing
    bus.tracker.ack(1);
    expect(acks).toEqual([1, 2]);
  });

  it('the stream first, then the commit: still in order', () => {
    const bus = new FakeBus();
    const history = new FakeHistory();
    const sink = new StreamedHistory(history, bus, () => ({ id: 1, path: '/1/' }));
    const acks: number[] = [];
    sink.enqueue(row(1, 1000));
    sink.afterCommit(() => acks.push(1));
    bus.tracker.ack(1);
    expect(acks).toEqual([]);
    history.commit();
    expect(acks).toEqual([1]);
  });
});

describe('codec', () => {
  it('round-trips a batch of positions with its origin, 32-bit flags and float coordinates intact', () => {
    const second = { ...position, vehicleId: 8, gpsTime: position.gpsTime + 1000, lng: -0.000001 };
    expect(encodePositions('node-a', [position]).length).toBeLessThan(90);
    const bytes = encodePositions('node-a', [position, second]);
    expect(decodePositions(bytes)).toEqual({ origin: 'node-a', positions: [position, second] });
    // A batch costs ≈ one position's fields per position, not one message each.
    expect(encodePositions('node-a', Array.from({ length: 100 }, () => position)).length).toBeLessThan(100 * 70);
  });

  it('refuses what is not a batch of this version, and a batch with one bad position whole', () => {
    expect(() => decodePositions(new TextEncoder().encode('hello'))).toThrow(/not a position message/);
    // Version 1 (one position a message, before batches): refused, not misread.
    expect(() => decodePositions(pack([1, 'node-a', 7, 3, 121, 31, 0, 0, 0, 0, 0, 1, 2]))).toThrow(/not a position message of codec version 2/);
    const bad = unpack(encodePositions('a', [position, position])) as [number, string, unknown[][]];
    bad[2][1]![2] = 'east';
    expect(() => decodePositions(pack(bad))).toThrow(/not 11 numbers/);
    bad[2][1] = [1, 2, 3];
    expect(() => decodePositions(pack(bad))).toThrow(/not 11 numbers/);
  });
});

describe('applyBusPosition (a push node applies another node\'s position)', () => {
  const make = () => {
    let now = position.receivedAt + 50;
    const store = new LiveStore({ clock: () => now });
    store.load([{ vehicleId: 7, companyId: 3, companyPath: '/1/3/' }]);
    return { store, slot: store.slotOf(7), at: (t: number) => (now = t) };
  };

  it('applies a newer position live', () => {
    const { store, slot } = make();
    applyBusPosition(store, position);
    expect([store.columns.lng[slot], store.columns.lat[slot], store.columns.gpsTime[slot], store.columns.statusFlags[slot]]).toEqual([121.4737, 31.2304, position.gpsTime, 0x8000_0003]);
  });

  it('keeps an older position or one dated far ahead of its arrival out of the live view, as contact only', () => {
    const { store, slot, at } = make();
    applyBusPosition(store, position);
    at(position.receivedAt + 10_000);
    applyBusPosition(store, { ...position, gpsTime: position.gpsTime - 60_000, lng: 100 });
    applyBusPosition(store, { ...position, gpsTime: position.receivedAt + 11 * 60_000, lng: 101 });
    expect(store.columns.lng[slot]).toBe(121.4737);
    expect(store.columns.lastContact[slot]).toBe(position.receivedAt + 10_000);
  });
});

describe('ROLES and NATS_URL', () => {
  it('default to every role and no bus (the single-node server); no bus is opened', async () => {
    const c = loadConfig({});
    expect([...c.roles]).toEqual(['gateway', 'api', 'push', 'media']);
    expect(c.natsUrl).toBeUndefined();
    expect(await openBus(c, { warn: () => undefined, error: () => undefined })).toBeUndefined();
  });

  it('parse a comma list and refuse what they do not know, naming it', () => {
    expect([...loadConfig({ ROLES: ' api, Push ' }).roles]).toEqual(['api', 'push']);
    expect(() => loadConfig({ ROLES: 'gateway,web' })).toThrow('ROLES must be a comma list of gateway, api, push, media, got "web"');
    expect(loadConfig({ NATS_URL: 'nats://10.0.0.1:4222, tls://user:pw@nats.example.com:4443' }).natsUrl).toBe('nats://10.0.0.1:4222,tls://user:pw@nats.example.com:4443');
    expect(() => loadConfig({ NATS_URL: 'http://secret@10.0.0.1:4222' })).toThrow('NATS_URL must be a comma list of nats://host:port or tls://host:port URLs, got "http://…@10.0.0.1:4222"');
  });
});
