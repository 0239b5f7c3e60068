import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VehicleState } from '../../domain/vehicle/state.ts';
import { location, TestTerminal } from '../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { connectPush, type PushTestClient, type VehicleRecord } from './test-client.ts';

const TERMINALS = 200;
let server: LiveTestServer;
const terminals: TestTerminal[] = [];

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: TERMINALS });
});
afterAll(async () => {
  await Promise.all(terminals.map((t) => t.close()));
  await server.close();
});

describe('terminal → gateway → store → push → console', () => {
  it(`shows every one of ${TERMINALS} reporting terminals to a console with the right position and state`, async () => {
    const token = await server.login('admin', 'admin123');
    const { port } = server.app.server.address() as { port: number };
    const console1: PushTestClient = await connectPush(`http://127.0.0.1:${port}`, token);
    try {
      await console1.waitFor(() => console1.received.some((m) => m.kind === 'positions'));
      const vehicles = (await server.app.storage.terminals.allVehicles()).slice(0, TERMINALS);
      expect(vehicles).toHaveLength(TERMINALS);
      const t = Math.floor(server.clock.now() / 1000) * 1000;
      const expected = new Map<number, { lng: number; lat: number; state: number }>();
      // Ten terminals at a time: each connects, registers, authenticates and reports once.
      for (let i = 0; i < vehicles.length; i += 10) {
        await Promise.all(vehicles.slice(i, i + 10).map(async (v, j) => {
          const k = i + j;
          const terminal = await TestTerminal.connect(server.gatewayPort, v.deviceNo);
          terminals.push(terminal);
          await terminal.login();
          const moving = k % 2 === 0;
          const lng = 116 + k / 1000;
          const lat = 39 + k / 2000;
          // Status 0x3 = ACC on + located: standing with ACC on is idling.
          await terminal.report(location({ lng, lat, time: t, speed: moving ? 50 : 0, direction: 90 }));
          expected.set(v.vehicleId, { lng, lat, state: moving ? VehicleState.Driving : VehicleState.Idling });
        }));
      }
      // Login is contact too (a delta without a position yet); the store runs on a test clock, so step it
      // past the 1 s coalescing interval for the positions to go out.
      server.clock.advance(1000);
      const seen = new Map<number, VehicleRecord>();
      await console1.waitFor(() => {
        for (const m of console1.received) if (m.kind === 'positions' && m.mutation === 'MERGE_POSITIONS') for (const v of m.vehicles) seen.set(v.vehicleId, v);
        // A login's contact-only delta (no position yet) may arrive first: wait for each vehicle's position.
        return [...expected.keys()].every((id) => Number.isFinite(seen.get(id)?.lng));
      }, 20_000);
      for (const [id, want] of expected) {
        const got = seen.get(id)!;
        expect(got.lng).toBeCloseTo(want.lng, 6);
        expect(got.lat).toBeCloseTo(want.lat, 6);
        expect(got.state).toBe(want.state);
        expect(got.lastContact).toBeGreaterThan(0);
      }
    } finally {
      console1.close();
    }
  });
});
