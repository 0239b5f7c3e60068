/**
 * Demo fences (issue 17): a few real places where the seeded fleets drive (the simulator keeps each
 * vehicle around its plate's city: server/sim/cities.ts), each bound to every vehicle of its fleet, so
 * /monitor/shape_map and the platform's group 13 evaluation have something true on `npm start`.
 * Positions are WGS-84, rounded to 4 decimals. None is sent to terminals: sending is the operator's act.
 */
import type { FenceGeometry, FenceRule } from '../../domain/fence/types.ts';
import type { Repositories } from '../db/repositories.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';

const RULE: FenceRule = { alarmIn: false, alarmOut: false, forbidIn: false, forbidOut: false, maxSpeed: null, overspeedSeconds: 0, startTime: null, endTime: null };

interface DemoFence {
  readonly fleet: string;
  readonly name: string;
  readonly geometry: FenceGeometry;
  readonly rule: Partial<FenceRule>;
  readonly remark: string;
}

export const DEMO_FENCES: readonly DemoFence[] = [
  {
    fleet: '北京第一车队', name: '首都机场货运区', remark: '进出货运区提醒',
    geometry: { shape: 'circle', center: [116.6031, 40.0799], radius: 1500 }, rule: { alarmIn: true, alarmOut: true },
  },
  {
    fleet: '上海浦东车队', name: '外高桥保税区', remark: '园区内限速 40 km/h',
    geometry: { shape: 'rect', sw: [121.5700, 31.3300], ne: [121.6300, 31.3700] }, rule: { alarmIn: true, maxSpeed: 40, overspeedSeconds: 10 },
  },
  {
    fleet: '苏州公交车队', name: '苏州古城限速区', remark: '古城区内限速 30 km/h',
    geometry: { shape: 'polygon', points: [[120.6010, 31.3290], [120.6400, 31.3290], [120.6420, 31.3050], [120.6350, 31.2900], [120.6030, 31.2900]] },
    rule: { maxSpeed: 30, overspeedSeconds: 15 },
  },
  {
    fleet: '深圳公交车队', name: '福田交通枢纽', remark: '驶离场站报警',
    geometry: { shape: 'circle', center: [114.0590, 22.5330], radius: 600 }, rule: { alarmOut: true },
  },
  {
    fleet: '杭州城配车队', name: '西湖景区禁行', remark: '白天禁止货车驶入',
    geometry: { shape: 'circle', center: [120.1450, 30.2460], radius: 2000 }, rule: { forbidIn: true, startTime: '07:00', endTime: '20:00' },
  },
  {
    fleet: '广州城配车队', name: '珠江新城早高峰禁入', remark: '工作日早高峰禁入',
    geometry: { shape: 'polygon', points: [[113.3150, 23.1250], [113.3350, 23.1250], [113.3350, 23.1120], [113.3150, 23.1120]] },
    rule: { forbidIn: true, startTime: '07:00', endTime: '09:30' },
  },
];

/** Stores the demo fences for the fleets that exist, bound to their vehicles (inside the seed's transaction). */
export async function seedFences(tx: Repositories, now = Date.now()): Promise<number> {
  const db = (tx as SqliteStorage).db;
  const company = db.prepare('SELECT id FROM company WHERE name = ?');
  const vehicles = db.prepare('SELECT id FROM vehicle WHERE company_id = ? ORDER BY id LIMIT 500');
  const insert = db.prepare(`INSERT INTO fence (company_id, name, shape, geometry, rule, remark, created_by, created_by_name, create_time, update_time)
    VALUES (?, ?, ?, ?, ?, ?, NULL, '系统', ?, ?)`);
  const bind = db.prepare('INSERT INTO fence_vehicle (fence_id, vehicle_id) VALUES (?, ?)');
  let made = 0;
  for (const f of DEMO_FENCES) {
    const c = company.get(f.fleet) as { id: number } | undefined;
    if (!c) continue;
    const id = Number(insert.run(c.id, f.name, f.geometry.shape, JSON.stringify(f.geometry), JSON.stringify({ ...RULE, ...f.rule }), f.remark, now, now).lastInsertRowid);
    for (const v of vehicles.all(c.id) as { id: number }[]) bind.run(id, v.id);
    made++;
  }
  return made;
}
