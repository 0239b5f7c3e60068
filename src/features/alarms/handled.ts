/**
 * "Alarms were handled": one signal for every view that shows alarms or what they lead to (issue 13,
 * "one workflow, one truth"). The processing list, its detail, the pop-up's quick handle and the
 * safety board's resolve / unpush announce here after the server accepted the handling; the list
 * refreshes those rows, the board reloads its cards and items (a handled pending item may have
 * resolved itself on the server). Without this, a board open in another tab kept "0 resolved today"
 * until a reload, because its live refresh only reacted to NEW alarms on the session stream.
 *
 * Other windows of the same console (a wall, a second tab) hear it through a BroadcastChannel.
 * Handlings by another operator arrive over the push channel (`alarmHandled`); views take both
 * through `useAlarmHandlings.ts`.
 */

export type HandledListener = (alarmIds: readonly number[]) => void;

const CHANNEL = 'console-alarms-handled';
const listeners = new Set<HandledListener>();
let channel: BroadcastChannel | null | undefined;

function emit(ids: readonly number[]): void {
  for (const l of [...listeners]) l(ids);
}

function channelOf(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
  channel?.addEventListener('message', (e: MessageEvent<unknown>) => {
    const ids = (e.data as { ids?: unknown } | null)?.ids;
    if (Array.isArray(ids) && ids.every((x) => Number.isInteger(x))) emit(ids as number[]);
  });
  return channel;
}

/** Tells every view here and in the console's other windows that these alarms were handled. */
export function announceAlarmsHandled(alarmIds: readonly number[]): void {
  emit(alarmIds);
  channelOf()?.postMessage({ ids: [...alarmIds] });
}

/** Listens for handlings (this window's and the other windows'); answers the unsubscribe. */
export function onAlarmsHandled(listener: HandledListener): () => void {
  channelOf();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
