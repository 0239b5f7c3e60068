/**
 * Synthetic live source for the console bench: N vehicles driving in circles around Chinese cities.
 * 'binary' mode posts typed-array frames shaped like the stream worker's (transferred, double
 * buffered: a frame is sent only when the page handed a buffer set back); 'json' mode posts the JSON
 * text a Traccar-style socket would carry, one message per tick after the page asked for it.
 */
interface Start {
  type: 'start';
  mode: 'binary' | 'json';
  count: number;
  /** Half-width (degrees) of the square around a city each vehicle starts in. @default 0.5 (a region) */
  spread?: number;
  /** Radius (degrees) of each vehicle's circle. @default 0.02 */
  orbit?: number;
}
interface Ask {
  type: 'next';
  buffers?: { ids: Int32Array; positions: Float32Array; headings: Float32Array; states: Uint8Array; alarm: Uint8Array };
}

const CENTRES = [
  [116.41, 39.9], [121.47, 31.23], [113.26, 23.13], [114.06, 22.54], [104.07, 30.57], [106.55, 29.56], [108.94, 34.34],
  [114.31, 30.59], [120.16, 30.27], [118.8, 32.06], [117.2, 39.13], [113.63, 34.75], [112.94, 28.23], [123.43, 41.8],
];
let count = 0;
let mode: Start['mode'] = 'binary';
let baseLng = new Float64Array(0);
let baseLat = new Float64Array(0);
let phase = new Float64Array(0);
let t0 = 0;
let orbit = 0.02;
const pool: Ask['buffers'][] = [];
const scope = self as unknown as { postMessage(msg: unknown, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<Start | Ask>) => void) | null };

function setup(n: number, spread: number): void {
  count = n;
  baseLng = new Float64Array(n);
  baseLat = new Float64Array(n);
  phase = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = CENTRES[i % CENTRES.length] as number[];
    baseLng[i] = (c[0] as number) + (((i * 7919) % 1000) / 1000 - 0.5) * 2 * spread;
    baseLat[i] = (c[1] as number) + (((i * 104729) % 1000) / 1000 - 0.5) * 2 * spread;
    phase[i] = i;
  }
  const make = () => ({ ids: new Int32Array(n), positions: new Float32Array(2 * n), headings: new Float32Array(n), states: new Uint8Array(n), alarm: new Uint8Array(n) });
  pool.length = 0;
  pool.push(make(), make());
  t0 = performance.now();
}

function send(buffers?: Ask['buffers']): void {
  const t = (performance.now() - t0) / 1000;
  if (mode === 'binary') {
    const b = buffers ?? pool.pop();
    if (!b) return;
    for (let i = 0; i < count; i++) {
      const a = phase[i]! + t * 0.05;
      b.ids[i] = i + 1;
      b.positions[2 * i] = baseLng[i]! + orbit * Math.cos(a);
      b.positions[2 * i + 1] = baseLat[i]! + orbit * Math.sin(a);
      b.headings[i] = ((a * 180) / Math.PI) % 360;
      b.states[i] = 2 + (i % 3);
      b.alarm[i] = i % 97 === 0 ? 1 : 0;
    }
    scope.postMessage({ type: 'frame', count, ...b }, [b.ids.buffer, b.positions.buffer, b.headings.buffer, b.states.buffer, b.alarm.buffer]);
  } else {
    const list = new Array(count);
    for (let i = 0; i < count; i++) {
      const a = phase[i]! + t * 0.05;
      list[i] = { deviceId: i + 1, latitude: baseLat[i]! + orbit * Math.sin(a), longitude: baseLng[i]! + orbit * Math.cos(a), course: ((a * 180) / Math.PI) % 360, speed: 30, attributes: { motion: true } };
    }
    scope.postMessage({ type: 'json', text: JSON.stringify({ positions: list }) });
  }
}

/** The stream worker hands the page at most one frame per animation frame: tick at 60 Hz. */
const TICK_MS = 16;
let asked = false;
scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'start') {
    mode = m.mode;
    orbit = m.orbit ?? 0.02;
    setup(m.count, m.spread ?? 0.5);
    asked = true;
    setInterval(() => {
      if (mode === 'binary') {
        if (pool.length > 0) send(pool.pop());
      } else if (asked) {
        asked = false;
        send();
      }
    }, TICK_MS);
  } else if (m.buffers) {
    pool.push(m.buffers);
  } else {
    asked = true;
  }
};
