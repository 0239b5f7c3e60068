/**
 * The spec's live-video limits held by the server (issue 12 §3), not only by the browser: a client that
 * skips the video wall's check (a script, a patched console, a second tab) still cannot watch a 26th
 * channel or open more connections a day than its limit, administrators included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_MAX_CHANNELS, videoMessage } from '../../../domain/video/limits.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { LiveTestServer } from '../../live/test-harness.ts';
import { startSimFleet, until, type SimFleet } from '../../test/sim-fleet.ts';
import { VideoViewer } from '../../test/video-viewer.ts';

let fleet: SimFleet | undefined;
let server: LiveTestServer;
let base: string;
let adminToken: string;
let online: number[];

/** A viewer of this file's server. */
const viewer = (token: string, vehicleId: number, channel: number, stream = 1) => new VideoViewer(base, token, vehicleId, channel, stream);

const streamLogRows = (userId: number) => server.app.storage.streams.countSince(userId, 0);

beforeAll(async () => {
  fleet = await startSimFleet(8, 11);
  server = fleet.server;
  adminToken = fleet.adminToken;
  const { port } = server.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${port}`;
  online = fleet.online.map((v) => v.vehicleId);
});

afterAll(async () => {
  await fleet?.close();
});

describe('live-video limits on the server', () => {
  it('refuses the 26th channel a user watches at once with the spec message, counting every socket of every tab', async () => {
    const admin = (await server.app.storage.users.findByUsername('admin'))!;
    const logBefore = await streamLogRows(admin.id);
    // 25 tiles in however many tabs: each socket is one channel on the user's screen (one upstream here).
    const viewers: VideoViewer[] = [];
    for (let i = 0; i < VIDEO_MAX_CHANNELS; i++) viewers.push(viewer(adminToken, online[0]!, 1 + (i % 2)));
    await until(() => viewers.every((v) => v.admitted()));

    const extra = viewer(adminToken, online[1]!, 1);
    await until(() => extra.statuses.length > 0);
    expect(extra.states()).toEqual(['stopped:tooMany']);
    await extra.closed;
    expect(videoMessage('tooMany', 'zh')).toBe('最多同时播放25路视频'); // what the console shows for that reason
    // The refusal opened nothing: no stream log row, no upstream for the refused vehicle.
    expect(await streamLogRows(admin.id)).toBe(logBefore + VIDEO_MAX_CHANNELS);
    expect(server.app.media.hub.stats.channels).toBeLessThanOrEqual(2);

    // Another user is not held by this user's channels.
    const operator = await server.login('operator', 'operator123');
    const other = viewer(operator, online[1]!, 1);
    await until(() => other.admitted());
    await other.close();

    // Closing one tile frees its place (a leak here would lock the user out for good).
    await viewers.pop()!.close();
    const again = viewer(adminToken, online[1]!, 1);
    await until(() => again.admitted());
    expect(again.states()).not.toContain('stopped:tooMany');
    viewers.push(again);
    for (const v of viewers) await v.close();
  });

  it('holds an administrator to its own configured daily connection count, with the spec message', async () => {
    await server.app.storage.users.create({
      username: 'admin2', passwordHash: await hashPassword('admin2pass'), realName: '第二管理员', userLevel: 0, companyId: 1,
      phone: '', email: '', status: 1, expireTime: null, allowedIps: '', geoInverse: false,
    }, []);
    const token = await server.login('admin2', 'admin2pass');
    const me = (await server.app.storage.users.findByUsername('admin2'))!;
    const set = await server.call('POST', '/service-priv/stream/setStream', { token: adminToken, body: { userId: me.id, dailyLimit: 2 } });
    expect(set.code).toBe(200);

    for (let i = 0; i < 2; i++) {
      const ok = viewer(token, online[2]!, 1);
      await until(() => ok.admitted());
      await ok.close();
    }
    const refused = viewer(token, online[2]!, 1);
    await until(() => refused.statuses.length > 0);
    expect(refused.states()).toEqual(['stopped:dailyLimit']);
    await refused.closed;
    expect(videoMessage('dailyLimit', 'zh')).toBe('今日实时视频连接次数已达上限，请明天再试');
    expect(await streamLogRows(me.id)).toBe(2);

    // Two connections racing for the last one granted today: exactly one gets it.
    const grant = await server.call('POST', '/service-priv/stream/addUserStreamTimes', { token: adminToken, body: { userId: me.id, times: 1 } });
    expect(grant.code).toBe(200);
    const racers = [viewer(token, online[2]!, 1), viewer(token, online[2]!, 2)];
    await until(() => racers.every((v) => v.admitted() || v.states().includes('stopped:dailyLimit')));
    expect(racers.filter((v) => v.admitted())).toHaveLength(1);
    for (const v of racers) await v.close();
  });
});
