import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestTerminal } from '../../gateway/terminal-client.ts';
import { location } from '../../gateway/terminal-client.ts';
import { startLiveServer, type LiveTestServer } from '../../live/test-harness.ts';
import { createUserWithRole } from '../../test/users.ts';
import { ScriptedFleet } from '../../test/scripted-fleet.ts';

interface Item {
  id: number; vehicleId: number; vehiidno: string; companyId: number; state: string; stateName: string; riskLevel: string; alarmCount: number;
  lastAlarmType: number; lastAlarmName: string; note: string; nextFollowTime: number | null; overdue: boolean; followCount: number;
  reportTime: number | null; closeTime: number | null; muteUntil: number | null; handlerName: string; actions: string[]; closedAlarms?: number;
}
interface ItemPage { records: Item[]; total: number }
interface LogRow { action: string; actionName: string; userId: number | null; username: string; fromState: string | null; toState: string; note: string; nextFollowTime: number | null; alarmId: number | null; createTime: number }
interface Detail { item: Item; alarms: { id: number; alarmType: number; dealStatus: number; dealType: number | null }[]; log: LogRow[] }
interface Stat { pending: number; following: number; reported: number; overdue: number; resolved: number; unpushed: number; open: number; high: number; medium: number; since: number }

const MIN = 60_000;
const HOUR = 60 * MIN;
const EMERGENCY = 1 << 0; // 17001, high by default
const OVERSPEED = 1 << 1; // 12001, medium by default
const GNSS_FAULT = 1 << 4; // 15001, low by default
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;

let server: LiveTestServer;
let admin: string, safety: string, pageOnly: string, follower: string, eastSafety: string;
let fleet: ScriptedFleet;

/** A vehicle not used by another test, inside or outside the east branch. */
const freshVehicle = (inEast = false) => fleet.fresh(inEast);

/** A connected terminal that has reported once without alarms. */
async function terminalFor(v: { deviceNo: string }): Promise<TestTerminal> {
  const t = await fleet.terminal(v);
  await report(t, 0);
  return t;
}

async function report(t: TestTerminal, alarm: number, advanceMs = 1000) {
  server.clock.advance(advanceMs);
  const reply = await t.report(location({ lng: 121.5, lat: 31.2, time: seconds(server.clock.now()), speed: 70, alarm }));
  expect(reply.result).toBe(0);
  await server.app.alarms.idle();
}

const qs = (params: Record<string, string | number | boolean | readonly (string | number)[] | undefined>) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) u.append(k, String(x));
  }
  return u.toString();
};

const board = <T>(call: string, token: string, params: Parameters<typeof qs>[0] = {}, lang: 'zh' | 'en' = 'en') =>
  server.call<T>('GET', `/service-safe/saftyBoard/${call}?${qs(params)}`, { token, lang });

async function itemOf(vehicleId: number, token = admin, states?: string[]): Promise<Item | undefined> {
  const r = await board<ItemPage>('get', token, { vehicleIds: [vehicleId], states });
  expect(r.code).toBe(200);
  return r.data.records[0];
}

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 40 });
  admin = await server.login('admin', 'admin123');
  safety = await server.login('safety', 'safety123');
  const branchUser = await server.app.storage.users.findByUsername('branch');
  fleet = await ScriptedFleet.open(server);
  // Registry ids: 17 /safeManagement, 21 safetyBoardPage, 22 :resolve, 23 :follow, 24 :upload, 25 :unpush.
  pageOnly = await createUserWithRole(server, 'boardviewer', 1, [17, 21], 'R-boardviewer');
  follower = await createUserWithRole(server, 'boardfollower', 1, [17, 21, 23], 'R-boardfollower');
  eastSafety = await createUserWithRole(server, 'eastboard', branchUser!.companyId, [17, 21, 22, 23, 24, 25], 'R-eastboard');
});

afterAll(async () => {
  await fleet.close();
  await server.close();
});

