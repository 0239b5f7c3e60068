/**
 * Demo drivers'-app accounts (issue 19, server/services/app-feedback/CONTEXT.md): a few drivers of the
 * seeded fleets get an app account, so the app simulator (server/sim/app-users.ts) can sign in through
 * the app API and raise feedback, fetch and acknowledge pushes. Accounts only: every feedback thread and
 * delivery state the console shows is made by those simulated app users at run time.
 */
import { hashPassword } from '../auth/passwords.ts';
import type { Repositories } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';

/** The demo app accounts' password (user names `driver01` …). */
export const DEMO_APP_PASSWORD = 'app12345';
/** How many drivers get an app account: two per company, at most this many in all. */
export const DEMO_APP_USERS = 8;

export async function seedAppUsers(tx: Repositories, now = Date.now()): Promise<number> {
  const db = (tx as SqliteStorage).db;
  // Two drivers of each fleet, fleets in company order, so both branches have app users.
  const drivers = db.prepare(`SELECT d.id, d.name, d.phone, d.company_id FROM driver d
    WHERE d.status = 1 AND (SELECT count(*) FROM driver e WHERE e.company_id = d.company_id AND e.status = 1 AND e.id < d.id) < 2
    ORDER BY d.company_id, d.id LIMIT ?`).all(DEMO_APP_USERS) as { id: number; name: string; phone: string; company_id: number }[];
  if (drivers.length === 0) return 0;
  const hash = await hashPassword(DEMO_APP_PASSWORD);
  const insert = db.prepare('INSERT INTO app_user (company_id, username, real_name, phone, driver_id, password_hash, create_time) VALUES (?, ?, ?, ?, ?, ?, ?)');
  drivers.forEach((d, i) => insert.run(d.company_id, `driver${String(i + 1).padStart(2, '0')}`, d.name, d.phone, d.id, hash, now));
  return drivers.length;
}
