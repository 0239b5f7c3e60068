/**
 * Demo fences (seed/fences.ts): on a seeded server they are listed for the administrator, each bound
 * to its fleet's vehicles, valid by the API's own rules (a PUT of each, unchanged, is accepted), and
 * near a city the simulator drives in (within 40 km of its centre).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineM } from '../../domain/fence/geometry.ts';
import type { FenceGeometry } from '../../domain/fence/types.ts';
import { CITIES } from '../sim/cities.ts';
import { seededSignIns, startServer, type TestServer } from '../test/harness.ts';
import { DEMO_FENCES } from './fences.ts';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await seededSignIns(server)).admin;
}, 60_000);
afterAll(async () => server?.close());

const anchor = (g: FenceGeometry): readonly [number, number] => (g.shape === 'circle' ? g.center : g.shape === 'rect' ? g.sw : g.points[0]!);

describe('demo fences', () => {
  it('are listed, bound to their fleet, pass the API rules, and lie near a simulated city', async () => {
    const page = await server.call<{ records: { id: number; name: string; companyName: string; geometry: FenceGeometry; rule: unknown; remark: string; vehicleCount: number }[] }>(
      'GET', '/service-monitor/fence/page?size=500', { token: admin });
    expect(page.code).toBe(200);
    const seeded = page.data.records.filter((f) => DEMO_FENCES.some((d) => d.name === f.name));
    expect(seeded.length).toBeGreaterThanOrEqual(4);
    for (const f of seeded) {
      const demo = DEMO_FENCES.find((d) => d.name === f.name)!;
      expect(f.companyName).toBe(demo.fleet);
      expect(f.vehicleCount).toBeGreaterThan(0);
      const put = await server.call('PUT', '/service-monitor/fence', { token: admin, body: { id: f.id, name: f.name, geometry: f.geometry, rule: f.rule, remark: f.remark } });
      expect(put.code, f.name).toBe(200);
      const near = Math.min(...CITIES.map((c) => haversineM([c.lng, c.lat], anchor(f.geometry))));
      expect(near, f.name).toBeLessThan(40_000);
    }
  });
});
