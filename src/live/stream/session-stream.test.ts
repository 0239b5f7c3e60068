import { afterEach, describe, expect, it } from 'vitest';
import type { AlarmSnapshot } from './alarm-lists.ts';
import type { LiveStream } from './client.ts';
import type { LiveFrame, LiveMessage } from './protocol.ts';
import { acquireLiveStream, liveStreamRefs, setLiveStreamFactory } from './session-stream.ts';

function fakeStream() {
  const listeners = new Set<(m: LiveMessage) => void>();
  const lists = new Set<(s: AlarmSnapshot) => void>();
  const state = { created: 0, disposed: 0, released: 0, resyncs: 0 };
  const stream = {
    subscribe: (l: (m: LiveMessage) => void) => (listeners.add(l), () => listeners.delete(l)),
    onAlarm: () => () => undefined,
    onAlarmLists: (l: (s: AlarmSnapshot) => void) => (lists.add(l), () => lists.delete(l)),
    onAlarmHandled: () => () => undefined,
    alarmList: () => Promise.resolve([]),
    markAlarmsRead: () => undefined,
    markAlarmHandled: () => undefined,
    resync: () => void state.resyncs++,
    release: () => void state.released++,
    setDisplayCrs: () => undefined,
    lookup: () => Promise.resolve(undefined),
    directory: () => Promise.resolve([]),
    idsInBounds: () => Promise.resolve(new Int32Array()),
    dispose: () => void state.disposed++,
  } satisfies LiveStream;
  setLiveStreamFactory(() => (state.created++, stream));
  return {
    state,
    emit: (m: LiveMessage) => [...listeners].forEach((l) => l(m)),
    emitLists: (s: AlarmSnapshot) => [...lists].forEach((l) => l(s)),
  };
}

const frame = { type: 'frame', count: 0 } as unknown as LiveFrame;
const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  expect(liveStreamRefs()).toBe(0);
});

describe('the session-wide live stream', () => {
  it('opens one connection for the pop-up and the monitor page together, and closes it when both are gone', () => {
    const f = fakeStream();
    const popup = acquireLiveStream();
    const monitor = acquireLiveStream();
    expect(f.state.created).toBe(1);
    monitor.dispose();
    expect(f.state.disposed).toBe(0);
    popup.dispose();
    expect(f.state.disposed).toBe(1);
  });

  it('hands frames straight back to the worker while no page draws them', () => {
    const f = fakeStream();
    const popup = acquireLiveStream();
    f.emit(frame);
    expect(f.state.released).toBe(1);
    const monitor = acquireLiveStream();
    const seen: LiveMessage[] = [];
    monitor.subscribe((m) => seen.push(m));
    f.emit(frame);
    expect(f.state.released).toBe(1);
    expect(seen).toContain(frame);
    monitor.dispose();
    f.emit(frame);
    expect(f.state.released).toBe(2);
    popup.dispose();
  });

  it('tells a page that joins late that the connection is open, shows it the alarms so far, and asks for a fresh frame', async () => {
    const f = fakeStream();
    const popup = acquireLiveStream();
    f.emit({ type: 'status', connection: 'open', attempt: 0 });
    const snap = { version: 3, unread: 1, recent: [], popup: [], popupCount: 0, voiceCount: 0, counts: { alarms: 1, safety: 1, online: 0, duty: 1 }, rejected: 0, missed: 0, missedCapped: false } satisfies AlarmSnapshot;
    f.emitLists(snap);
    const monitor = acquireLiveStream();
    const seen: LiveMessage[] = [];
    const lists: AlarmSnapshot[] = [];
    monitor.subscribe((m) => seen.push(m));
    monitor.onAlarmLists((s) => lists.push(s));
    await tick();
    expect(seen).toEqual([{ type: 'status', connection: 'open', attempt: 0 }]);
    expect(lists).toEqual([snap]);
    expect(f.state.resyncs).toBe(1);
    monitor.dispose();
    popup.dispose();
  });
});