describe('how alarms fill the safety board', () => {
  it('a high-risk alarm opens a pending item for its vehicle; a medium one joins it; a low one does not', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    expect(await itemOf(v.vehicleId)).toBeUndefined();
    await report(t, EMERGENCY);
    let item = await itemOf(v.vehicleId);
    expect(item).toMatchObject({ state: 'pending', stateName: 'pending', riskLevel: 'high', alarmCount: 1, lastAlarmType: 17001, overdue: false, followCount: 0 });
    expect(item!.actions).toEqual(['follow', 'report', 'resolve', 'unpush']);
    await report(t, EMERGENCY | OVERSPEED);
    await report(t, EMERGENCY | OVERSPEED | GNSS_FAULT);
    item = await itemOf(v.vehicleId);
    expect(item).toMatchObject({ riskLevel: 'high', alarmCount: 2, lastAlarmType: 12001 });
    const detail = await board<Detail>('detail', admin, { id: item!.id });
    expect(detail.data.alarms.map((a) => a.alarmType)).toEqual([12001, 17001]);
    expect(detail.data.log.map((l) => [l.action, l.userId, l.toState])).toEqual([['open', null, 'pending'], ['alarm', null, 'pending']]);
  });

  it('a vehicle with only a low-risk alarm stays off the board', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    await report(t, GNSS_FAULT);
    expect(await itemOf(v.vehicleId)).toBeUndefined();
  });

  it('follows the company’s platform levels: overspeed set to low raises no item, set to high raises a high one', async () => {
    const v = freshVehicle();
    const companyId = Number(v.companyPath.split('/').filter(Boolean).at(-1));
    const save = (riskLevel: string | null) => server.call('POST', '/service-safe/companysetting/saveCompanyAlarmLevelSetting', { token: admin, body: { companyId, items: [{ alarmType: 12001, riskLevel }] } });
    expect((await save('low')).code).toBe(200);
    const t = await terminalFor(v);
    await report(t, OVERSPEED);
    expect(await itemOf(v.vehicleId)).toBeUndefined();
    await report(t, 0, MIN);
    expect((await save('high')).code).toBe(200);
    await report(t, OVERSPEED, 40 * MIN);
    expect(await itemOf(v.vehicleId)).toMatchObject({ riskLevel: 'high', lastAlarmType: 12001, alarmCount: 1 });
    expect((await save(null)).code).toBe(200);
  });

  it('auto-handled alarms stay off the board', async () => {
    const v = freshVehicle();
    const companyId = Number(v.companyPath.split('/').filter(Boolean).at(-1));
    const r = await server.call('POST', '/service-safe/companysetting/doCompanyAlarmSettingHandleStatus', { token: admin, body: { companyId, alarmTypes: [17002], autoHandle: true } });
    expect(r.code).toBe(200);
    const t = await terminalFor(v);
    await report(t, 1 << 3); // 17002, high, now handled automatically
    expect(await itemOf(v.vehicleId)).toBeUndefined();
  });

  it('an alarm that started more than 24 hours before the board reads it stays off; a recent one opens an item', async () => {
    const [old, recent] = [freshVehicle(), freshVehicle()];
    const now = server.clock.now();
    for (const [v, startTime] of [[old, now - 25 * HOUR], [recent, now - HOUR]] as const) {
      await server.app.storage.alarms.insert({
        vehicleId: v.vehicleId, deviceNo: v.deviceNo, companyId: Number(v.companyPath.split('/').filter(Boolean).at(-1)), alarmType: 17001, source: 'bit',
        startTime, lng: 121.5, lat: 31.2, speed: 0, riskLevel: 'high', dealStatus: 0, createTime: now,
      });
    }
    expect(await itemOf(old.vehicleId)).toBeUndefined();
    expect(await itemOf(recent.vehicleId)).toMatchObject({ state: 'pending', riskLevel: 'high' });
  });
});

