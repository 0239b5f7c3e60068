/**
 * Issue 13: a duty role saved without the `/global` alarm pop-up bit receives no pop-ups, and
 * nobody was warned. This rule says when a role's grant deserves that warning. Pure.
 *
 * A role "works with alarms" when it grants any route of the monitoring centre or of safety
 * management; it "receives the pop-up" under the same rule the console applies to users
 * (`globalAreaShows`): the `/global/alarm` record or any of its buttons.
 */
import { PERMISSION_REGISTRY, type RegistryEntry } from './registry.ts';

/** Top-level groups whose users handle alarms: monitoring and safety management. */
export const ALARM_WORK_GROUPS: readonly string[] = ['/monitor', '/safeManagement'];
export const ALARM_POPUP_KEY = '/global/alarm';

const byId = new Map<number, RegistryEntry>(PERMISSION_REGISTRY.map((e) => [e.id, e]));
const byKey = new Map<string, RegistryEntry>(PERMISSION_REGISTRY.map((e) => [e.key, e]));

/** The top-level group (pid 0) a record sits under, or undefined for an unknown id. */
function groupOf(id: number): RegistryEntry | undefined {
  let e = byId.get(id);
  while (e && e.pid !== 0) e = byId.get(e.pid);
  return e;
}

/** True when a role with these ids shows its users the alarm pop-up. */
export function grantsAlarmPopup(granted: ReadonlySet<number>): boolean {
  const area = byKey.get(ALARM_POPUP_KEY);
  if (!area) return true;
  if (granted.has(area.id)) return true;
  return PERMISSION_REGISTRY.some((e) => e.pid === area.id && granted.has(e.id));
}

/**
 * The alarm-work groups (registry entries, menu order) this grant reaches while it lacks the alarm
 * pop-up; empty when there is nothing to warn about.
 */
export function missingAlarmPopup(granted: ReadonlySet<number>): RegistryEntry[] {
  if (grantsAlarmPopup(granted)) return [];
  const groups = new Set<RegistryEntry>();
  for (const id of granted) {
    const g = groupOf(id);
    if (g && ALARM_WORK_GROUPS.includes(g.key) && id !== g.id) groups.add(g);
  }
  return [...groups].sort((a, b) => (a.menuIndex ?? 0) - (b.menuIndex ?? 0));
}
