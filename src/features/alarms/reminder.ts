/** musicReminder / audioReminder: a sound on the terminal's speaker (startFun), answered in a notification. */
import { notifications } from '@mantine/notifications';
import { isApiError } from '../../api/http.ts';
import { translate } from '../../i18n/index.ts';
import type { AlarmItem } from '../../live/stream/alarm-lists.ts';
import { startReminder, type ReminderSound } from './voice-api.ts';
import { VOICE_NS } from './voice-messages.ts';

export async function playReminder(a: AlarmItem, fun: ReminderSound): Promise<void> {
  try {
    const r = await startReminder(a.vehicleId, fun, a.id);
    notifications.show({ color: 'green', autoClose: 4000, message: translate(`reminder.${fun}`, { seconds: Math.round(r.durationMs / 1000) }, VOICE_NS) });
  } catch (e) {
    // An ApiError carries the server's message in the UI language (offline, no reply, intercom failed).
    notifications.show({ color: 'red', autoClose: 5000, message: isApiError(e) ? e.msg : String(e) });
  }
}