describe('board actions', () => {
  it('follow → continue follow → cancel follow → report → follow → resolve, each logged with who, when and what', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    await report(t, EMERGENCY);
    const { id } = (await itemOf(v.vehicleId))!;
    const t0 = server.clock.now();

    let r = await board<Item>('follow', safety, { id, note: ' called the driver ', nextFollowTime: t0 + HOUR });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ state: 'following', note: 'called the driver', nextFollowTime: t0 + HOUR, followCount: 1, handlerName: '刘安全' });
    expect(r.data.actions).toEqual(['continueFollow', 'cancelFollow', 'report', 'resolve', 'unpush']);

    server.clock.advance(2 * HOUR);
    expect((await itemOf(v.vehicleId))!.overdue).toBe(true);
    const t1 = server.clock.now();
    r = await board<Item>('continuefollow', safety, { id, note: 'driver resting', nextFollowTime: t1 + HOUR });
    expect(r.data).toMatchObject({ state: 'following', nextFollowTime: t1 + HOUR, followCount: 2, overdue: false });

    r = await board<Item>('cancelFollow', safety, { id });
    expect(r.data).toMatchObject({ state: 'pending', nextFollowTime: null });

    r = await board<Item>('report', safety, { id, note: 'escalated to the transport bureau' });
    expect(r.data).toMatchObject({ state: 'reported', reportTime: t1, note: 'escalated to the transport bureau' });
    expect(r.data.actions).toEqual(['follow', 'resolve']);

    r = await board<Item>('follow', safety, { id, note: 'bureau asked for a call-back', nextFollowTime: t1 + 30 * MIN });
    expect(r.data.state).toBe('following');
    r = await board<Item>('cancelFollow', safety, { id, note: 'bureau handles it' });
    expect(r.data.state).toBe('reported');

    r = await board<Item>('resolved', safety, { id, note: 'driver replaced' });
    expect(r.data).toMatchObject({ state: 'resolved', closeTime: t1, actions: [], closedAlarms: 1 });

    const detail = await board<Detail>('detail', safety, { id }, 'zh');
    expect(detail.data.log.map((l) => [l.action, l.fromState, l.toState, l.username, l.note])).toEqual([
      ['open', null, 'pending', '', ''],
      ['follow', 'pending', 'following', '刘安全', 'called the driver'],
      ['continueFollow', 'following', 'following', '刘安全', 'driver resting'],
      ['cancelFollow', 'following', 'pending', '刘安全', ''],
      ['report', 'pending', 'reported', '刘安全', 'escalated to the transport bureau'],
      ['follow', 'reported', 'following', '刘安全', 'bureau asked for a call-back'],
      ['cancelFollow', 'following', 'reported', '刘安全', 'bureau handles it'],
      ['resolve', 'reported', 'resolved', '刘安全', 'driver replaced'],
    ]);
    expect(detail.data.log[1]).toMatchObject({ nextFollowTime: t0 + HOUR, createTime: t0, actionName: '跟进' });
    expect(detail.data.log[0]!.actionName).toBe('报警上榜');
    // Resolving released the alarm it held, with its own deal-log row.
    expect(detail.data.alarms[0]).toMatchObject({ dealStatus: 2, dealType: 1 });
    const alarmLog = await server.call<{ action: string; username: string; dealType: number; content: string }[]>('GET', `/service-command/command_record/findAlarmDealLog?alarmId=${detail.data.alarms[0]!.id}`, { token: admin });
    expect(alarmLog.data).toEqual([expect.objectContaining({ action: 'handle', username: '刘安全', dealType: 1, content: 'driver replaced' })]);
  });

  it('refuses transitions the state does not allow with 409 and a message in the caller’s language', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    await report(t, EMERGENCY);
    const { id } = (await itemOf(v.vehicleId))!;
    let r = await board('continuefollow', safety, { id, note: 'x', nextFollowTime: server.clock.now() + HOUR });
    expect([r.status, r.msg]).toEqual([409, 'Cannot continue following an item that is pending']);
    r = await board('cancelFollow', safety, { id }, 'zh');
    expect([r.status, r.msg]).toEqual([409, '「待处理」状态的事项不能取消跟进']);
    expect((await board('report', safety, { id, note: 'up' })).code).toBe(200);
    r = await board('unpush', safety, { id });
    expect([r.status, r.msg]).toEqual([409, 'A reported item cannot be unpushed: resolve it once it is handled']);
    r = await board('report', safety, { id, note: 'again' });
    expect([r.status, r.msg]).toEqual([409, 'This item has already been reported']);
    expect((await board('resolved', safety, { id, note: 'done' })).code).toBe(200);
    r = await board('follow', safety, { id, note: 'late', nextFollowTime: server.clock.now() + HOUR }, 'zh');
    expect([r.status, r.msg]).toEqual([409, '该事项已解决，不能再操作']);
    const log = (await board<Detail>('detail', safety, { id })).data.log;
    expect(log.map((l) => l.action)).toEqual(['open', 'report', 'resolve']);
  });

  it('answers 400 naming the field for a missing or bad note, follow-up time or mute time, and writes nothing', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    await report(t, EMERGENCY);
    const { id } = (await itemOf(v.vehicleId))!;
    const now = server.clock.now();
    const cases: [string, Record<string, string | number>, RegExp][] = [
      ['follow', { id, note: 'n' }, /^Field nextFollowTime is required/],
      ['follow', { id, note: 'n', nextFollowTime: now - 1 }, /^Field nextFollowTime is invalid: the next follow-up must be in the future/],
      ['follow', { id, note: 'n', nextFollowTime: 'tomorrow' }, /nextFollowTime/],
      ['follow', { id, nextFollowTime: now + HOUR }, /^Field note is required/],
      ['resolved', { id, note: 'x'.repeat(501) }, /note/],
      ['report', { id, note: '   ' }, /^Field note is required/],
      ['unpush', { id, muteMinutes: 99_999 }, /muteMinutes/],
      ['follow', { id, note: 'n', nextFollowTime: now + HOUR, color: 'red' }, /color/],
      ['resolved', { note: 'n' }, /id/],
    ];
    for (const [call, params, msg] of cases) {
      const r = await board(call, safety, params);
      expect([call, r.status], JSON.stringify(params)).toEqual([call, 400]);
      expect(r.msg).toMatch(msg);
    }
    const bad = await board('get', safety, { states: ['open'] });
    expect([bad.status, bad.msg]).toEqual([400, expect.stringMatching(/states/)]);
    expect((await itemOf(v.vehicleId))).toMatchObject({ state: 'pending', note: '' });
    expect((await board<Detail>('detail', safety, { id })).data.log).toHaveLength(1);
  });

  it('unpush closes the item, handles its alarms as "no risk" and mutes the vehicle for the chosen time', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    await report(t, EMERGENCY);
    const { id } = (await itemOf(v.vehicleId))!;
    const r = await board<Item>('unpush', safety, { id, note: 'drill', muteMinutes: 60 });
    expect(r.data).toMatchObject({ state: 'unpushed', muteUntil: server.clock.now() + HOUR, closedAlarms: 1 });
    expect(await itemOf(v.vehicleId)).toBeUndefined();
    // A new alarm while muted joins the unpushed item (visible in its detail), opening nothing.
    await report(t, 0);
    await report(t, OVERSPEED, 10 * MIN);
    expect(await itemOf(v.vehicleId)).toBeUndefined();
    const detail = (await board<Detail>('detail', safety, { id })).data;
    expect(detail.item.alarmCount).toBe(2);
    expect(detail.alarms.map((a) => [a.dealStatus, a.dealType])).toEqual([[0, null], [2, 4]]);
    // After the mute a new alarm opens a new item.
    await report(t, 0);
    await report(t, EMERGENCY, HOUR);
    const next = await itemOf(v.vehicleId);
    expect(next).toMatchObject({ state: 'pending', alarmCount: 1 });
    expect(next!.id).not.toBe(id);
  });
});

