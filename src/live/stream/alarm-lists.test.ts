import { describe, expect, it } from 'vitest';
import { ALARM_EVENTS_MAX, AlarmLists, DUTY_EVENTS_MAX, OFFLINE_ALARM_TYPE, ONLINE_EVENTS_MAX, SAFETY_EVENTS_MAX, SNAPSHOT_RECENT, toAlarmItem } from './alarm-lists.ts';

let nextId = 1;
function alarm(over: Record<string, unknown> = {}): Record<string, unknown> {
  const id = nextId++;
  return {
    id, alarmType: 12001, alarmName: '超速报警', vehicleId: id, vehiidno: `沪A${id}`, devidno: `0130${id}`, companyId: 3,
    companyName: '车队', channelId: 0, gpsTime: 1_700_000_000_000 + id, createTime: 1_700_000_000_000 + id, lng: 121.5, lat: 31.2,
    speed: 66, riskLevel: 'medium', dealStatus: 0, dealType: null, count: 1, source: 'bit', ...over,
  };
}

describe('the client-held alarm lists', () => {
  it('keeps alarm events newest first and drops the oldest past the cap', () => {
    const lists = new AlarmLists();
    const ids: number[] = [];
    for (let i = 0; i < ALARM_EVENTS_MAX + 5; i++) {
      const a = alarm();
      ids.push(a.id as number);
      lists.add(a);
    }
    const held = lists.list('alarms').map((a) => a.id);
    expect(held).toHaveLength(ALARM_EVENTS_MAX);
    expect(held[0]).toBe(ids.at(-1));
    expect(held.at(-1)).toBe(ids[5]);
  });

  it('holds one safety event per vehicle: a vehicle’s new alarm replaces its older entry and moves to the front', () => {
    const lists = new AlarmLists();
    lists.add(alarm({ vehicleId: 7, alarmType: 12001 }));
    lists.add(alarm({ vehicleId: 8 }));
    const newer = alarm({ vehicleId: 7, alarmType: 10001 });
    lists.add(newer);
    const safety = lists.list('safety');
    expect(safety.map((a) => a.vehicleId)).toEqual([7, 8]);
    expect(safety[0]).toMatchObject({ id: newer.id, alarmType: 10001 });
    expect(lists.list('alarms')).toHaveLength(3);
  });

  it('caps safety events at 500 vehicles, dropping the vehicle whose alarm is oldest', () => {
    const lists = new AlarmLists();
    for (let v = 0; v < SAFETY_EVENTS_MAX + 1; v++) lists.add(alarm({ vehicleId: v }));
    const safety = lists.list('safety');
    expect(safety).toHaveLength(SAFETY_EVENTS_MAX);
    expect(safety.some((a) => a.vehicleId === 0)).toBe(false);
    expect(safety[0]!.vehicleId).toBe(SAFETY_EVENTS_MAX);
  });

  it('puts offline alarms in the online-reminder list only, one per vehicle, at most 500', () => {
    const lists = new AlarmLists();
    lists.add(alarm({ vehicleId: 1, alarmType: OFFLINE_ALARM_TYPE }));
    lists.add(alarm({ vehicleId: 1, alarmType: OFFLINE_ALARM_TYPE }));
    expect(lists.list('online')).toHaveLength(1);
    expect(lists.list('safety')).toHaveLength(0);
    for (let v = 2; v < ONLINE_EVENTS_MAX + 3; v++) lists.add(alarm({ vehicleId: v, alarmType: OFFLINE_ALARM_TYPE }));
    expect(lists.list('online')).toHaveLength(ONLINE_EVENTS_MAX);
    expect(lists.list('online').some((a) => a.vehicleId === 1)).toBe(false);
  });

  it('keeps at most 100 duty events, only alarms that arrived unprocessed, and drops one once it is handled', () => {
    const lists = new AlarmLists();
    lists.add(alarm({ dealStatus: 1 }));
    expect(lists.list('duty')).toHaveLength(0);
    const first = alarm();
    lists.add(first);
    for (let i = 0; i < DUTY_EVENTS_MAX; i++) lists.add(alarm());
    expect(lists.list('duty')).toHaveLength(DUTY_EVENTS_MAX);
    expect(lists.list('duty').some((a) => a.id === first.id)).toBe(false);
    const top = lists.list('duty')[0]!;
    lists.markHandled(top.id, 2);
    expect(lists.list('duty')).toHaveLength(DUTY_EVENTS_MAX - 1);
    expect(lists.list('alarms')[0]).toMatchObject({ id: top.id, dealStatus: 2 });
  });

  it('counts unread alarms until the user looks, and a repeated alarm id counts once', () => {
    const lists = new AlarmLists();
    const a = alarm();
    lists.add(a);
    lists.add(alarm());
    expect(lists.add(a)).toBe(false);
    expect(lists.snapshot().unread).toBe(2);
    lists.markRead();
    expect(lists.snapshot().unread).toBe(0);
  });

  it('changes its version only when something changed, so the worker posts only then', () => {
    const lists = new AlarmLists();
    const v0 = lists.version;
    lists.markRead();
    expect(lists.version).toBe(v0);
    lists.add(alarm());
    expect(lists.version).toBeGreaterThan(v0);
  });

  it('counts a message without an id or type as rejected and keeps every list as it was', () => {
    const lists = new AlarmLists();
    expect(lists.add({ alarmType: 1 })).toBe(false);
    expect(lists.add(null)).toBe(false);
    expect(lists.snapshot()).toMatchObject({ rejected: 2, unread: 0, counts: { alarms: 0, safety: 0, online: 0, duty: 0 } });
  });

  it('sends the main thread only the newest alarms and the counts', () => {
    const lists = new AlarmLists();
    for (let i = 0; i < SNAPSHOT_RECENT + 10; i++) lists.add(alarm());
    const s = lists.snapshot();
    expect(s.recent).toHaveLength(SNAPSHOT_RECENT);
    expect(s.counts.alarms).toBe(SNAPSHOT_RECENT + 10);
  });

  it('normalises a push message: the plate, type and place survive, a missing dealType is null', () => {
    expect(toAlarmItem({ id: 3, alarmType: 12001, vehiidno: '沪A1', lng: 121, lat: 31, speed: 40 })).toMatchObject({
      id: 3, alarmType: 12001, vehiidno: '沪A1', lng: 121, lat: 31, speed: 40, dealType: null, vehicleId: -1,
    });
  });

  it('holds the pop-up alarms apart: only those the company links to a pop-up, newest first, and counts tone-linked ones', () => {
    const lists = new AlarmLists();
    const loud = alarm({ popup: true, voice: true });
    lists.add(loud);
    for (let i = 0; i < SNAPSHOT_RECENT + 5; i++) lists.add(alarm({ popup: false, voice: false, alarmType: 15001 }));
    const quietPopup = alarm({ popup: true, voice: false });
    lists.add(quietPopup);
    const s = lists.snapshot();
    // the linked alarm is still offered to the pop-up although 25 unlinked ones came after it
    expect(s.popup.map((a) => a.id)).toEqual([quietPopup.id, loud.id]);
    expect(s.popupCount).toBe(2);
    expect(s.voiceCount).toBe(1);
    expect(s.recent.map((a) => a.id)).not.toContain(loud.id);
    expect(s.counts.alarms).toBe(SNAPSHOT_RECENT + 7);
    lists.markHandled(loud.id as number, 2);
    expect(lists.snapshot().popup[1]).toMatchObject({ id: loud.id, dealStatus: 2 });
  });

  it('adds a catch-up replay through the same rules as live alarms, but sounds one tone for the whole replay, not one per alarm', () => {
    const lists = new AlarmLists();
    lists.replay({ after: null, lastId: 10, alarms: [], missed: 0, missedCapped: false });
    expect(lists.cursor).toBe(10);
    const live = alarm({ popup: true, voice: true });
    lists.add(live);
    const voiceBefore = lists.snapshot().voiceCount;
    // a storm of 300 tone-linked alarms raised while the console was away
    const missed = Array.from({ length: 300 }, () => alarm({ popup: true, voice: true }));
    expect(lists.replay({ after: live.id, lastId: missed.at(-1)!.id, alarms: missed, missed: 0, missedCapped: false })).toBe(300);
    const s = lists.snapshot();
    expect(s.voiceCount).toBe(voiceBefore + 1);
    expect(s.unread).toBe(301);
    expect(s.popup[0]!.id).toBe(missed.at(-1)!.id); // the newest replayed alarm opens the pop-up
    expect(s.counts.alarms).toBe(ALARM_EVENTS_MAX);
    expect(lists.cursor).toBe(missed.at(-1)!.id);
  });

  it('never counts an alarm twice when a replay and a live push both carry it', () => {
    const lists = new AlarmLists();
    const a = alarm();
    const b = alarm();
    lists.add(a);
    expect(lists.replay({ after: 0, lastId: b.id, alarms: [a, b], missed: 0, missedCapped: false })).toBe(1);
    expect(lists.add(b)).toBe(false);
    expect(lists.list('alarms').map((x) => x.id)).toEqual([b.id, a.id]);
    expect(lists.snapshot().unread).toBe(2);
  });

  it('keeps the count of alarms a catch-up could not bring back until the user looks', () => {
    const lists = new AlarmLists();
    lists.replay({ after: 1, lastId: 900, alarms: [alarm()], missed: 120, missedCapped: false });
    lists.replay({ after: 900, lastId: 2000, alarms: [], missed: 100_000, missedCapped: true });
    expect(lists.snapshot()).toMatchObject({ missed: 100_120, missedCapped: true });
    lists.markRead();
    expect(lists.snapshot()).toMatchObject({ missed: 0, missedCapped: false, unread: 0 });
  });

  it('forgets the ids it saw when the server\'s alarm store started afresh (its cursor went back), so new alarms reusing ids still count', () => {
    const lists = new AlarmLists();
    lists.add(alarm({ id: 5 }));
    lists.replay({ after: 5, lastId: 0, alarms: [], missed: 0, missedCapped: false });
    expect(lists.cursor).toBe(0);
    expect(lists.add(alarm({ id: 5 }))).toBe(true);
  });

  it('rejects a malformed replay message and keeps its cursor', () => {
    const lists = new AlarmLists();
    lists.replay({ after: null, lastId: 7, alarms: [], missed: 0, missedCapped: false });
    expect(lists.replay({ lastId: 'x', alarms: [] })).toBe(0);
    expect(lists.replay(null)).toBe(0);
    expect(lists.snapshot().rejected).toBe(2);
    expect(lists.cursor).toBe(7);
  });

  it('drops an alarm another operator handled from the pop-up queue and the duty list, and keeps one this operator handled on the pop-up with its new state', () => {
    const lists = new AlarmLists();
    const [mine, theirs, untouched] = [alarm(), alarm(), alarm()];
    for (const a of [mine, theirs, untouched]) lists.add(a);
    const me = 7;
    lists.applyHandled({ alarmIds: [theirs.id as number], dealStatus: 2, boardItemId: null, userId: 99, time: 0 }, me);
    lists.applyHandled({ alarmIds: [mine.id as number], dealStatus: 3, boardItemId: null, userId: me, time: 0 }, me);
    const snap = lists.snapshot();
    expect(snap.popup.map((a) => a.id)).toEqual([untouched.id, mine.id]);
    expect(snap.popup.find((a) => a.id === mine.id)!.dealStatus).toBe(3);
    expect(snap.popupCount).toBe(2);
    expect(lists.list('duty').map((a) => a.id)).toEqual([untouched.id]);
    // The full alarm list keeps both, with their new states.
    expect(lists.list('alarms').map((a) => [a.id, a.dealStatus])).toEqual([[untouched.id, 0], [theirs.id, 2], [mine.id, 3]]);
  });

  it('ignores a board step that handled no alarm and an unknown alarm id without changing its version', () => {
    const lists = new AlarmLists();
    lists.add(alarm());
    const v = lists.version;
    lists.applyHandled({ alarmIds: [], dealStatus: null, boardItemId: 4, userId: 1, time: 0 }, 2);
    lists.applyHandled({ alarmIds: [123_456], dealStatus: 2, boardItemId: null, userId: 1, time: 0 }, 2);
    expect(lists.version).toBe(v);
  });

  it('treats a push message without linkage fields as linked (pop-up and tone), as consoles always did', () => {
    expect(toAlarmItem({ id: 4, alarmType: 12001 })).toMatchObject({ popup: true, voice: true });
    expect(toAlarmItem({ id: 5, alarmType: 12001, popup: false, voice: false })).toMatchObject({ popup: false, voice: false });
  });
});
