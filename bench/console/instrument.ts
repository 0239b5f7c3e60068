/**
 * Main-thread scripting time per animation frame, measured in the page: every requestAnimationFrame
 * callback (deck.gl's and maplibre's render loops) and every Worker 'message' handler (our frames,
 * maplibre's tile results) is timed; a frame's total is what ran since the previous frame began.
 * Only frames that applied a position update are sampled (`markUpdate`), so both pipelines are
 * compared per update. Imported first, before maplibre creates its workers.
 */
let acc = 0;
let total = 0;
let lastTs = -1;
let updated = false;
let recording = false;
const samples: number[] = [];
let updates = 0;

function timed<A extends unknown[], R>(fn: (...a: A) => R): (...a: A) => R {
  return function (this: unknown, ...a: A): R {
    const t = performance.now();
    try {
      return fn.apply(this, a);
    } finally {
      const d = performance.now() - t;
      acc += d;
      if (recording) total += d;
    }
  };
}

const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb: FrameRequestCallback): number =>
  raf((ts) => {
    if (ts !== lastTs) {
      if (lastTs >= 0 && recording && updated) samples.push(acc);
      acc = 0;
      updated = false;
      lastTs = ts;
    }
    timed(cb)(ts);
  });

const add = Worker.prototype.addEventListener;
Worker.prototype.addEventListener = function (this: Worker, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
  const l = type === 'message' && typeof listener === 'function' ? timed(listener) : listener;
  if (l) add.call(this, type, l, options);
} as typeof Worker.prototype.addEventListener;
const onmessage = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
if (onmessage?.set) {
  Object.defineProperty(Worker.prototype, 'onmessage', {
    ...onmessage,
    set(this: Worker, fn: ((e: MessageEvent) => void) | null) {
      onmessage.set!.call(this, fn ? timed(fn) : fn);
    },
  });
}

export function markUpdate(): void {
  updated = true;
  // A TimeStamp event in the trace: the bench counts which frames applied an update.
  if (recording) console.timeStamp('bench-update');
  if (recording) updates++;
}

export function startRecording(): void {
  samples.length = 0;
  updates = 0;
  total = 0;
  recording = true;
}

export function stopRecording(): { samples: number[]; updates: number; totalMs: number } {
  recording = false;
  return { samples: [...samples], updates, totalMs: total };
}
