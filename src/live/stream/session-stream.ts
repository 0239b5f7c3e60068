/**
 * One push connection per signed-in console, shared by everything that needs it (the global alarm
 * pop-up in the shell, the monitor page). Each user takes a handle with `acquireLiveStream()` and
 * disposes it; the stream worker (and its socket) closes when the last handle goes. So the monitor
 * page rides on the connection the pop-up already holds instead of opening a second socket that
 * would receive the same frames and the same alarms (CONTEXT.md: why shared, not alarm-only).
 *
 * A handle joining a running stream gets the last connection status and alarm snapshot at once
 * (it missed them), and a fresh frame (resync), as if the stream had just started.
 */
import type { AlarmSnapshot } from './alarm-lists.ts';
import { createLiveStream, type LiveStream, type LiveStreamOptions } from './client.ts';
import type { LiveMessage, LiveStatus } from './protocol.ts';

interface Shared {
  stream: LiveStream;
  refs: number;
  /** Handle listeners of frames; with none, frames go straight back to the worker. */
  subscribers: number;
  status: LiveStatus | null;
  alarms: AlarmSnapshot | null;
}

let shared: Shared | null = null;
let factory: (opts: LiveStreamOptions) => LiveStream = createLiveStream;

/** Tests swap the worker-backed stream for a fake. */
export function setLiveStreamFactory(f: (opts: LiveStreamOptions) => LiveStream): void {
  factory = f;
}

/** Handles currently held (tests, diagnostics). */
export function liveStreamRefs(): number {
  return shared?.refs ?? 0;
}

/**
 * A handle on the session's stream; `dispose()` drops only this handle (and its listeners).
 * `opts` apply when this call starts the stream; later callers share it as it is.
 */
export function acquireLiveStream(opts: LiveStreamOptions = {}): LiveStream {
  if (!shared) {
    const stream = factory(opts);
    const s: Shared = { stream, refs: 0, subscribers: 0, status: null, alarms: null };
    stream.subscribe((m) => {
      if (m.type === 'status') s.status = m;
      // Without this the two buffer sets would stay on the main thread and frames would stop.
      else if (m.type === 'frame' && s.subscribers === 0) stream.release(m);
    });
    stream.onAlarmLists((snap) => {
      s.alarms = snap;
    });
    shared = s;
  }
  const s = shared;
  s.refs++;
  const offs = new Set<() => void>();
  let disposed = false;
  const track = (off: () => void) => {
    offs.add(off);
    return () => {
      if (offs.delete(off)) off();
    };
  };

  return {
    subscribe(listener: (msg: LiveMessage) => void) {
      const inner = s.stream.subscribe(listener);
      s.subscribers++;
      const inner2 = () => {
        inner();
        s.subscribers--;
      };
      const off = track(inner2);
      // Replay after the caller finished wiring itself (it may subscribe from its constructor).
      queueMicrotask(() => {
        if (offs.has(inner2) && s.status) listener(s.status);
      });
      s.stream.resync();
      return off;
    },
    onAlarm: (listener) => track(s.stream.onAlarm(listener)),
    onAlarmLists(listener) {
      const inner = s.stream.onAlarmLists(listener);
      const off = track(inner);
      queueMicrotask(() => {
        if (offs.has(inner) && s.alarms) listener(s.alarms);
      });
      return off;
    },
    onAlarmHandled: (listener) => track(s.stream.onAlarmHandled(listener)),
    onNoticeUnread: (listener) => track(s.stream.onNoticeUnread?.(listener) ?? (() => undefined)),
    onConfigChanged: (listener) => track(s.stream.onConfigChanged?.(listener) ?? (() => undefined)),
    alarmList: (kind) => s.stream.alarmList(kind),
    markAlarmsRead: () => s.stream.markAlarmsRead(),
    markAlarmHandled: (id, dealStatus) => s.stream.markAlarmHandled(id, dealStatus),
    resync: () => s.stream.resync(),
    release: (frame) => s.stream.release(frame),
    setDisplayCrs: (crs) => s.stream.setDisplayCrs(crs),
    lookup: (id) => s.stream.lookup(id),
    directory: (ids) => s.stream.directory(ids),
    idsInBounds: (w, so, e, n) => s.stream.idsInBounds(w, so, e, n),
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const off of [...offs]) off();
      offs.clear();
      s.refs--;
      if (s.refs === 0 && shared === s) {
        shared = null;
        s.stream.dispose();
      }
    },
  };
}