describe('alarms handled outside the board', () => {
  it('a pending item resolves itself once its last alarm is handled on the processing page; a followed item stays open', async () => {
    const handle = (ids: number[]) => server.call('PUT', '/service-safe/alarmInfo/handle_status', { token: safety, body: { ids, dealType: 1, dealContent: 'called the driver' } });
    const v = freshVehicle();
    const t = await terminalFor(v);
    await report(t, EMERGENCY);
    await report(t, EMERGENCY | OVERSPEED);
    const item = (await itemOf(v.vehicleId))!;
    const [second, first] = (await board<Detail>('detail', safety, { id: item.id })).data.alarms;
    // One of two handled: still pending.
    expect((await handle([first!.id])).code).toBe(200);
    expect(await itemOf(v.vehicleId)).toMatchObject({ id: item.id, state: 'pending' });
    expect((await handle([second!.id])).code).toBe(200);
    expect(await itemOf(v.vehicleId)).toBeUndefined();
    const detail = (await board<Detail>('detail', safety, { id: item.id }, 'zh')).data;
    expect(detail.item).toMatchObject({ state: 'resolved', closeTime: server.clock.now(), handlerName: '刘安全' });
    expect(detail.log.at(-1)).toMatchObject({ action: 'handled', actionName: '报警已全部处理，自动解决', username: '刘安全', fromState: 'pending', toState: 'resolved' });

    const w = freshVehicle();
    const tw = await terminalFor(w);
    await report(tw, EMERGENCY);
    const followed = (await itemOf(w.vehicleId))!;
    expect((await board<Item>('follow', safety, { id: followed.id, note: 'watching', nextFollowTime: server.clock.now() + HOUR })).code).toBe(200);
    const [only] = (await board<Detail>('detail', safety, { id: followed.id })).data.alarms;
    expect((await handle([only!.id])).code).toBe(200);
    expect(await itemOf(w.vehicleId)).toMatchObject({ id: followed.id, state: 'following' });
    // closed by hand, so the stat test below does not see a follow-up fall overdue
    expect((await board<Item>('resolved', safety, { id: followed.id, note: 'done' })).code).toBe(200);
  });

  it('alarms handled on the processing page before any board read still reach the board: resolved today counts them', async () => {
    const since = server.clock.now();
    const before = (await board<Stat>('stat', admin, { since })).data;
    const [v, w] = [freshVehicle(), freshVehicle()];
    const alarmIds: number[] = [];
    for (const x of [v, w]) {
      const t = await terminalFor(x);
      await report(t, EMERGENCY);
      const list = await server.call<{ records: { id: number; vehicleId: number }[] }>('POST', '/service-safe/alarmInfo', {
        token: safety, body: { startTime: since, endTime: server.clock.now() + HOUR, vehicleIds: [x.vehicleId], current: 1, size: 10 },
      });
      expect(list.code).toBe(200);
      alarmIds.push(...list.data.records.map((r) => r.id));
    }
    expect(alarmIds).toHaveLength(2);
    // Handled from the list, no board read in between (no stat, no get).
    const handled = await server.call('PUT', '/service-safe/alarmInfo/handle_status', { token: safety, body: { ids: alarmIds, dealType: 1, dealContent: 'called the driver' } });
    expect(handled.code).toBe(200);
    const after = (await board<Stat>('stat', admin, { since })).data;
    expect(after.resolved - before.resolved).toBe(2);
    expect(after.pending - before.pending).toBe(0);
    const closed = await itemOf(v.vehicleId, admin, ['resolved']);
    expect(closed).toMatchObject({ state: 'resolved', handlerName: '刘安全' });
  });

  it('a pending item stays open when its vehicle raised a newer alarm the board has not read yet', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    await report(t, EMERGENCY);
    const item = (await itemOf(v.vehicleId))!;
    const [first] = (await board<Detail>('detail', safety, { id: item.id })).data.alarms;
    // A newer overspeed, stored but not yet seen by any board read.
    await report(t, EMERGENCY | OVERSPEED);
    const handled = await server.call('PUT', '/service-safe/alarmInfo/handle_status', { token: safety, body: { ids: [first!.id], dealType: 1, dealContent: 'x' } });
    expect(handled.code).toBe(200);
    expect(await itemOf(v.vehicleId)).toMatchObject({ id: item.id, state: 'pending', alarmCount: 2 });
  });
});

