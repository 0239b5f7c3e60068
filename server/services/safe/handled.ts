/**
 * "Alarms were handled" on the push channel (issue 13, one workflow, one truth): after a handling from
 * the processing list, the pop-up or the safety board commits, every console whose company scope holds
 * the alarms hears it within a tick and refreshes its list rows, board counts and pop-up queue. Without
 * it another operator's console showed the old state until its next refresh (the board every 30 s).
 */
import type { Storage } from '../../db/repositories.ts';
import { ALL_COMPANIES } from '../../db/scope.ts';
import type { AlarmHandled } from '../../push/hub.ts';

/** The push hub's side this needs (tests may pass a recorder). */
export interface HandledPublisher {
  publishHandled(companyPath: string, handled: AlarmHandled): void;
}

export interface Handling {
  readonly alarmIds: readonly number[];
  readonly dealStatus: number | null;
  readonly userId: number;
  readonly time: number;
  /** A board step: the item and its company (its alarms belong to the item's vehicle). */
  readonly board?: { readonly itemId: number; readonly companyPath: string };
}

/**
 * Publishes one `alarmHandled` message per company of the handled alarms, so a console sees only the
 * ids of its own companies (a branch console never learns a sibling branch's alarm ids). Runs after
 * the commit; a failed read is logged, never turned into a failure of the handling the user made.
 */
export async function publishHandling(push: HandledPublisher | undefined, storage: Storage, h: Handling, log?: { warn(obj: unknown, msg: string): void }): Promise<void> {
  if (!push) return;
  try {
    const base = { dealStatus: h.dealStatus, userId: h.userId, time: h.time };
    if (h.board) {
      push.publishHandled(h.board.companyPath, { ...base, alarmIds: [...h.alarmIds], boardItemId: h.board.itemId });
      return;
    }
    if (h.alarmIds.length === 0) return;
    const byCompany = new Map<string, number[]>();
    for (const a of await storage.alarms.getMany(ALL_COMPANIES, h.alarmIds)) {
      const ids = byCompany.get(a.companyPath);
      if (ids) ids.push(a.id);
      else byCompany.set(a.companyPath, [a.id]);
    }
    for (const [path, alarmIds] of byCompany) push.publishHandled(path, { ...base, alarmIds, boardItemId: null });
  } catch (err) {
    log?.warn({ err }, 'alarm handling not pushed');
  }
}
