/**
 * Demo transport permits (准运证, issue 17 leftover 70006): every seeded slag truck (type `muck`) gets a
 * permit for the year around the seed's day, naming the first disposal site of its branch (seeded by
 * box-sites.ts just before), except one truck in twelve whose permit ran out ten days ago: 70006 then
 * has something true to show on `npm start` without firing for the whole fleet. Deterministic by
 * vehicle id. The operator keeps the real ones on /monitor/boxStatus (准运证).
 */
import type { Repositories } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';

const DAY = 86_400_000;
/** One truck in this many has an expired permit. */
export const EXPIRED_EVERY = 12;

/** Stores the demo permits (inside the seed's transaction, after the sites); answers how many. */
export function seedBoxPermits(tx: Repositories, now = Date.now()): number {
  const db = (tx as SqliteStorage).db;
  const trucks = db.prepare(`SELECT v.id, v.company_id AS companyId, c.path FROM vehicle v JOIN company c ON c.id = v.company_id
    WHERE v.vehicle_type = 'muck' ORDER BY v.id`).all() as { id: number; companyId: number; path: string }[];
  const sites = db.prepare('SELECT s.id, c.path FROM box_site s JOIN company c ON c.id = s.company_id ORDER BY s.id').all() as { id: number; path: string }[];
  const insert = db.prepare(`INSERT INTO box_permit (company_id, vehicle_id, permit_no, valid_from, valid_to, site_id, route, create_time, update_time)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // Whole China days: from midnight (GMT+8) of the seed's day minus 60 days.
  const today = Math.floor((now + 8 * 3_600_000) / DAY) * DAY - 8 * 3_600_000;
  trucks.forEach((t, i) => {
    const expired = i % EXPIRED_EVERY === EXPIRED_EVERY - 1;
    const from = expired ? today - 375 * DAY : today - 60 * DAY;
    const to = expired ? today - 10 * DAY : today + 305 * DAY;
    const site = sites.find((s) => t.path.startsWith(s.path));
    insert.run(t.companyId, t.id, `ZY${String(t.id).padStart(6, '0')}`, from, to, site?.id ?? null, site ? '工地至消纳场（按核准路线）' : '', now, now);
  });
  return trucks.length;
}