describe('board stat', () => {
  it('counts open items per state and risk, overdue follow-ups, and items closed since the given time', async () => {
    const since = server.clock.now();
    const before = (await board<Stat>('stat', admin, { since })).data;
    const [a, b, c, d] = [freshVehicle(), freshVehicle(), freshVehicle(), freshVehicle()];
    const ids: number[] = [];
    for (const v of [a, b, c, d]) {
      const t = await terminalFor(v);
      await report(t, v === d ? OVERSPEED : EMERGENCY);
      ids.push((await itemOf(v.vehicleId))!.id);
    }
    const now = server.clock.now();
    expect((await board('follow', safety, { id: ids[0]!, note: 'n', nextFollowTime: now + 10 * MIN })).code).toBe(200);
    expect((await board('follow', safety, { id: ids[1]!, note: 'n', nextFollowTime: now + 2 * HOUR })).code).toBe(200);
    expect((await board('resolved', safety, { id: ids[2]!, note: 'n' })).code).toBe(200);
    server.clock.advance(HOUR);
    const after = (await board<Stat>('stat', admin, { since })).data;
    const delta = (k: keyof Stat) => after[k] - before[k];
    expect({ pending: delta('pending'), following: delta('following'), overdue: delta('overdue'), resolved: delta('resolved'), open: delta('open'), high: delta('high'), medium: delta('medium') })
      .toEqual({ pending: 1, following: 2, overdue: 1, resolved: 1, open: 3, high: 2, medium: 1 });
    // The list's overdue filter finds the one past its follow-up time.
    const overdue = await board<ItemPage>('get', admin, { overdue: true, vehicleIds: [a.vehicleId, b.vehicleId] });
    expect(overdue.data.records.map((r) => r.id)).toEqual([ids[0]]);
    // Closed items count from the start of today by default; a later `since` leaves them out.
    expect((await board<Stat>('stat', admin, { since: server.clock.now() })).data.resolved).toBe(0);
  });
});

