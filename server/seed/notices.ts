/**
 * Demo notices (issue 19): what the platform administrator sent on a new demo database, so the header's
 * bell, "my notices" and the message log show real rows at `npm start`. Published the way the
 * publish call does it (server/services/notices/index.ts): targets kept, recipients expanded once to the
 * enabled users of the chosen companies at that time, read state per user.
 */
import type { Repositories } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';

interface DemoNotice {
  readonly title: string;
  readonly content: string;
  readonly level: 1 | 2 | 3;
  /** Company name targeted with its sub-companies; null: a draft not yet published. */
  readonly to: string | null;
  readonly hoursAgo: number;
  /** Users who have already read it. */
  readonly readBy: readonly string[];
}

export const DEMO_NOTICES: readonly DemoNotice[] = [
  {
    title: '平台维护通知', level: 2, to: 'ROOT', hoursAgo: 50, readBy: ['admin', 'safety'],
    content: '本周六 02:00–04:00 平台进行数据库维护，期间轨迹回放与报表查询可能短暂不可用，实时监控不受影响。',
  },
  {
    title: '华东分公司夏季安全检查', level: 3, to: '华东分公司', hoursAgo: 20, readBy: [],
    content: '请各车队于本月底前完成车辆主动安全设备（ADAS/DSM）自检，并在系统中处理完本月未处理报警。',
  },
  {
    title: '节假日值班安排', level: 1, to: null, hoursAgo: 2, readBy: [],
    content: '节假日期间监控中心实行 24 小时值班，值班表另行通知。',
  },
];

export function seedNotices(tx: Repositories, now = Date.now()): number {
  const db = (tx as SqliteStorage).db;
  const admin = db.prepare("SELECT id, company_id, real_name FROM user WHERE username = 'admin'").get() as { id: number; company_id: number; real_name: string } | undefined;
  if (!admin) return 0;
  const company = db.prepare('SELECT id, path FROM company WHERE name = ?');
  const root = db.prepare('SELECT id, path FROM company WHERE id = ?').get(admin.company_id) as { id: number; path: string };
  const users = db.prepare("SELECT id, username FROM user WHERE status = 1 AND company_id IN (SELECT id FROM company WHERE path >= ? AND path < ?)");
  const insert = db.prepare(`INSERT INTO notice (title, content, level, company_id, status, created_by, created_by_name, create_time, update_time, publish_time)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const target = db.prepare('INSERT INTO notice_target (notice_id, company_id, include_sub, user_id) VALUES (?, ?, 1, NULL)');
  const recipient = db.prepare('INSERT INTO notice_recipient (notice_id, user_id, send_time, delivered_time, read_time) VALUES (?, ?, ?, ?, ?)');
  let made = 0;
  for (const n of DEMO_NOTICES) {
    const at = now - n.hoursAgo * 3_600_000;
    const to = n.to === null ? null : n.to === 'ROOT' ? root : (company.get(n.to) as { id: number; path: string } | undefined);
    if (n.to !== null && !to) continue;
    const id = Number(insert.run(n.title, n.content, n.level, admin.company_id, to ? 1 : 0, admin.id, admin.real_name || 'admin', at, at, to ? at : null).lastInsertRowid);
    made++;
    if (!to) continue;
    target.run(id, to.id);
    for (const u of users.all(to.path, `${to.path}~`) as { id: number; username: string }[]) {
      const read = n.readBy.includes(u.username) ? at + 600_000 : null;
      recipient.run(id, u.id, at, read, read);
    }
  }
  return made;
}
