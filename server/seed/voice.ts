/**
 * Demo text templates (issue 19): the texts a dispatcher of the demo database reuses on 语音下发, so
 * 文本资源 and the dispatch screen's template picker show real rows at `npm start`. No demo dispatch
 * is stored: the dispatch log fills with what is actually sent to the simulated terminals.
 */
import type { Repositories } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';

export const DEMO_TEXT_TEMPLATES: readonly { name: string; content: string; remark: string }[] = [
  { name: '安全带提醒', content: '请系好安全带，文明驾驶，注意行车安全。', remark: '出车前' },
  { name: '疲劳驾驶提醒', content: '您已连续驾驶较长时间，请在前方服务区停车休息二十分钟。', remark: '连续驾驶超过 4 小时' },
  { name: '雨天慢行', content: '今日有雨，路面湿滑，请降低车速，保持安全车距。', remark: '天气' },
];

export function seedTextTemplates(tx: Repositories, now = Date.now()): number {
  const db = (tx as SqliteStorage).db;
  const admin = db.prepare("SELECT company_id, real_name FROM user WHERE username = 'admin'").get() as { company_id: number; real_name: string } | undefined;
  if (!admin) return 0;
  const insert = db.prepare('INSERT INTO text_template (company_id, name, content, remark, created_by_name, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?)');
  DEMO_TEXT_TEMPLATES.forEach((t, i) => {
    const at = now - (DEMO_TEXT_TEMPLATES.length - i) * 86_400_000;
    insert.run(admin.company_id, t.name, t.content, t.remark, admin.real_name || 'admin', at, at);
  });
  return DEMO_TEXT_TEMPLATES.length;
}
