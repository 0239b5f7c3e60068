/**
 * Demo disposal sites (消纳场, issue 17): one or two per regional branch at the edge of a city where its
 * fleets drive (the simulator keeps each vehicle around its plate's city: server/sim/cities.ts), so the
 * box rules that compare with sites (70003 dumping, 70004 unloading outside a site; domain/box) have
 * something to compare with on `npm start`. A branch's sites apply to its fleets (the company subtree).
 * Demo places, WGS-84 rounded to 4 decimals, not real facilities; the operator adds the real ones on
 * /monitor/boxStatus (消纳场).
 */
import type { Repositories } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';

interface DemoSite {
  readonly branch: string;
  readonly name: string;
  readonly lng: number;
  readonly lat: number;
  readonly radiusM: number;
}

export const DEMO_BOX_SITES: readonly DemoSite[] = [
  { branch: '华北分公司', name: '北京东郊建筑渣土消纳场', lng: 116.5800, lat: 39.8900, radiusM: 1000 },
  { branch: '华北分公司', name: '天津东丽渣土消纳场', lng: 117.3600, lat: 39.1000, radiusM: 800 },
  { branch: '华东分公司', name: '上海浦东建筑垃圾消纳场', lng: 121.7400, lat: 31.1200, radiusM: 1200 },
  { branch: '华东分公司', name: '杭州余杭渣土消纳场', lng: 120.0500, lat: 30.3900, radiusM: 800 },
  { branch: '华南分公司', name: '广州白云渣土消纳场', lng: 113.2800, lat: 23.2700, radiusM: 1000 },
  { branch: '华南分公司', name: '深圳宝安建筑废弃物受纳场', lng: 113.8700, lat: 22.6800, radiusM: 1000 },
];

/** Stores the demo sites for the branches that exist (inside the seed's transaction); answers how many. */
export async function seedBoxSites(tx: Repositories, now = Date.now()): Promise<number> {
  const db = (tx as SqliteStorage).db;
  const company = db.prepare('SELECT id FROM company WHERE name = ?');
  const insert = db.prepare('INSERT INTO box_site (company_id, name, lng, lat, radius_m, create_time) VALUES (?, ?, ?, ?, ?, ?)');
  let made = 0;
  for (const s of DEMO_BOX_SITES) {
    const c = company.get(s.branch) as { id: number } | undefined;
    if (!c) continue;
    insert.run(c.id, s.name, s.lng, s.lat, s.radiusM, now);
    made++;
  }
  return made;
}
