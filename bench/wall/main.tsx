/**
 * Wall soak bench page: the real wall (WallFrame of src/features/walls with the overallMonitoring
 * preset: map, eight data panels, rolling alarms) at the page's size, fed by
 * - the product's live stream (createLiveStream: the real stream worker, decode, fleet state, frames)
 *   connected to the console bench's feeder (bench/console/feed.ts, in the bench's Node process: N
 *   vehicles' binary push messages at 1 Hz), with alarm-list snapshots at ≤ 4 Hz holding the 20 newest
 *   alarms made here, alarms raised at `rate` per vehicle-hour of simulated time (the feeder carries no
 *   alarms; the lists are what the stream worker would post);
 * - an in-page fake of the walls' calls (figures follow the generated fleet and alarms).
 * Query: `?vehicles=N&accel=A&rate=R&feed=ws://…`. `window.soak` reports simulated minutes and counters.
 */
import './accelerate.ts';
import { markUpdate, startRecording, stopRecording } from '../console/instrument.ts';
import '@mantine/core/styles.css';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { DEFAULT_PRESETS } from '../../domain/walls/preset.ts';
import { i18n } from '../../src/i18n/index.ts';
import { createQueryClient } from '../../src/kit/query.ts';
import { createLiveStream, type LiveStream } from '../../src/live/stream/client.ts';
import type { AlarmItem, AlarmSnapshot } from '../../src/live/stream/alarm-lists.ts';
import { WallFrame, type PresetAnswer } from '../../src/features/walls/WallPage.tsx';
import type { WallLiveOptions } from '../../src/features/walls/wall-live.ts';
import { ACCEL } from './accelerate.ts';

const params = new URLSearchParams(location.search);
const N = Number(params.get('vehicles') ?? '20000');
/** Alarms per vehicle per hour of simulated time (a fleet with ADAS/DMS raises about this many). */
const RATE = Number(params.get('rate') ?? '0.5');
/** Simulated time starts when the bench says the wall is up (`soak.begin()`): loading a 4K page is not part of the soak. */
let t0 = -1;
const simMs = () => (t0 < 0 ? 0 : (performance.now() - t0) * ACCEL);

// ---- generated alarms (the fleet's "truth" the fake calls and the stream agree on) ------------
const TYPES = [10001, 10002, 10003, 10006, 10007, 12001, 17001, 10013];
const LEVELS = ['high', 'medium', 'low', 'ordinary'];
let nextId = 1;
let raised = 0;
let recent: AlarmItem[] = [];
const byType = new Map<number, number>();
const byLevel = new Map<string, number>();
const plate = (v: number) => `京A${String(v % 100_000).padStart(5, '0')}`;

function raise(k: number): void {
  const now = Date.now();
  const fresh: AlarmItem[] = [];
  for (let i = 0; i < k; i++) {
    const id = nextId++;
    const vehicleId = 1 + ((id * 7919) % N);
    const alarmType = TYPES[id % TYPES.length]!;
    const riskLevel = LEVELS[id % LEVELS.length]!;
    byType.set(alarmType, (byType.get(alarmType) ?? 0) + 1);
    byLevel.set(riskLevel, (byLevel.get(riskLevel) ?? 0) + 1);
    fresh.push({
      id, alarmType, alarmName: '', vehicleId, vehiidno: plate(vehicleId), devidno: String(vehicleId), companyId: 1 + (vehicleId % 10), companyName: `分公司${1 + (vehicleId % 10)}`,
      channelId: 0, gpsTime: now, createTime: now, lng: 116, lat: 39, speed: 60 + (id % 40), riskLevel, dealStatus: 0, dealType: null, count: 1, source: 'adas', popup: true, voice: false,
    });
  }
  raised += k;
  // What the stream worker's lists keep for a snapshot: the 20 newest.
  recent = [...fresh.reverse(), ...recent].slice(0, 20);
}

