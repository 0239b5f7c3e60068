/**
 * The vehicle menu's commands (spec §2 /global rightMenu, menu808): which entries a user sees and
 * which need the terminal online. The whole menu needs /global/rightMenu:menu808; each entry also
 * needs the bit the server checks for its call (the alarm pop-up's buttons under /global/alarm) and
 * the route it opens. Entries for features not built yet are listed (disabled) so operators know
 * they are coming instead of looking for them.
 */
import type { Access } from '../../../domain/permissions/access.ts';

export type VehicleCommand = 'live' | 'talk' | 'tts' | 'photo' | 'phone' | 'music' | 'audio' | 'obd' | 'obdLarge' | 'track' | 'alarms'
  | 'position' | 'tempTrack' | 'terminalControl' | 'attributes' | 'params' | 'fence' | 'commLog';

export interface CommandDef {
  readonly kind: VehicleCommand;
  /** Button bit the entry needs, when it has one: under /global/alarm unless `area` names another page. */
  readonly button?: string;
  readonly area?: string;
  /** Route the entry opens or whose call it makes (must be visible too). */
  readonly route?: string;
  /** Sends something to the terminal: disabled while the vehicle is offline. */
  readonly device: boolean;
}

export const ALARM_AREA = '/global/alarm';
export const MENU_AREA = '/global/rightMenu';
export const MENU_BUTTON = 'menu808';
/** The parameter screen whose `control` bit the server checks for the terminal tools. */
export const TERMINAL_TOOLS_AREA = '/information/params/baseParam';

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
  // The terminal tools (issue 17): one server call, POST command/terminalFun, behind baseParam:control
  // (server/services/terminal-params/api.md), so each entry needs exactly that bit: a separate menu bit
  // the server does not check would show an entry that answers 403.
  { kind: 'position', button: 'control', area: TERMINAL_TOOLS_AREA, device: true },
  { kind: 'tempTrack', button: 'control', area: TERMINAL_TOOLS_AREA, device: true },
  { kind: 'terminalControl', button: 'control', area: TERMINAL_TOOLS_AREA, device: true },
  { kind: 'attributes', button: 'control', area: TERMINAL_TOOLS_AREA, device: true },
  // Screens opened with the vehicle chosen: they work offline too (queued tasks, stored frames).
  { kind: 'params', route: TERMINAL_TOOLS_AREA, device: false },
  { kind: 'fence', route: '/monitor/shape_map', device: false },
  { kind: 'commLog', route: '/monitor/deviceLog', device: false },
];

/** Menu entries whose issues have not landed yet: shown disabled and marked 未建 / not built yet. */
export const NOT_BUILT = ['textMessage', 'upgrade'] as const;

export interface MenuEntry {
  readonly kind: VehicleCommand;
  readonly disabled: boolean;
}

/** The command entries one user sees for a vehicle; `online` undefined (not known yet) leaves them enabled. */
export function menuEntries(access: Access, online: boolean | undefined): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const c of COMMANDS) {
    if (c.button && !access.hasButton(c.area ?? ALARM_AREA, c.button)) continue;
    if (c.route && !access.canSeeRoute(c.route)) continue;
    out.push({ kind: c.kind, disabled: c.device && online === false });
  }
  return out;
}

/** 0x8105 command words offered by 终端控制 (JT/T 808 table 22/25); the ones that cut the terminal off ask twice. */
export const CONTROL_COMMANDS: readonly { command: number; key: string; drastic: boolean }[] = [
  { command: 4, key: 'reset', drastic: false },
  { command: 5, key: 'factoryReset', drastic: true },
  { command: 3, key: 'shutdown', drastic: true },
  { command: 6, key: 'closeData', drastic: true },
  { command: 7, key: 'closeWireless', drastic: true },
];

/** 临时跟踪 limits: 0x8202 interval WORD (s) and validity DWORD (s); a day at most from the menu. */
export const TRACKING_LIMITS = { intervalMin: 1, intervalMax: 3600, durationMin: 10, durationMax: 86_400 } as const;

/** Start of today (local time) for "track of today". */
export function startOfToday(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}
