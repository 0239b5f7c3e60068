// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlarmHandledNotice } from '../../live/stream/alarm-lists.ts';
import type { LiveStream } from '../../live/stream/client.ts';
import { createLiveStream } from '../../live/stream/client.ts';
import { liveStreamRefs, setLiveStreamFactory } from '../../live/stream/session-stream.ts';
import { announceAlarmsHandled } from './handled.ts';
import { useAlarmHandlings } from './useAlarmHandlings.ts';

/** A session stream whose pushed handlings the test emits. */
function fakeStream() {
  const handled = new Set<(n: AlarmHandledNotice | null) => void>();
  const state = { disposed: 0 };
  const stream = {
    subscribe: () => () => undefined,
    onAlarm: () => () => undefined,
    onAlarmLists: () => () => undefined,
    onAlarmHandled: (l: (n: AlarmHandledNotice | null) => void) => (handled.add(l), () => handled.delete(l)),
    alarmList: () => Promise.resolve([]),
    markAlarmsRead: () => undefined,
    markAlarmHandled: () => undefined,
    resync: () => undefined,
    release: () => undefined,
    setDisplayCrs: () => undefined,
    lookup: () => Promise.resolve(undefined),
    directory: () => Promise.resolve([]),
    idsInBounds: () => Promise.resolve(new Int32Array()),
    dispose: () => void state.disposed++,
  } satisfies LiveStream;
  setLiveStreamFactory(() => stream);
  return { state, push: (n: AlarmHandledNotice | null) => [...handled].forEach((l) => l(n)), listeners: () => handled.size };
}

function Probe({ seen }: { seen: (readonly number[] | null)[] }) {
  useAlarmHandlings((ids) => seen.push(ids));
  return null;
}

afterEach(() => {
  cleanup();
  setLiveStreamFactory(createLiveStream);
});

describe('following every handling a view shows', () => {
  it('hears another operator’s handling over the push channel, this window’s own, and a reconnect, and lets go of the stream when unmounted', () => {
    const fake = fakeStream();
    const seen: (readonly number[] | null)[] = [];
    const view = render(<Probe seen={seen} />);
    expect(liveStreamRefs()).toBe(1);

    fake.push({ alarmIds: [41, 42], dealStatus: 2, boardItemId: null, userId: 9, time: 1 });
    announceAlarmsHandled([7]);
    fake.push(null);
    fake.push({ alarmIds: [], dealStatus: null, boardItemId: 3, userId: 9, time: 2 });
    expect(seen).toEqual([[41, 42], [7], null, []]);

    view.unmount();
    expect(liveStreamRefs()).toBe(0);
    expect(fake.state.disposed).toBe(1);
    expect(fake.listeners()).toBe(0);
    fake.push({ alarmIds: [43], dealStatus: 2, boardItemId: null, userId: 9, time: 3 });
    announceAlarmsHandled([8]);
    expect(seen).toHaveLength(4);
  });
});
