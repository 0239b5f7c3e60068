import { BOARD_STATES, closesWhenAlarmsHandled, OPEN_BOARD_STATES, worseRisk, type BoardAction, type BoardChange, type BoardState } from '../../../domain/alarms/board.ts';
import type { RiskLevel } from '../../../domain/alarms/sources.ts';
import type { BoardActor, BoardFilter, BoardItemRecord, BoardLogEntry, BoardRepository, BoardStat } from '../board-types.ts';
import { scopeCondition, type Scope } from '../scope.ts';
import type { SqliteDb } from '../sqlite.ts';
import { placeholders } from './rows.ts';

interface ItemRowDb {
  id: number; vehicle_id: number; vehiidno: string; device_no: string; company_id: number; company_name: string; path: string; state: BoardState;
  risk_level: RiskLevel; alarm_count: number; first_alarm_time: number; last_alarm_time: number; last_alarm_type: number; note: string;
  next_follow_time: number | null; follow_count: number; report_time: number | null; close_time: number | null; mute_until: number | null;
  handler_user_id: number | null; handler_name: string; create_time: number; update_time: number;
}

const toItem = (r: ItemRowDb): BoardItemRecord => ({
  id: r.id, vehicleId: r.vehicle_id, vehiidno: r.vehiidno, deviceNo: r.device_no, companyId: r.company_id, companyName: r.company_name,
  companyPath: r.path, state: r.state, riskLevel: r.risk_level, alarmCount: r.alarm_count, firstAlarmTime: r.first_alarm_time,
  lastAlarmTime: r.last_alarm_time, lastAlarmType: r.last_alarm_type, note: r.note, nextFollowTime: r.next_follow_time, followCount: r.follow_count,
  reportTime: r.report_time, closeTime: r.close_time, muteUntil: r.mute_until, handlerUserId: r.handler_user_id, handlerName: r.handler_name,
  createTime: r.create_time, updateTime: r.update_time,
});

const SELECT = `SELECT i.*, v.vehiidno, v.device_no, c.name AS company_name, c.path FROM board_item i
                JOIN vehicle v ON v.id = i.vehicle_id JOIN company c ON c.id = i.company_id`;
const OPEN = `('${OPEN_BOARD_STATES.join("', '")}')`;
/** Board alarms read per statement while catching up. */
const INGEST_BATCH = 5000;

export class SqliteBoardRepository implements BoardRepository {
  constructor(private readonly db: SqliteDb) {}

  /** The ingest statements, prepared once per level list (every board read runs them). */
  private ingestStatements: { key: string; s: ReturnType<SqliteBoardRepository['prepareIngest']> } | undefined;

  async ingest(levels: readonly RiskLevel[], notBefore: number): Promise<{ opened: number; joined: number }> {
    const key = levels.join(',');
    if (this.ingestStatements?.key !== key) this.ingestStatements = { key, s: this.prepareIngest(levels) };
    const { mark: markOf, top: topOf, open, insertItem, join, link, log, sync, candidates } = this.ingestStatements.s;
    const db = this.db;
    const counts = { opened: 0, joined: 0 };
    db.transaction(() => {
      let mark = (markOf.get() as { last_alarm_id: number } | undefined)?.last_alarm_id ?? 0;
      const top = (topOf.get() as { id: number | null }).id ?? 0;
      if (top <= mark) return;
      for (;;) {
        const rows = candidates.all(mark, top, notBefore, ...levels) as
          { id: number; vehicle_id: number; company_id: number; alarm_type: number; start_time: number; risk_level: RiskLevel; create_time: number }[];
        for (const a of rows) {
          const item = open.get(a.vehicle_id, a.create_time) as { id: number; risk_level: RiskLevel; state: BoardState; last_alarm_time: number } | undefined;
          if (item) {
            join.run(worseRisk(item.risk_level, a.risk_level), Math.max(item.last_alarm_time, a.start_time), a.alarm_type, a.create_time, item.id);
            link.run(a.id, item.id);
            log.run(item.id, 'alarm', item.state, item.state, a.id, a.alarm_type, a.create_time);
            counts.joined++;
          } else {
            const id = Number(insertItem.run(a.vehicle_id, a.company_id, a.risk_level, a.start_time, a.start_time, a.alarm_type, a.create_time, a.create_time).lastInsertRowid);
            link.run(a.id, id);
            log.run(id, 'open', null, 'pending', a.id, a.alarm_type, a.create_time);
            counts.opened++;
          }
        }
        if (rows.length < INGEST_BATCH) break;
        mark = rows.at(-1)!.id;
      }
      sync.run(top);
    })();
    return counts;
  }

