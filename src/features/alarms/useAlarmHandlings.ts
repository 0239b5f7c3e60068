/**
 * Every handling a view showing alarm states must follow (issue 13, one workflow, one truth): this
 * window's and the console's other windows' (handled.ts), and every other operator's in scope, pushed
 * by the server (`alarmHandled`, src/live/stream) — plus a reconnect of the push socket, after which
 * handlings made meanwhile are unknown (`null`). The list and the board refetch their queries on it.
 */
import { useEffect, useRef } from 'react';
import { acquireLiveStream } from '../../live/stream/session-stream.ts';
import { onAlarmsHandled } from './handled.ts';

/** `ids` null: anything may have changed (the push socket reconnected). */
export type HandlingListener = (ids: readonly number[] | null) => void;

export function useAlarmHandlings(listener: HandlingListener): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const offLocal = onAlarmsHandled((ids) => latest.current(ids));
    // A handle on the session's one push connection (the pop-up's, when it runs): no second socket.
    const stream = acquireLiveStream();
    const offPush = stream.onAlarmHandled((notice) => latest.current(notice === null ? null : notice.alarmIds));
    return () => {
      offLocal();
      offPush();
      stream.dispose();
    };
  }, []);
}
