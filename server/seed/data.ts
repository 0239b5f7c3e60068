/** Demo data: the company tree, plate prefixes and lines. Deterministic so every fresh database looks alike. */

export interface FleetSeed {
  readonly name: string;
  /** Plate prefixes (province character + city letter) used by this fleet. */
  readonly plates: readonly string[];
  /** Bus lines run by this fleet (its vehicles are spread over them). */
  readonly lines?: readonly string[];
}

export interface BranchSeed {
  readonly name: string;
  readonly city: string;
  readonly contact: string;
  readonly phone: string;
  readonly address: string;
  readonly fleets: readonly FleetSeed[];
  /** Prefixes for generated fleets beyond the named ones. */
  readonly plates: readonly string[];
}

export const ROOT_COMPANY = {
  name: '星途物流集团',
  contact: '王建国',
  phone: '010-88886666',
  address: '北京市朝阳区建国路88号',
  remark: '演示数据',
};

export const BRANCHES: readonly BranchSeed[] = [
  {
    name: '华北分公司', city: '北京', contact: '李明', phone: '010-66001234', address: '北京市海淀区中关村大街1号',
    plates: ['京A', '京B', '津A', '冀A'],
    fleets: [
      { name: '北京第一车队', plates: ['京A', '京B'] },
      { name: '北京冷链车队', plates: ['京A', '京Q'] },
      { name: '天津港口车队', plates: ['津A', '津B'] },
      { name: '石家庄干线车队', plates: ['冀A'] },
    ],
  },
  {
    name: '华东分公司', city: '上海', contact: '陈静', phone: '021-55661234', address: '上海市浦东新区世纪大道100号',
    plates: ['沪A', '沪B', '苏A', '浙A'],
    fleets: [
      { name: '上海浦东车队', plates: ['沪A', '沪D'] },
      { name: '杭州城配车队', plates: ['浙A'] },
      { name: '南京干线车队', plates: ['苏A'] },
      { name: '苏州公交车队', plates: ['苏E'], lines: ['1路', '18路', '快线3号'] },
    ],
  },
  {
    name: '华南分公司', city: '广州', contact: '黄伟', phone: '020-38881234', address: '广州市天河区珠江新城华夏路8号',
    plates: ['粤A', '粤B', '粤S', '桂A'],
    fleets: [
      { name: '广州城配车队', plates: ['粤A'] },
      { name: '深圳公交车队', plates: ['粤B'], lines: ['M201路', '高峰专线12号', '机场快线'] },
      { name: '东莞干线车队', plates: ['粤S'] },
      { name: '南宁冷链车队', plates: ['桂A'] },
    ],
  },
];

/** Letters used on plates (I and O are not issued). */
export const PLATE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
/** VIN characters (I, O and Q are not used). */
export const VIN_CHARS = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';


