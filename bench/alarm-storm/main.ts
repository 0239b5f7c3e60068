/**
 * Alarm storm console page (bench/alarm-storm.bench.ts): `window.startStorm({mode, url, token})`.
 *   pipeline — ours: createLiveStream (the real stream worker holds the socket, decodes and keeps the
 *              client-held alarm lists, src/live/stream/alarm-lists.ts); the main thread renders the
 *              list snapshot it posts at ≤ 4 Hz.
 *   baseline — the naive console: the socket and PushDecoder on the main thread, the same four lists
 *              kept in React state and updated (immutably) on every alarm message.
 * Both render the same view: the 20 newest alarms and the four list sizes.
 */
import { createElement as h, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { DealStatus } from '../../domain/alarms/engine.ts';
import { PushDecoder } from '../../proto/codec.ts';
import {
  ALARM_EVENTS_MAX, DUTY_EVENTS_MAX, OFFLINE_ALARM_TYPE, ONLINE_EVENTS_MAX, SAFETY_EVENTS_MAX, SNAPSHOT_RECENT, toAlarmItem,
  type AlarmItem, type AlarmSnapshot,
} from '../../src/live/stream/alarm-lists.ts';
import { createLiveStream, type LiveStream } from '../../src/live/stream/client.ts';

interface View {
  recent: readonly AlarmItem[];
  counts: Record<'alarms' | 'safety' | 'online' | 'duty', number>;
}

let renders = 0;
let alarms = 0;
let stream: LiveStream | undefined;
let socket: WebSocket | undefined;

function Panel({ view }: { view: View }) {
  renders++;
  return h('div', null,
    h('p', null, `alarms ${view.counts.alarms} · safety ${view.counts.safety} · online ${view.counts.online} · duty ${view.counts.duty}`),
    h('table', null, h('tbody', null, view.recent.map((a) => h('tr', { key: a.id },
      h('td', null, a.vehiidno), h('td', null, a.alarmName), h('td', null, a.riskLevel), h('td', null, new Date(a.gpsTime).toISOString()),
      h('td', null, a.speed.toFixed(1)))))));
}

const EMPTY: View = { recent: [], counts: { alarms: 0, safety: 0, online: 0, duty: 0 } };

/** Ours: the worker's snapshots through an external store. */
function pipeline(url: string, token: string): void {
  let view: View = EMPTY;
  const listeners = new Set<() => void>();
  stream = createLiveStream({ url, token: () => token, reconnectAttempts: 0 });
  stream.onAlarmLists((s: AlarmSnapshot) => {
    alarms = s.unread;
    view = { recent: s.recent, counts: s.counts };
    for (const l of listeners) l();
  });
  const subscribe = (l: () => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  function App() {
    const v = useSyncExternalStore(subscribe, () => view);
    return h(Panel, { view: v });
  }
  createRoot(document.getElementById('root')!).render(h(App));
}

interface NaiveLists {
  alarms: AlarmItem[];
  safety: AlarmItem[];
  online: AlarmItem[];
  duty: AlarmItem[];
}

/** The naive way: new arrays on every message, one-per-vehicle lists by filtering. */
function addNaive(prev: NaiveLists, a: AlarmItem): NaiveLists {
  const perVehicle = (list: AlarmItem[], max: number) => [a, ...list.filter((x) => x.vehicleId !== a.vehicleId)].slice(0, max);
  return {
    alarms: [a, ...prev.alarms].slice(0, ALARM_EVENTS_MAX),
    safety: a.alarmType === OFFLINE_ALARM_TYPE ? prev.safety : perVehicle(prev.safety, SAFETY_EVENTS_MAX),
    online: a.alarmType === OFFLINE_ALARM_TYPE ? perVehicle(prev.online, ONLINE_EVENTS_MAX) : prev.online,
    duty: a.dealStatus === DealStatus.Unprocessed ? [a, ...prev.duty].slice(0, DUTY_EVENTS_MAX) : prev.duty,
  };
}

function baseline(url: string, token: string): void {
  let push: ((a: AlarmItem) => void) | undefined;
  function App() {
    const [lists, setLists] = useState<NaiveLists>({ alarms: [], safety: [], online: [], duty: [] });
    push = (a) => setLists((prev) => addNaive(prev, a));
    const view: View = {
      recent: lists.alarms.slice(0, SNAPSHOT_RECENT),
      counts: { alarms: lists.alarms.length, safety: lists.safety.length, online: lists.online.length, duty: lists.duty.length },
    };
    return h(Panel, { view });
  }
  createRoot(document.getElementById('root')!).render(h(App));
  const decoder = new PushDecoder();
  socket = new WebSocket(`${url}?token=${encodeURIComponent(token)}`);
  socket.binaryType = 'arraybuffer';
  socket.onmessage = (e: MessageEvent<ArrayBuffer>) => {
    const m = decoder.decode(new Uint8Array(e.data));
    if (m.commandType !== 'alarm' || m.body.type !== 'json') return;
    const a = toAlarmItem((m.body.value as { data?: unknown } | null)?.data);
    if (!a) return;
    alarms++;
    push?.(a);
  };
}

async function startStorm(o: { mode: 'pipeline' | 'baseline'; url: string; token: string }): Promise<void> {
  if (o.mode === 'pipeline') pipeline(o.url, o.token);
  else baseline(o.url, o.token);
  // Let the socket open and the first snapshot land before the storm starts.
  await new Promise((r) => setTimeout(r, 1500));
  renders = 0;
}

function stopStorm(): { alarms: number; renders: number } {
  const out = { alarms, renders };
  stream?.dispose();
  socket?.close();
  return out;
}

Object.assign(window, { startStorm, stopStorm });
document.title = 'ready';
