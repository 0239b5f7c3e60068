/**
 * The 0xF3A0 controller block (hjwsParam) each slag truck last acknowledged, read from the command
 * records the terminal-parameter service keeps (server/services/command-tasks): a set (0x8103) the
 * terminal answered with success carries the block it now holds in `content`; a query (0x8104/0x8106)
 * answered carries the block it reported in `answer`. The newest of them per vehicle wins.
 *
 * Read incrementally by record id (the primary key, a range scan), never on the report path: the box
 * service calls `refresh()` on its flush timer and the rules look the block up in memory. Records still
 * waiting for their answer hold the scan back (they are read again next time), but not for longer
 * than STALE_SENT_MS: a record a crash left 'sent' must not stop the register.
 */
import type { ActiveSafetyBlock } from '../../../domain/terminal-params/active-safety.ts';
import { HJWS_PARAM_ID } from '../../../domain/terminal-params/hjws.ts';
import { PARAM_MSG } from '../../gateway/jt808/parameters.ts';
import type { SqliteDb } from '../../db/sqlite.ts';

/** A record unanswered this long is given up on (answers come within seconds; ANSWER_TIMEOUT_MS). */
const STALE_SENT_MS = 10 * 60_000;
const BATCH = 1000;

interface Row { id: number; vehicle_id: number | null; msg_id: number; state: string; send_time: number; content: string; answer: string | null }

/** The block in a command record's item list (`{params: [{id, value}]}`), if it holds one. */
function blockIn(json: string | null): ActiveSafetyBlock | undefined {
  if (!json) return undefined;
  try {
    const parsed = JSON.parse(json) as { params?: { id: number; value: unknown }[] };
    const item = parsed.params?.find((p) => p.id === HJWS_PARAM_ID);
    return item && typeof item.value === 'object' && item.value !== null ? (item.value as ActiveSafetyBlock) : undefined;
  } catch {
    return undefined;
  }
}

export class ControllerParams {
  private readonly blocks = new Map<number, ActiveSafetyBlock>();
  /** Every record up to this id is settled and applied. */
  private watermark = 0;

  constructor(private readonly db: SqliteDb, private readonly clock: () => number = Date.now) {}

  /** The block the vehicle last acknowledged, if the platform ever set or read one. */
  of(vehicleId: number): ActiveSafetyBlock | undefined {
    return this.blocks.get(vehicleId);
  }

  /** Applies the records settled since the last call. */
  refresh(): void {
    // The block's id appears in the JSON as `"id":62368`: the LIKE spares parsing every other record.
    const like = `%"id":${HJWS_PARAM_ID}%`;
    const select = this.db.prepare(`SELECT id, vehicle_id, msg_id, state, send_time, content, answer FROM command_record
      WHERE id > ? AND msg_id IN (?, ?, ?) AND (content LIKE ? OR answer LIKE ?) ORDER BY id LIMIT ${BATCH}`);
    const now = this.clock();
    for (;;) {
      const rows = select.all(this.watermark, PARAM_MSG.SET, PARAM_MSG.QUERY_ALL, PARAM_MSG.QUERY_CHOSEN, like, like) as Row[];
      let held = false;
      for (const r of rows) {
        const waiting = (r.state === 'sent' || r.state === 'queued') && now - r.send_time < STALE_SENT_MS;
        if (waiting) held = true;
        else if (!held) this.watermark = r.id;
        if (r.state !== 'ok' || r.vehicle_id === null) continue;
        const block = r.msg_id === PARAM_MSG.SET ? blockIn(r.content) : blockIn(r.answer);
        if (block) this.blocks.set(r.vehicle_id, block);
      }
      if (rows.length < BATCH || held) return;
    }
  }
}
