import { afterEach, describe, expect, it } from 'vitest';
import { MSG, type LocationReport, type Register } from '../gateway/jt808/index.ts';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from './simulator.ts';
import { spawnSimulatorProcess } from './spawn.ts';
import { startTestPeer, type ReceivedMessage, type TestPeer } from './test-peer.ts';

/** 2026-11-20 10:00 China time: most of the fleet is on the road. */
const BASE = Date.UTC(2026, 10, 20, 2, 0, 0);

/** Simulated time runs `speed` times faster than real time, so minutes pass in a test's seconds. */
function fastClock(speed: number): () => number {
  const t0 = Date.now();
  return () => BASE + (Date.now() - t0) * speed;
}

async function until(what: string, done: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const PLATES = ['京A12345', '沪B6789X', '粤B0D123', '川A88888', '鄂AP0853'];
const TERMINALS = Array.from({ length: 20 }, (_, i) => ({ deviceNo: `0130000000${String(i).padStart(2, '0')}`, plate: `${PLATES[i % 5]!.slice(0, 3)}${String(1000 + i)}` }));

let peer: TestPeer | undefined;
let sim: RunningSimulator | undefined;

afterEach(async () => {
  await sim?.stop();
  await peer?.close();
  sim = undefined;
  peer = undefined;
});

async function start(options: Partial<SimulatorOptions>): Promise<{ peer: TestPeer; sim: RunningSimulator }> {
  peer = await startTestPeer();
  // No offline periods by default: these tests count terminals that should all be connected.
  sim = startSimulator({ port: peer.port, terminals: TERMINALS, seed: 5, tickMs: 10, clock: fastClock(60), rates: { neverOnlineShare: 0, offlinePerDay: 0 }, ...options });
  return { peer, sim };
}

function ofType(list: readonly ReceivedMessage[] | undefined, msgId: number): ReceivedMessage[] {
  return (list ?? []).filter((m) => m.message.msgId === msgId);
}

describe('startSimulator against a JT/T 808 platform over TCP', () => {
  it('registers 20 terminals with their plates, authenticates them and sends acknowledged location reports', async () => {
    const { peer, sim } = await start({});
    await until('three live reports from every terminal', () =>
      TERMINALS.every((t) => ofType(peer.received.get(t.deviceNo.replace(/^0+/, '')), MSG.LOCATION).length >= 3),
    );
    for (const t of TERMINALS) {
      const list = peer.received.get(t.deviceNo.replace(/^0+/, ''))!;
      const first = list[0]!.message as Register;
      expect(first.msgId).toBe(MSG.REGISTER);
      expect(first.plate).toBe(t.plate);
      expect(first.terminalId).toBe(t.deviceNo.slice(-7));
      expect(list[1]!.message.msgId).toBe(MSG.AUTHENTICATE);
      const reports = ofType(list, MSG.LOCATION);
      expect(reports.every((r) => r.authenticated)).toBe(true);
      const times = reports.map((r) => (r.message as LocationReport).time);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      for (const r of reports) {
        const l = r.message as LocationReport;
        expect(l.lat).toBeGreaterThan(18);
        expect(l.lat).toBeLessThan(54);
        expect(l.lng).toBeGreaterThan(73);
        expect(l.lng).toBeLessThan(136);
        expect(l.mileage).toBeGreaterThan(0);
        expect(l.satellites).toBeGreaterThan(0);
        expect(l.signal).toBeDefined();
        expect(l.status & 0x2).toBe(0x2);
      }
    }
    expect(peer.badFrames).toBe(0);
    await until('acks for every report', () => sim.stats.acks >= sim.stats.reportsSent);
    expect(sim.stats.authenticated).toBe(20);
    expect(sim.stats.nacks + sim.stats.registerFailures + sim.stats.authFailures).toBe(0);
  });

  it('re-uploads positions recorded in a blind area with 0x0704 type 1 after reconnecting, without registering again', async () => {
    const { peer } = await start({ clock: fastClock(120), rates: { neverOnlineShare: 0, blindPerDrivingDay: 300, offlinePerDay: 0, driftPerDay: 0 } });
    let found: { phone: string; index: number } | undefined;
    await until('a blind-area re-upload of several positions', () => {
      for (const [phone, list] of peer.received) {
        // After a reconnection (a second authentication): positions recorded during the first handshake
        // are re-uploaded too, and a slow machine stretches that handshake over simulated minutes.
        const index = list.findIndex((m, i) => m.message.msgId === MSG.BATCH_LOCATION && m.message.items.length >= 3 && ofType(list.slice(0, i), MSG.AUTHENTICATE).length >= 2);
        if (index >= 0 && list.slice(index).some((m) => m.message.msgId === MSG.LOCATION)) {
          found = { phone, index };
          return true;
        }
      }
      return false;
    }, 25_000);
    const list = peer.received.get(found!.phone)!;
    const batch = list[found!.index]!.message;
    if (batch.msgId !== MSG.BATCH_LOCATION) throw new Error('not a batch');
    expect(batch.type).toBe(1);
    expect(batch.invalid).toBe(0);
    expect(list[found!.index]!.authenticated).toBe(true);
    const times = batch.items.map((l) => l.time);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The gap: after the last live report before the batch, before the first live report after it.
    const before = ofType(list.slice(0, found!.index), MSG.LOCATION).map((m) => (m.message as LocationReport).time);
    const after = ofType(list.slice(found!.index), MSG.LOCATION).map((m) => (m.message as LocationReport).time);
    if (before.length > 0) expect(times[0]).toBeGreaterThan(Math.max(...before));
    expect(times[times.length - 1]).toBeLessThan(Math.min(...after));
    // Reconnected with the stored auth code: no registration once authenticated (a blind area that
    // cuts the very first handshake short does make the terminal register again), several authentications.
    const firstAuth = list.findIndex((m) => m.message.msgId === MSG.AUTHENTICATE);
    expect(ofType(list.slice(0, firstAuth), MSG.REGISTER).length).toBeGreaterThanOrEqual(1);
    expect(ofType(list.slice(firstAuth), MSG.REGISTER)).toHaveLength(0);
    expect(ofType(list.slice(0, found!.index), MSG.AUTHENTICATE).length).toBeGreaterThanOrEqual(2);
  });

  it('closes the connection for an offline period, sends nothing from it, then authenticates again with its code', async () => {
    const { peer, sim } = await start({ clock: fastClock(240), rates: { neverOnlineShare: 0, offlinePerDay: 500, blindPerDrivingDay: 0, driftPerDay: 0 } });
    let phone = '';
    await until('a terminal back from an offline period', () => {
      for (const [ph, list] of peer.received) {
        if (ofType(list, MSG.AUTHENTICATE).length >= 2 && list[list.length - 1]!.message.msgId !== MSG.AUTHENTICATE) {
          phone = ph;
          return true;
        }
      }
      return false;
    }, 25_000);
    const list = peer.received.get(phone)!;
    expect(ofType(list, MSG.REGISTER)).toHaveLength(1);
    // Every position this terminal sent, live or re-uploaded, in time order: one gap of at least 3 minutes.
    const times = list
      .flatMap((m) => (m.message.msgId === MSG.LOCATION ? [m.message] : m.message.msgId === MSG.BATCH_LOCATION ? m.message.items : []))
      .map((l) => l.time)
      .sort((a, b) => a - b);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(3 * 60_000);
    // Closed on purpose, not dropped by the platform.
    expect(sim.stats.drops).toBe(0);
  });

  it('reconnects with backoff and authenticates again when the platform drops every connection', async () => {
    const { peer, sim } = await start({});
    await until('all authenticated', () => sim.stats.authenticated === 20);
    peer.dropAll();
    await until('the drops to be noticed', () => sim.stats.drops >= 20);
    await until('all authenticated again', () => sim.stats.authenticated === 20 && sim.stats.authentications >= 40);
    expect(sim.stats.registrations).toBe(20);
  });

  it('retries a refused registration only after a long backoff and never reports without one', async () => {
    peer = await startTestPeer({ refuse: (phone) => phone.endsWith('0') });
    sim = startSimulator({ port: peer.port, terminals: TERMINALS, seed: 5, tickMs: 10, clock: fastClock(60), rates: { neverOnlineShare: 0, offlinePerDay: 0 } });
    const p = peer;
    // 6 s at 60× is 6 simulated minutes: one 5-minute backoff at most.
    await new Promise((r) => setTimeout(r, 6000));
    const refusedPhones = TERMINALS.map((t) => t.deviceNo.replace(/^0+/, '')).filter((ph) => ph.endsWith('0'));
    expect(refusedPhones).toHaveLength(2);
    for (const phone of refusedPhones) {
      const list = p.received.get(phone) ?? [];
      expect(ofType(list, MSG.REGISTER).length).toBeGreaterThanOrEqual(1);
      expect(ofType(list, MSG.REGISTER).length).toBeLessThanOrEqual(2);
      expect(list.every((m) => m.message.msgId === MSG.REGISTER)).toBe(true);
    }
    expect(sim.stats.registerFailures).toBeGreaterThanOrEqual(2);
    expect(sim.stats.authenticated).toBe(18);
    expect(sim.stats.recordedPending).toBe(0);
  });

  it('never connects the never-online share of the fleet', async () => {
    peer = await startTestPeer();
    sim = startSimulator({ port: peer.port, terminals: 100, seed: 9, tickMs: 10, clock: fastClock(60), rates: { neverOnlineShare: 0.2, offlinePerDay: 0 } });
    const online = 100 - sim.stats.neverOnline;
    expect(sim.stats.neverOnline).toBeGreaterThan(8);
    expect(sim.stats.neverOnline).toBeLessThan(35);
    await until('every other terminal to authenticate', () => sim!.stats.authentications >= online);
    await new Promise((r) => setTimeout(r, 500));
    expect(ofType([...peer.received.values()].flat(), MSG.REGISTER)).toHaveLength(online);
    expect(peer.received.size).toBe(online);
  });

  it('runs the terminals in a child process for benchmarks and stops it cleanly', async () => {
    peer = await startTestPeer();
    const child = spawnSimulatorProcess({ port: peer.port, vehicles: 10, rateHz: 1, seed: 2 });
    try {
      await child.ready;
      expect(child.stats.terminals).toBe(10);
      await until('registrations from the child', () => ofType([...peer!.received.values()].flat(), MSG.AUTHENTICATE).length >= 8, 20_000);
      await until('stats over IPC', () => child.stats.authentications >= 8);
    } finally {
      expect(await child.stop()).toBe(0);
    }
  });

  it('sends the same positions for the same seed and clock, whatever the network timing', async () => {
    async function positions(seed: number): Promise<string[]> {
      const p = await startTestPeer();
      let now = BASE;
      const s = startSimulator({ port: p.port, terminals: TERMINALS, seed, tickMs: 2, clock: () => now });
      for (let i = 0; i < 300; i++) {
        now += 1000;
        await new Promise((r) => setTimeout(r, 8));
      }
      // Whatever the handshakes cost, every terminal that should be up gets there and flushes its recordings.
      await until('every online terminal authenticated', () => s.terminals.every((t) => t.program.link !== 'up' || t.isReady));
      await new Promise((r) => setTimeout(r, 200));
      await s.stop();
      await p.close();
      const out: string[] = [];
      for (const [phone, list] of p.received) {
        for (const { message: m } of list) {
          const items = m.msgId === MSG.LOCATION ? [m] : m.msgId === MSG.BATCH_LOCATION ? m.items : [];
          // Live or re-uploaded, a position is the same report; the last minute may still sit in a blind-area buffer.
          for (const l of items) if (l.time <= now - 60_000) out.push(`${phone} ${l.time} ${l.lng} ${l.lat} ${l.speed} ${l.alarm} ${l.status}`);
        }
      }
      return out.sort();
    }
    const first = await positions(11);
    const second = await positions(11);
    expect(first.length).toBeGreaterThan(200);
    expect(second).toEqual(first);
    expect(await positions(12)).not.toEqual(first);
  });

  it('rejects options a caller got wrong with a clear message', () => {
    expect(() => startSimulator({ terminals: 1, rateHz: 0 })).toThrow(/rateHz/);
    expect(() => startSimulator({ terminals: [{ deviceNo: '13x' }] })).toThrow(/device number "13x"/);
    expect(() => startSimulator({ terminals: 1, parkedIntervalS: 600 })).toThrow(/parkedIntervalS/);
  });
});
