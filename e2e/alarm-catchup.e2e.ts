/**
 * Alarm catch-up end to end without a browser: the console's real stream worker (src/live/stream,
 * plain classes) on a Node websocket against a real in-process server whose alarm service raises a
 * burst. The server drops the socket mid-burst (no close handshake, as a network does); the worker
 * reconnects with its cursor and must end up holding every alarm exactly once.
 * Server-side details (races, scope, gap): server/push/alarm-catchup.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ALARM_FLAGS } from '../domain/alarms/sources.ts';
import { ALL_COMPANIES } from '../server/db/scope.ts';
import type { LocationReport } from '../server/gateway/jt808/index.ts';
import { startServer, type TestServer } from '../server/test/harness.ts';
import type { SocketLike } from '../src/live/stream/socket.ts';
import { StreamWorker } from '../src/live/stream/stream-worker.ts';

/** State bits (held while set): raising them one by one gives one new alarm per report. */
const STATE_BITS = ALARM_FLAGS.filter((f) => f.kind === 'state' && f.editions.includes(2013)).map((f) => f.bit);

let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login('admin', 'admin123');
});
afterAll(async () => server?.close());

/** One round per vehicle: the next state bit rises (what the gateway hands the alarm service for a 0x0200). */
async function rounds(vehicleIds: readonly number[], from: number, count: number): Promise<void> {
  for (let r = from; r < from + count; r++) {
    let word = 0;
    for (let b = 0; b <= r; b++) word |= 1 << STATE_BITS[b]!;
    for (const id of vehicleIds) {
      const loc = { msgId: 0x0200, alarm: word >>> 0, status: 0x3, lat: 31.2, lng: 121.4, altitude: 10, speed: 30, direction: 0, time: Math.floor(Date.now() / 1000) * 1000 };
      server.app.alarms.onReport(id, loc as unknown as LocationReport, 2013);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await server.app.alarms.idle();
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(done()).toBe(true);
}

describe('a console\'s stream worker across a dropped socket', () => {
  it('holds every alarm of a burst once, those raised while it was away included', async () => {
    const vehicles = (await server.app.storage.terminals.allVehicles()).slice(0, 20).map((v) => v.vehicleId);
    const worker = new StreamWorker({
      post: () => undefined,
      now: () => Date.now(),
      nextFrame: () => undefined,
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    });
    worker.start({ url: `${server.url.replace(/^http/, 'ws')}/ws-service/websocket`, token: admin, reconnectDelayMs: 300 });
    try {
      await until(() => worker.alarms.cursor !== null);
      const cursor = worker.alarms.cursor!;
      await rounds(vehicles, 0, 2);
      await until(() => worker.alarms.list('alarms').length === 40);
      for (const ws of server.app.websocketServer.clients) ws.terminate(); // the network drops
      await rounds(vehicles, 2, 2); // raised while the console is away (it retries after 300 ms)
      await until(() => server.app.push.stats.connections === 1 && worker.alarms.list('alarms').length >= 80);
      await rounds(vehicles, 4, 2); // live again
      const expected = (await server.app.storage.alarms.since(ALL_COMPANIES, cursor, 1000, 1)).records.map((a) => a.id);
      expect(expected).toHaveLength(120);
      await until(() => worker.alarms.list('alarms').length === 120);
      await new Promise((resolve) => setTimeout(resolve, 200)); // a duplicate would have arrived by now
      expect(worker.alarms.list('alarms').map((a) => a.id).sort((a, b) => a - b)).toEqual(expected);
      // unread counts each alarm once: a duplicate or a re-sent alarm would show here
      expect(worker.alarms.snapshot()).toMatchObject({ unread: 120, missed: 0, counts: { alarms: 120 } });
      expect(server.app.push.stats.alarmsReplayed).toBe(40);
    } finally {
      worker.dispose();
    }
  });
});
