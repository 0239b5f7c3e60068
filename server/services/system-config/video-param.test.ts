/**
 * The system parameter `video.dailyLimit` (issue 19) holds in the live-video service at once: changed over
 * the parameter API while the server runs, the next connection is admitted or refused by the new value,
 * without a restart.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ParamKeys } from '../../../domain/system-config/params.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { VideoViewer } from '../../test/video-viewer.ts';

let fleet: SimFleet | undefined;

beforeAll(async () => {
  fleet = await startSimFleet(8, 11);
});

afterAll(async () => {
  await fleet?.close();
});

it('admits or refuses the next live-video connection by the daily limit set a moment ago', async () => {
  const { server, adminToken } = fleet!;
  const { port } = server.app.server.address() as { port: number };
  const base = `ws://127.0.0.1:${port}`;
  const vehicleId = fleet!.online[0]!.vehicleId;
  const operator = await server.login('operator', 'operator123');
  const tree = await server.call<{ tree: { paramKey: string; id: number; children?: unknown[] }[] }>('GET', '/service-priv/paramconfig/system/findAll', { token: adminToken });
  const flat = (ns: { paramKey: string; id: number; children?: unknown[] }[]): { paramKey: string; id: number }[] =>
    ns.flatMap((n) => [n, ...flat((n.children ?? []) as { paramKey: string; id: number }[])]);
  const limit = flat(tree.data.tree).find((n) => n.paramKey === ParamKeys.videoDailyLimit)!;
  const setLimit = async (value: string) => expect((await server.call('POST', '/service-priv/paramconfig/system/update', { token: adminToken, body: { id: limit.id, value } })).code).toBe(200);

  await setLimit('1');
  const first = new VideoViewer(base, operator, vehicleId, 1, 1);
  await until(() => first.admitted());
  await first.close();
  const second = new VideoViewer(base, operator, vehicleId, 1, 1);
  await until(() => second.statuses.length > 0);
  expect(second.states()).toEqual(['stopped:dailyLimit']);
  await second.closed;

  // Raised while the server runs: the same user's next connection is admitted.
  await setLimit('3');
  const third = new VideoViewer(base, operator, vehicleId, 1, 1);
  await until(() => third.admitted());
  expect(third.states()).not.toContain('stopped:dailyLimit');
  await third.close();
});