  async behind(): Promise<boolean> {
    const mark = (this.db.prepare('SELECT last_alarm_id FROM board_sync WHERE id = 1').get() as { last_alarm_id: number } | undefined)?.last_alarm_id ?? 0;
    const top = (this.db.prepare('SELECT max(id) AS id FROM alarm').get() as { id: number | null }).id ?? 0;
    return top > mark;
  }

  private prepareIngest(levels: readonly RiskLevel[]) {
    const db = this.db;
    const open = db.prepare(`SELECT id, risk_level, state, last_alarm_time FROM board_item
                             WHERE vehicle_id = ? AND (state IN ${OPEN} OR (state = 'unpushed' AND mute_until > ?)) ORDER BY id DESC LIMIT 1`);
    const insertItem = db.prepare(`INSERT INTO board_item (vehicle_id, company_id, state, risk_level, first_alarm_time, last_alarm_time, last_alarm_type, create_time, update_time)
                                   VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?)`);
    const join = db.prepare(`UPDATE board_item SET alarm_count = alarm_count + 1, risk_level = ?, last_alarm_time = ?, last_alarm_type = ?, update_time = ? WHERE id = ?`);
    const link = db.prepare('INSERT OR IGNORE INTO board_item_alarm (alarm_id, item_id) VALUES (?, ?)');
    const log = db.prepare(`INSERT INTO board_log (item_id, user_id, username, action, from_state, to_state, alarm_id, alarm_type, create_time)
                            VALUES (?, NULL, '', ?, ?, ?, ?, ?, ?)`);
    const sync = db.prepare(`INSERT INTO board_sync (id, last_alarm_id) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_alarm_id = excluded.last_alarm_id`);
    // Only the alarms that can reach the board are read (deal status as it is now: an alarm handled before
    // the board saw it needs no item), so a long backlog of other alarms costs one range scan, not rows.
    const candidates = db.prepare(`SELECT id, vehicle_id, company_id, alarm_type, start_time, risk_level, create_time FROM alarm
                                   WHERE id > ? AND id <= ? AND deal_status = 0 AND start_time >= ? AND risk_level IN (${placeholders(levels.length)})
                                   ORDER BY id LIMIT ${INGEST_BATCH}`);
    const mark = db.prepare('SELECT last_alarm_id FROM board_sync WHERE id = 1');
    const top = db.prepare('SELECT max(id) AS id FROM alarm');
    return { mark, top, open, insertItem, join, link, log, sync, candidates };
  }

  async get(scope: Scope, id: number): Promise<BoardItemRecord | undefined> {
    const s = scopeCondition(scope, 'c');
    const row = this.db.prepare(`${SELECT} WHERE i.id = ? AND ${s.sql}`).get(id, ...s.params) as ItemRowDb | undefined;
    return row && toItem(row);
  }

