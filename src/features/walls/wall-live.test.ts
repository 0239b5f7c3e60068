import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveStream } from '../../live/stream/client.ts';
import type { AlarmItem, AlarmSnapshot } from '../../live/stream/alarm-lists.ts';
import type { LiveFrame, LiveMessage } from '../../live/stream/protocol.ts';
import { mergeAlarms, TICKER_INTERVAL_MS, TICKER_MAX, WallLive, type TickerAlarm } from './wall-live.ts';

const alarm = (id: number): TickerAlarm => ({ id, alarmType: 12001, vehiidno: `京A${id}`, companyName: 'c', gpsTime: id, riskLevel: 'high', speed: 50 });

function fakeStream() {
  const listeners = new Set<(m: LiveMessage) => void>();
  const lists = new Set<(s: AlarmSnapshot) => void>();
  const released: LiveFrame[] = [];
  const stream = {
    subscribe: (l: (m: LiveMessage) => void) => (listeners.add(l), () => listeners.delete(l)),
    onAlarmLists: (l: (s: AlarmSnapshot) => void) => (lists.add(l), () => lists.delete(l)),
    release: (f: LiveFrame) => released.push(f),
    dispose: vi.fn(),
  } as unknown as LiveStream;
  return {
    stream, released,
    emit: (m: LiveMessage) => listeners.forEach((l) => l(m)),
    snapshot: (ids: number[]) => lists.forEach((l) => l({ recent: ids.map((id) => ({ ...alarm(id) }) as unknown as AlarmItem) } as AlarmSnapshot)),
    listening: () => listeners.size + lists.size,
  };
}

describe('the wall ticker', () => {
  it('keeps the newest alarms first, once each, at most TICKER_MAX', () => {
    const a = mergeAlarms([alarm(1), alarm(2)], [alarm(3), alarm(2)]);
    expect(a.map((x) => x.id)).toEqual([3, 2, 1]);
    const many = mergeAlarms([], Array.from({ length: 100 }, (_, i) => alarm(i + 1)));
    expect(many).toHaveLength(TICKER_MAX);
    expect(many[0]!.id).toBe(100);
  });
});

describe('WallLive', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows pushed alarms at once, then changes the ticker at most every 2 s however fast alarms arrive', () => {
    const f = fakeStream();
    const live = new WallLive({ kind: 'display', key: 'wd.1.x' }, { map: false, crs: 'wgs84', companyId: null, stream: () => f.stream });
    const changes: number[][] = [];
    live.subscribe(() => changes.push(live.getState().alarms.map((a) => a.id)));
    f.snapshot([1]);
    expect(live.getState().alarms.map((a) => a.id)).toEqual([1]);
    for (let id = 2; id <= 9; id++) {
      f.snapshot([id]);
      vi.advanceTimersByTime(250);
    }
    // 8 snapshots in 2 s: one more change, holding all of them.
    expect(changes).toHaveLength(2);
    expect(live.getState().alarms.map((a) => a.id)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    vi.advanceTimersByTime(TICKER_INTERVAL_MS * 3);
    expect(changes).toHaveLength(2);
    live.dispose();
  });

  it('follows the stream connection, hands frames back when it has no map, and lets go of everything on dispose', () => {
    const f = fakeStream();
    const live = new WallLive({ kind: 'display', key: 'wd.1.x' }, { map: false, crs: 'wgs84', companyId: null, stream: () => f.stream });
    f.emit({ type: 'status', connection: 'reconnecting', attempt: 3 });
    expect(live.getState()).toMatchObject({ connection: 'reconnecting', attempt: 3 });
    const frame = { type: 'frame', count: 0 } as LiveFrame;
    f.emit(frame);
    expect(f.released).toEqual([frame]);
    live.dispose();
    expect(f.listening()).toBe(0);
    expect(f.stream.dispose).toHaveBeenCalled();
  });
});
