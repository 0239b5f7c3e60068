/**
 * Demo line stations (issue 15): the demo seed's bus lines (server/seed/data.ts: 苏州公交车队 and
 * 深圳公交车队) get a code, a remark and their stations in order, up (上行) along real streets of the
 * city their buses run in (苏E plates → 苏州, 粤B → 深圳, where the simulator keeps them), down (下行)
 * the same stops in reverse on the other side of the road (≈ 25 m off). Positions are WGS-84, rounded
 * to 4 decimals: stop-level, not survey-level. Lines the data does not name keep no stations.
 */
import type { Station } from '../../domain/fleet/line.ts';
import type { Repositories } from '../db/repositories.ts';
import { ALL_COMPANIES } from '../db/scope.ts';

interface DemoLine {
  readonly code: string;
  readonly remark: string;
  /** [name, lng, lat] in running order of the up direction. */
  readonly up: readonly (readonly [string, number, number])[];
}

export const DEMO_LINE_STATIONS: Readonly<Record<string, DemoLine>> = {
  // 苏州: north–south along 人民路 from the railway station.
  '1路': {
    code: 'SZ001', remark: '火车站—人民路—吴中，全程约 7 公里',
    up: [
      ['苏州火车站', 120.6106, 31.3303], ['平门', 120.6142, 31.3262], ['北寺塔', 120.6168, 31.3230], ['接驾桥', 120.6172, 31.3170],
      ['察院场', 120.6175, 31.3118], ['乐桥', 120.6180, 31.3070], ['三元坊', 120.6185, 31.2990], ['南门', 120.6195, 31.2915],
      ['人民桥南', 120.6200, 31.2860], ['南环新村', 120.6205, 31.2800], ['东吴北路', 120.6212, 31.2735], ['吴中汽车站', 120.6230, 31.2640],
    ],
  },
  // 苏州: west–east along 干将路 into the industrial park.
  '18路': {
    code: 'SZ018', remark: '石路—干将路—星海广场',
    up: [
      ['石路', 120.5990, 31.3135], ['广济桥', 120.6035, 31.3105], ['干将西路', 120.6100, 31.3075], ['乐桥东', 120.6190, 31.3071],
      ['临顿路', 120.6250, 31.3072], ['平江路', 120.6300, 31.3074], ['相门', 120.6380, 31.3075], ['苏州大学', 120.6440, 31.3060],
      ['东环路', 120.6530, 31.3055], ['金鸡湖西', 120.6660, 31.3068], ['星海广场', 120.6750, 31.3080],
    ],
  },
  '快线3号': {
    code: 'K3', remark: '火车站—金鸡湖—园区站，大站快车',
    up: [
      ['苏州火车站', 120.6106, 31.3303], ['平江新城', 120.6260, 31.3230], ['东环路北', 120.6530, 31.3150], ['金鸡湖西', 120.6750, 31.3130],
      ['时代广场', 120.6880, 31.3150], ['星湖街', 120.7150, 31.3190], ['苏州园区站', 120.7245, 31.3290],
    ],
  },
  // 深圳: 福田口岸 north through the civic centre.
  'M201路': {
    code: 'M201', remark: '福田口岸—市民中心—莲花山',
    up: [
      ['福田口岸', 114.0700, 22.5170], ['皇岗村', 114.0670, 22.5240], ['福田交通枢纽', 114.0590, 22.5330], ['会展中心', 114.0570, 22.5360],
      ['市民中心', 114.0590, 22.5430], ['少年宫', 114.0590, 22.5540], ['莲花山公园', 114.0560, 22.5610], ['莲花北', 114.0580, 22.5680],
    ],
  },
  // 深圳: along 深南大道, 南山 → 罗湖 in the morning peak.
  '高峰专线12号': {
    code: 'GF12', remark: '工作日早晚高峰运营，深南大道沿线',
    up: [
      ['白石洲', 113.9660, 22.5400], ['世界之窗', 113.9730, 22.5370], ['侨城东', 113.9910, 22.5390], ['车公庙', 114.0220, 22.5370],
      ['香蜜湖', 114.0320, 22.5400], ['岗厦', 114.0660, 22.5370], ['华强路', 114.0850, 22.5430], ['大剧院', 114.1060, 22.5440],
    ],
  },
  '机场快线': {
    code: 'JC1', remark: '宝安机场—前海—福田交通枢纽',
    up: [
      ['宝安机场T3', 113.8150, 22.6390], ['机场东', 113.8480, 22.6250], ['宝安中心', 113.8800, 22.5580], ['前海湾', 113.8940, 22.5380],
      ['南山中心', 113.9300, 22.5170], ['世界之窗', 113.9730, 22.5370], ['车公庙', 114.0220, 22.5370], ['福田交通枢纽', 114.0590, 22.5330],
    ],
  },
};

/** ≈ 25 m: the down stop across the road from the up stop. */
const ACROSS = 0.00022;

/** The demo stations of one line: up as listed, down reversed and across the road. */
export function demoStations(line: DemoLine): { up: Station[]; down: Station[] } {
  const up = line.up.map(([name, lng, lat]) => ({ name, lng, lat }));
  const down = [...up].reverse().map((s) => ({ name: s.name, lng: Math.round((s.lng + ACROSS) * 1e6) / 1e6, lat: Math.round((s.lat - ACROSS) * 1e6) / 1e6 }));
  return { up, down };
}

/** Gives the seeded lines their code, remark and stations (inside the seed's transaction). */
export async function seedLineStations(tx: Repositories): Promise<void> {
  for (let current = 1; ; current++) {
    const page = await tx.lines.page(ALL_COMPANIES, { current, size: 500 });
    for (const line of page.records) {
      const demo = DEMO_LINE_STATIONS[line.name];
      if (!demo) continue;
      const { up, down } = demoStations(demo);
      await tx.lines.update(line.id, { code: demo.code, remark: demo.remark });
      await tx.lines.replaceStations(line.id, 0, up);
      await tx.lines.replaceStations(line.id, 1, down);
    }
    if (current * 500 >= page.total) break;
  }
}