  async page(scope: Scope, f: BoardFilter, offset: number, limit: number): Promise<{ total: number; records: BoardItemRecord[] }> {
    const s = scopeCondition(scope, 'c');
    const where: string[] = [s.sql];
    const params: (string | number)[] = [...s.params];
    const inList = (column: string, values: readonly (string | number)[] | undefined) => {
      if (values === undefined || values.length === 0) return;
      where.push(`${column} IN (${placeholders(values.length)})`);
      params.push(...values);
    };
    inList('i.state', f.states !== undefined && f.states.length > 0 ? f.states : OPEN_BOARD_STATES);
    inList('i.risk_level', f.riskLevels);
    inList('i.vehicle_id', f.vehicleIds);
    if (f.overdueAt !== undefined) {
      where.push(`i.state = 'following' AND i.next_follow_time < ?`);
      params.push(f.overdueAt);
    }
    const cond = where.join(' AND ');
    const total = (this.db.prepare(`SELECT count(*) AS n FROM board_item i JOIN company c ON c.id = i.company_id WHERE ${cond}`).get(...params) as { n: number }).n;
    // High risk first, then the newest activity.
    const rows = this.db.prepare(`${SELECT} WHERE ${cond} ORDER BY CASE i.risk_level WHEN 'high' THEN 0 ELSE 1 END, i.last_alarm_time DESC, i.id DESC LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as ItemRowDb[];
    return { total, records: rows.map(toItem) };
  }

  async stat(scope: Scope, now: number, closedSince: number): Promise<BoardStat> {
    const s = scopeCondition(scope, 'c');
    const rows = this.db.prepare(`SELECT i.state, i.risk_level, count(*) AS n, sum(i.state = 'following' AND i.next_follow_time < ?) AS overdue
                                  FROM board_item i JOIN company c ON c.id = i.company_id
                                  WHERE ${s.sql} AND (i.state IN ${OPEN} OR i.close_time >= ?) GROUP BY i.state, i.risk_level`)
      .all(now, ...s.params, closedSince) as { state: BoardState; risk_level: RiskLevel; n: number; overdue: number | null }[];
    const stat = { pending: 0, following: 0, reported: 0, overdue: 0, resolved: 0, unpushed: 0, high: 0, medium: 0 };
    for (const r of rows) {
      stat[r.state] += r.n;
      stat.overdue += r.overdue ?? 0;
      if (OPEN_BOARD_STATES.includes(r.state) && (r.risk_level === 'high' || r.risk_level === 'medium')) stat[r.risk_level] += r.n;
    }
    return stat;
  }

  async apply(id: number, from: BoardState, change: BoardChange, note: string, actor: BoardActor, now: number, action: BoardAction): Promise<boolean> {
    let done = false;
    this.db.transaction(() => {
      const r = this.db.prepare(`UPDATE board_item SET state = ?, next_follow_time = ?, report_time = ?, follow_count = ?, close_time = ?, mute_until = ?,
                                   note = ?, handler_user_id = ?, handler_name = ?, update_time = ? WHERE id = ? AND state = ?`)
        .run(change.state, change.nextFollowTime, change.reportTime, change.followCount, change.closeTime, change.muteUntil, note, actor.userId, actor.username, now, id, from);
      if (r.changes === 0) return;
      this.db.prepare(`INSERT INTO board_log (item_id, user_id, username, action, from_state, to_state, note, next_follow_time, create_time)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(id, actor.userId, actor.username, action, from, change.state, note, change.nextFollowTime, now);
      done = true;
    })();
    return done;
  }

  async logs(itemId: number): Promise<BoardLogEntry[]> {
    const rows = this.db.prepare('SELECT * FROM board_log WHERE item_id = ? ORDER BY id').all(itemId) as {
      id: number; item_id: number; user_id: number | null; username: string; action: BoardLogEntry['action']; from_state: BoardState | null; to_state: BoardState;
      note: string; next_follow_time: number | null; alarm_id: number | null; alarm_type: number | null; create_time: number;
    }[];
    return rows.map((r) => ({
      id: r.id, itemId: r.item_id, userId: r.user_id, username: r.username, action: r.action, fromState: r.from_state, toState: r.to_state, note: r.note,
      nextFollowTime: r.next_follow_time, alarmId: r.alarm_id, alarmType: r.alarm_type, createTime: r.create_time,
    }));
  }

  async alarmIds(itemId: number, limit: number): Promise<number[]> {
    return (this.db.prepare('SELECT alarm_id FROM board_item_alarm WHERE item_id = ? ORDER BY alarm_id DESC LIMIT ?').all(itemId, limit) as { alarm_id: number }[]).map((r) => r.alarm_id);
  }

  async unprocessedAlarmIds(itemId: number): Promise<number[]> {
    return (this.db.prepare(`SELECT b.alarm_id FROM board_item_alarm b JOIN alarm a ON a.id = b.alarm_id WHERE b.item_id = ? AND a.deal_status = 0 ORDER BY b.alarm_id`)
      .all(itemId) as { alarm_id: number }[]).map((r) => r.alarm_id);
  }

  async closeHandled(alarmIds: readonly number[], actor: BoardActor, now: number): Promise<number[]> {
    if (alarmIds.length === 0) return [];
    const closable = BOARD_STATES.filter(closesWhenAlarmsHandled);
    const closed: number[] = [];
    this.db.transaction(() => {
      const items = this.db.prepare(`SELECT DISTINCT i.id, i.state FROM board_item_alarm b JOIN board_item i ON i.id = b.item_id
                                     WHERE b.alarm_id IN (${placeholders(alarmIds.length)}) AND i.state IN (${placeholders(closable.length)})
                                       AND NOT EXISTS (SELECT 1 FROM board_item_alarm b2 JOIN alarm a ON a.id = b2.alarm_id WHERE b2.item_id = i.id AND a.deal_status = 0)`)
        .all(...alarmIds, ...closable) as { id: number; state: BoardState }[];
      const close = this.db.prepare(`UPDATE board_item SET state = 'resolved', close_time = ?, next_follow_time = NULL, handler_user_id = ?, handler_name = ?, update_time = ?
                                     WHERE id = ? AND state = ?`);
      const log = this.db.prepare(`INSERT INTO board_log (item_id, user_id, username, action, from_state, to_state, create_time) VALUES (?, ?, ?, 'handled', ?, 'resolved', ?)`);
      for (const it of items) {
        if (close.run(now, actor.userId, actor.username, now, it.id, it.state).changes === 0) continue;
        log.run(it.id, actor.userId, actor.username, it.state, now);
        closed.push(it.id);
      }
    })();
    return closed;
  }
}