describe('board permissions and scope', () => {
  it('each action needs its button bit (403 without), the list only the page', async () => {
    const v = freshVehicle();
    const t = await terminalFor(v);
    await report(t, EMERGENCY);
    const { id } = (await itemOf(v.vehicleId))!;
    const next = server.clock.now() + HOUR;
    expect((await board<ItemPage>('get', pageOnly, { vehicleIds: [v.vehicleId] })).data.records).toHaveLength(1);
    expect((await board('stat', pageOnly)).code).toBe(200);
    for (const [call, params] of [
      ['follow', { id, note: 'n', nextFollowTime: next }], ['resolved', { id, note: 'n' }], ['report', { id, note: 'n' }], ['unpush', { id }],
    ] as const) {
      expect(await board(call, pageOnly, params).then((r) => r.status), call).toBe(403);
    }
    expect((await board('follow', follower, { id, note: 'n', nextFollowTime: next })).code).toBe(200);
    expect((await board('continuefollow', follower, { id, note: 'n2', nextFollowTime: next })).code).toBe(200);
    expect((await board('resolved', follower, { id, note: 'n' })).status).toBe(403);
    expect((await board('unpush', follower, { id })).status).toBe(403);
    expect((await board('report', follower, { id, note: 'n' })).status).toBe(403);
    expect((await board('get', operatorToken())).status).toBe(403);
    expect((await itemOf(v.vehicleId))!.state).toBe('following');
  });

  it('a user sees and acts only on items of its company subtree', async () => {
    const outside = freshVehicle(false);
    const inside = freshVehicle(true);
    for (const v of [outside, inside]) await report(await terminalFor(v), EMERGENCY);
    const outsideItem = (await itemOf(outside.vehicleId))!;
    const insideItem = (await itemOf(inside.vehicleId))!;
    const listed = await board<ItemPage>('get', eastSafety, { vehicleIds: [outside.vehicleId, inside.vehicleId] });
    expect(listed.data.records.map((r) => r.id)).toEqual([insideItem.id]);
    expect((await board('detail', eastSafety, { id: outsideItem.id })).status).toBe(404);
    expect((await board('resolved', eastSafety, { id: outsideItem.id, note: 'n' })).status).toBe(404);
    expect((await board('resolved', eastSafety, { id: insideItem.id, note: 'n' })).code).toBe(200);
    expect((await board('stat', eastSafety, { companyId: 1 })).status).toBe(403);
    // A companyId narrows the admin's list to that subtree.
    const eastId = Number(fleet.eastPath.split('/').filter(Boolean).at(-1));
    const narrowed = await board<ItemPage>('get', admin, { companyId: eastId, vehicleIds: [outside.vehicleId, inside.vehicleId], states: ['pending', 'resolved'] });
    expect(narrowed.data.records.map((r) => r.id)).toEqual([insideItem.id]);
  });
});

let operator: string | undefined;
function operatorToken(): string {
  if (!operator) throw new Error('operator not signed in');
  return operator;
}
beforeAll(async () => {
  operator = await server.login('operator', 'operator123');
});