// ---- the walls' calls, answered in the page ---------------------------------------------------
const envelope = (data: unknown) => new Response(JSON.stringify({ code: 200, msg: '成功', data }), { headers: { 'content-type': 'application/json' } });
function answer(path: string): unknown {
  const online = Math.round(N * (0.8 + 0.05 * Math.sin(simMs() / 600_000)));
  const total = raised;
  switch (path) {
    case '/service-monitor/screen/V3/realtimestat':
      return { vehicleTotal: N, vehicleOnline: online, vehicleTodayOnline: online, vehicleRunning: Math.round(online * 0.6), vehicleStop: Math.round(online * 0.3), vehicleIdle: online - Math.round(online * 0.6) - Math.round(online * 0.3), vehicleOffline: N - online, vehicleNeverOnline: 0, onlineRate: Math.round((online / N) * 10_000) / 100 };
    case '/service-monitor/screen/V3/getUserAlarmData':
      return { date: '', total, unprocessed: total, vehicles: Math.min(N, total), types: [...byType.entries()].map(([alarmType, count]) => ({ alarmType, name: String(alarmType), count, unprocessed: count })), otherTypes: 0 };
    case '/service-monitor/screen/V3/getWeekUserAlarmData':
      return { days: Array.from({ length: 8 }, (_, i) => ({ date: `2026-11-${String(18 + i).padStart(2, '0')}`, count: i === 7 ? total : 1000 + i * 50, unprocessed: 0, today: i === 7 })) };
    case '/service-safesheet/screen/synplatformlevel':
      return { date: '', levels: LEVELS.map((level) => ({ level, count: byLevel.get(level) ?? 0, unprocessed: 0 })), total, processedRate: 50 };
    case '/service-safesheet/screen/synvehicle':
      return { companies: Array.from({ length: 10 }, (_, i) => ({ companyId: i + 1, companyName: `分公司${i + 1}`, total: Math.round(N / 10), online: Math.round(online / 10), onlineRate: Math.round((online / N) * 100) })), more: 0 };
    case '/service-safesheet/screenV2/realtimeAlarms':
      return { total: recent.length, records: recent.map((a) => ({ ...a })) };
    case '/service-monitor/screen/V3/getVehicleLast':
      return { records: Array.from({ length: 12 }, (_, i) => ({ vehicleId: i + 1, vehiidno: plate(i + 1), companyName: '分公司1', speed: 50, state: 2, online: true, lastContact: Date.now() - i * 1000 })) };
    default:
      return null;
  }
}
const realFetch = window.fetch.bind(window);
window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const u = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href);
  const data = answer(u.pathname);
  return data === null ? realFetch(input, init) : Promise.resolve(envelope(data));
};

// ---- the live stream: the real worker on the bench's feeder, alarm lists made here ---------------
const FEED = params.get('feed') ?? '';
function benchStream(): LiveStream {
  const stream = createLiveStream({ url: `${FEED}?count=${N}&mode=binary`, token: () => 'bench', reconnectAttempts: 0 });
  const lists = new Set<(s: AlarmSnapshot) => void>();
  let version = 0;
  // The stream worker's cadence for list snapshots: ≤ 4 Hz, after a change (real time, not accelerated).
  let handle = 0;
  const tick = () => {
    // Alarms due by the simulated clock (a busy main thread delays this timer; the count stays exact).
    const k = Math.floor((simMs() * N * RATE) / 3_600_000) - raised;
    if (k > 0) {
      raise(k);
      version++;
      const snap = { version, unread: raised, recent, popup: [], popupCount: 0, voiceCount: 0, counts: { alarms: raised, safety: 0, online: 0, duty: 0 }, rejected: 0, missed: 0, missedCapped: false } as AlarmSnapshot;
      for (const l of lists) l(snap);
    }
    handle = window.setTimeout(tick, 250);
  };
  handle = window.setTimeout(tick, 250);
  return {
    ...stream,
    onAlarmLists(l) {
      lists.add(l);
      return () => lists.delete(l);
    },
    dispose() {
      window.clearTimeout(handle);
      stream.dispose();
    },
  };
}

const LIVE: Pick<WallLiveOptions, 'stream' | 'mapOptions'> = { stream: () => benchStream(), mapOptions: { onApplied: () => markUpdate() } };
const ANSWER: PresetAnswer = {
  wall: 'overallMonitoring', preset: DEFAULT_PRESETS.overallMonitoring, stored: false, companyId: null, companyOutsideViewer: false, viewer: { kind: 'display', name: 'soak' },
};
const queryClient = createQueryClient();

createRoot(document.getElementById('root')!).render(
  <I18nextProvider i18n={i18n}>
    <MantineProvider forceColorScheme="dark">
      <QueryClientProvider client={queryClient}>
        <WallFrame wall="overallMonitoring" auth={{ kind: 'display', key: 'wd.1.bench' }} answer={ANSWER} liveOptions={LIVE} />
      </QueryClientProvider>
    </MantineProvider>
  </I18nextProvider>,
);

Object.assign(window, {
  soak: {
    begin: () => {
      t0 = performance.now();
    },
    simMinutes: () => simMs() / 60_000,
    alarms: () => raised,
    tickerRows: () => document.querySelectorAll('[data-testid=wall-alarm]').length,
    domNodes: () => document.getElementsByTagName('*').length,
    frames: () => Number(document.querySelector('[data-testid=wall-map]')?.getAttribute('data-frames') ?? '0'),
    startRecording,
    stopRecording,
  },
});
document.title = 'ready';
