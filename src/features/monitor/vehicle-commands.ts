/**
 * The vehicle menu's commands (spec §2 /global rightMenu, menu808): which entries a user sees and
 * which need the terminal online. The whole menu needs /global/rightMenu:menu808; each entry also
 * needs the bit the server checks for its call (the alarm pop-up's buttons under /global/alarm) and
 * the route it opens. Entries for features not built yet are listed (disabled) so operators know
 * they are coming instead of looking for them.
 */
import type { Access } from '../../../domain/permissions/access.ts';

export type VehicleCommand = 'live' | 'talk' | 'tts' | 'photo' | 'phone' | 'music' | 'audio' | 'obd' | 'obdLarge' | 'track' | 'alarms';

export interface CommandDef {
  readonly kind: VehicleCommand;
  /** Button bit under /global/alarm, when the entry has one. */
  readonly button?: string;
  /** Route the entry opens or whose call it makes (must be visible too). */
  readonly route?: string;
  /** Sends something to the terminal: disabled while the vehicle is offline. */
  readonly device: boolean;
}

export const ALARM_AREA = '/global/alarm';
export const MENU_AREA = '/global/rightMenu';
export const MENU_BUTTON = 'menu808';

export const COMMANDS: readonly CommandDef[] = [
  { kind: 'live', button: 'multiLive', route: '/monitor/videoMonitor', device: true },
  { kind: 'talk', button: 'talk', device: true },
  { kind: 'tts', button: 'ttsReminder', device: true },
  { kind: 'photo', button: 'photoSnap', device: true },
  { kind: 'phone', button: 'phoneReminder', device: true },
  { kind: 'music', button: 'musicReminder', device: true },
  { kind: 'audio', button: 'audioReminder', device: true },
  { kind: 'obd', button: 'obd', device: false },
  { kind: 'obdLarge', button: 'obdLargeVehicle', device: false },
  { kind: 'track', button: 'trackPlayback', route: '/monitor/trackPlaybackPage', device: false },
  { kind: 'alarms', route: '/safeManagement/alarmProcessingPage', device: false },
];

/** Menu entries whose issues have not landed yet: shown disabled and marked 未建 / not built yet. */
export const NOT_BUILT = ['params', 'fence', 'textMessage', 'terminalControl', 'tempTrack', 'upgrade'] as const;

export interface MenuEntry {
  readonly kind: VehicleCommand;
  readonly disabled: boolean;
}

/** The command entries one user sees for a vehicle; `online` undefined (not known yet) leaves them enabled. */
export function menuEntries(access: Access, online: boolean | undefined): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const c of COMMANDS) {
    if (c.button && !access.hasButton(ALARM_AREA, c.button)) continue;
    if (c.route && !access.canSeeRoute(c.route)) continue;
    out.push({ kind: c.kind, disabled: c.device && online === false });
  }
  return out;
}

/** Start of today (local time) for "track of today". */
export function startOfToday(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}
