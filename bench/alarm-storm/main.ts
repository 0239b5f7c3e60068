/**
 * Alarm storm console page (bench/alarm-storm.bench.ts): `window.startStorm({mode, url, token})`.
 *   pipeline — ours: createLiveStream (the real stream worker holds the socket, decodes and keeps the
 *              client-held alarm lists, src/live/stream/alarm-lists.ts); the main thread renders the
 *              list snapshot it posts at ≤ 4 Hz.
 *   baseline — a competent JSON console (CMSV6-/Traccar-style web client): the socket on the main
 *              thread in the JSON format (`format=json`, JSON.parse per message, as such consoles
 *              receive it), alarms gathered as they arrive and applied to the same four lists in React
 *              state once per animation frame (one state update per frame, not per alarm).
 * Both render the same view: the 20 newest alarms and the four list sizes.
 */
import { createElement as h, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { DealStatus } from '../../domain/alarms/engine.ts';
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

/**
 * A frame's alarms (oldest first) applied at once: new arrays once per frame, newest first,
 * one-per-vehicle lists keep each vehicle's newest.
 */
function addBatch(prev: NaiveLists, batch: readonly AlarmItem[]): NaiveLists {
  const newest = [...batch].reverse();
  const perVehicle = (list: AlarmItem[], incoming: AlarmItem[], max: number) => {
    const seen = new Set<number>();
    const out: AlarmItem[] = [];
    for (const a of [...incoming, ...list]) {
      if (out.length === max) break;
      if (seen.has(a.vehicleId)) continue;
      seen.add(a.vehicleId);
      out.push(a);
    }
    return out;
  };
  const offline = newest.filter((a) => a.alarmType === OFFLINE_ALARM_TYPE);
  const safety = newest.filter((a) => a.alarmType !== OFFLINE_ALARM_TYPE);
  const unprocessed = newest.filter((a) => a.dealStatus === DealStatus.Unprocessed);
  return {
    alarms: [...newest, ...prev.alarms].slice(0, ALARM_EVENTS_MAX),
    safety: safety.length === 0 ? prev.safety : perVehicle(prev.safety, safety, SAFETY_EVENTS_MAX),
    online: offline.length === 0 ? prev.online : perVehicle(prev.online, offline, ONLINE_EVENTS_MAX),
    duty: unprocessed.length === 0 ? prev.duty : [...unprocessed, ...prev.duty].slice(0, DUTY_EVENTS_MAX),
  };
}

function baseline(url: string, token: string): void {
  let apply: ((batch: readonly AlarmItem[]) => void) | undefined;
  function App() {
    const [lists, setLists] = useState<NaiveLists>({ alarms: [], safety: [], online: [], duty: [] });
    apply = (batch) => setLists((prev) => addBatch(prev, batch));
    const view: View = {
      recent: lists.alarms.slice(0, SNAPSHOT_RECENT),
      counts: { alarms: lists.alarms.length, safety: lists.safety.length, online: lists.online.length, duty: lists.duty.length },
    };
    return h(Panel, { view });
  }
  createRoot(document.getElementById('root')!).render(h(App));
  let pending: AlarmItem[] = [];
  let frame = 0;
  const flush = () => {
    frame = 0;
    const batch = pending;
    pending = [];
    apply?.(batch);
  };
  socket = new WebSocket(`${url}?format=json&token=${encodeURIComponent(token)}`);
  socket.onmessage = (e: MessageEvent<string>) => {
    const m = JSON.parse(e.data) as { commandType?: string; commandBody?: { data?: unknown } };
    if (m.commandType !== 'alarm') return;
    const a = toAlarmItem(m.commandBody?.data);
    if (!a) return;
    alarms++;
    pending.push(a);
    frame ||= requestAnimationFrame(flush);
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
