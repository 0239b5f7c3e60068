/**
 * The alarm type catalogue (spec 000 §3 "Alarm types", spec 001 §3 groups table): the documented
 * default the server seeds into its database and serves through the `alarmInfo` type-list calls.
 *
 * Code design
 * - An alarm type's code is five digits: its group number, then a three-digit serial within the
 *   group (10001 = group 10, first type; 82011 = group 82, eleventh). `group === floor(code / 1000)`, except ADAS (below).
 * - Group 1 "classification" holds the group headings themselves: their code IS the group number
 *   (10, 11, …, 90). That is why the spec lists "82 and 82001–82011" together: 82 is the AEB
 *   heading, 82001–82011 its types. Headings are tree nodes for the type pickers, never raised.
 * - Codes 100xx are the active-safety codes: the spec's two dashboard sets (driver fatigue,
 *   vehicle risk) are both numbered 100xx. Their GROUP differs: DMS (0x65) and driving-time types
 *   are group 10 "driver status", ADAS (0x64) types are group 19 "vehicle risk (ADAS)" (see
 *   `ADAS_GROUP`): the one place where `group !== floor(code / 1000)`.
 *   The codes the spec names (10001–10013, 10016, 10017, 10032–10034, 10047) are laid out so each
 *   set reads sensibly: 1–5 follow DMS types 1–5, 6–12 follow ADAS types 1–7, and 32–34 are the
 *   JT/T 808 driving-time flags (bits 2, 14, 18). 10038–10046 are reserved for further
 *   active-safety variants; 10047 is fixed by the spec's weekly key `a10047Num`.
 * - Names are the terms of JT/T 808-2013/-2019, JT/T 1078, JT/T 809 and the Jiangsu active-safety
 *   standard (T/JSATL 12, "苏标") where those define the type; the rest use the usual platform terms.
 * - Codes 82 and 82001–82011 are Chinese-only (`en: null`, spec): the console shows `zh` instead.
 *
 * The catalogue is data: which codes a terminal signal raises lives in `sources.ts`.
 */

import type { Lang } from '../errors/catalogue.ts';

/** The spec's groups, in the spec's display order. */
export const ALARM_GROUPS = [1, 10, 19, 11, 18, 12, 13, 14, 15, 16, 17, 59, 60, 70, 80, 81, 82, 90] as const;
export type AlarmGroup = (typeof ALARM_GROUPS)[number];

export const CLASSIFICATION_GROUP = 1;

export interface AlarmType {
  readonly code: number;
  readonly group: AlarmGroup;
  readonly zh: string;
  /** null: no English name; show `zh` (codes 82 and 82001–82011). */
  readonly en: string | null;
}

type Row = readonly [code: number, group: AlarmGroup, zh: string, en: string | null];

// Rows are written with both code and group so a typo in either fails the prefix test.
const ROWS: readonly Row[] = [
  // ── 1 classification: the group headings (code = group number) ──
  [10, 1, '司机状态', 'Driver status'],
  [19, 1, '车辆风险(ADAS)', 'Vehicle risk (ADAS)'],
  [11, 1, '运行状况', 'Running condition'],
  [18, 1, '激烈驾驶', 'Intense driving'],
  [12, 1, '超速', 'Speeding'],
  [13, 1, '围栏', 'Fence'],
  [14, 1, '盲区', 'Blind area'],
  [15, 1, '硬件故障', 'Hardware failure'],
  [16, 1, '胎压', 'Tire pressure'],
  [17, 1, '通用', 'General'],
  [59, 1, '环卫', 'Sanitation'],
  [60, 1, '温度', 'Temperature'],
  [70, 1, '渣土车', 'Slag truck'],
  [80, 1, '巡逻', 'Patrol'],
  [81, 1, '下级平台', 'Subordinate platform'],
  [82, 1, '自动紧急制动(AEB)', null],
  [90, 1, '交通违法', 'Traffic violations'],

  // ── 10 driver status: DMS (0x65) and driving-time alarms; ADAS (0x64) codes 100xx are filed under 19 ──
  [10001, 10, '疲劳驾驶报警', 'Fatigue driving alarm'], // DMS 0x01
  [10002, 10, '接打手持电话报警', 'Handheld phone call alarm'], // DMS 0x02
  [10003, 10, '抽烟报警', 'Smoking alarm'], // DMS 0x03
  [10004, 10, '分神驾驶报警', 'Distracted driving alarm'], // DMS 0x04
  [10005, 10, '驾驶员异常报警', 'Driver abnormal alarm'], // DMS 0x05
  [10006, 19, '前向碰撞报警', 'Forward collision warning'], // ADAS 0x01
  [10007, 19, '车道偏离报警', 'Lane departure warning'], // ADAS 0x02
  [10008, 19, '车距过近报警', 'Headway too close warning'], // ADAS 0x03
  [10009, 19, '行人碰撞报警', 'Pedestrian collision warning'], // ADAS 0x04
  [10010, 19, '频繁变道报警', 'Frequent lane change alarm'], // ADAS 0x05
  [10011, 19, '道路标识超限报警', 'Road sign over-limit alarm'], // ADAS 0x06
  [10012, 19, '障碍物报警', 'Obstacle alarm'], // ADAS 0x07
  [10013, 10, '闭眼报警', 'Eyes closed alarm'],
  [10014, 19, '道路标志识别事件', 'Road sign recognition event'], // ADAS 0x10
  [10015, 19, 'ADAS主动抓拍事件', 'ADAS active capture event'], // ADAS 0x11
  [10016, 19, '实线变道报警', 'Solid-line lane change alarm'],
  [10017, 19, '低速前车碰撞报警', 'Low-speed forward collision warning'],
  [10018, 10, 'DMS自动抓拍事件', 'DMS automatic capture event'], // DMS 0x10
  [10019, 10, '驾驶员变更事件', 'Driver change event'], // DMS 0x11
  [10020, 10, '打哈欠报警', 'Yawning alarm'],
  [10021, 10, '未系安全带报警', 'Seat belt not fastened alarm'],
  [10022, 10, '双手同时脱离方向盘报警', 'Both hands off the steering wheel alarm'],
  [10023, 10, '驾驶员不在驾驶位置报警', 'Driver out of the driving position alarm'],
  [10024, 10, '红外阻断型墨镜报警', 'Infrared-blocking sunglasses alarm'],
  [10025, 10, '驾驶员身份异常报警', 'Driver identity abnormal alarm'],
  [10026, 10, '驾驶员人证不符报警', 'Driver identity mismatch alarm'],
  [10027, 10, '玩手机报警', 'Mobile phone use alarm'],
  [10028, 10, '长时间不目视前方报警', 'Not looking ahead for a long time alarm'],
  [10029, 10, '低头报警', 'Head down alarm'],
  [10030, 10, '饮食报警', 'Eating or drinking alarm'],
  [10031, 10, '未插卡驾驶报警', 'Driving without driver IC card alarm'],
  // JT/T 808 calls bits 2/14 "疲劳驾驶(预警)"; terminals raise them from continuous driving time, so
  // they are named by what they measure to keep them apart from the DMS fatigue alarm 10001.
  [10032, 10, '超时驾驶报警', 'Continuous driving overtime alarm'], // 808 bit 2
  [10033, 10, '超时驾驶预警', 'Continuous driving overtime warning'], // 808 bit 14
  [10034, 10, '当天累计驾驶超时报警', 'Daily cumulative driving overtime alarm'], // 808 bit 18
  [10035, 10, '平台超时驾驶报警', 'Platform continuous driving overtime alarm'],
  [10036, 10, '夜间超时驾驶报警', 'Night driving overtime alarm'],
  [10037, 19, '不规范变道提醒', 'Improper lane change reminder'],
  [10047, 10, '凌晨2时至5时行车报警', 'Driving between 02:00 and 05:00 alarm'],

  // ── 11 running condition ──
  [11001, 11, '超时停车报警', 'Parking overtime alarm'], // 808 bit 19
  [11002, 11, '车辆油量异常报警', 'Abnormal fuel level alarm'], // 808 bit 25
  [11003, 11, '非法开门报警', 'Illegal door opening alarm'], // 808-2013 bit 31
  [11004, 11, '车辆离线报警', 'Vehicle offline alarm'],
  [11005, 11, '离线位移报警', 'Offline displacement alarm'],
  [11006, 11, '三天未上线报警', 'Not online for three days alarm'],
  [11007, 11, '不定位报警', 'No positioning fix alarm'],
  [11008, 11, '定位漂移报警', 'Position drift alarm'],
  [11009, 11, '轨迹不连续报警', 'Track discontinuity alarm'],
  [11010, 11, '客车超员报警', 'Passenger overload alarm'], // 1078 video alarm bit 4
  [11011, 11, '车辆超载报警', 'Vehicle overweight alarm'],
  [11012, 11, '长期异地经营报警', 'Long-term operation outside the registered area alarm'],
  [11013, 11, '车门未关行驶报警', 'Driving with a door open alarm'],

  // ── 18 intense driving ──
  [18001, 18, '急加速报警', 'Harsh acceleration alarm'],
  [18002, 18, '急减速报警', 'Harsh deceleration alarm'],
  [18003, 18, '急转弯报警', 'Sharp turn alarm'],
  [18004, 18, '急变道报警', 'Sudden lane change alarm'],
  [18005, 18, '碰撞预警', 'Collision warning'], // 808 bit 29 (2019: collision and rollover)
  [18006, 18, '侧翻预警', 'Rollover warning'], // 808 bit 30
  [18007, 18, '怠速报警', 'Idling alarm'],
  [18008, 18, '异常熄火报警', 'Abnormal engine stall alarm'],
  [18009, 18, '空挡滑行报警', 'Coasting in neutral alarm'],
  [18010, 18, '发动机超转报警', 'Engine over-revving alarm'],

  // ── 12 speeding ──
  [12001, 12, '超速报警', 'Overspeed alarm'], // 808 bit 1
  [12002, 12, '超速预警', 'Overspeed warning'], // 808 bit 13
  [12003, 12, '平台超速报警', 'Platform overspeed alarm'],
  [12004, 12, '平台超速预警', 'Platform overspeed warning'],
  [12005, 12, '区域超速报警', 'Area overspeed alarm'],
  [12006, 12, '路段超速报警', 'Road section overspeed alarm'],
  [12007, 12, '夜间超速报警', 'Night overspeed alarm'],
  [12008, 12, '道路实际限速超速报警', 'Road speed limit overspeed alarm'],
  [12009, 12, '基础限速超速报警', 'Basic speed limit overspeed alarm'],

  // ── 13 fence ──
  [13001, 13, '进出区域报警', 'Entering or leaving area alarm'], // 808 bit 20
  [13002, 13, '进出路线报警', 'Entering or leaving route alarm'], // 808 bit 21
  [13003, 13, '路段行驶时间不足/过长报警', 'Route section travel time too short or too long alarm'], // 808 bit 22
  [13004, 13, '路线偏离报警', 'Route deviation alarm'], // 808 bit 23
  [13005, 13, '进入区域报警', 'Entering area alarm'],
  [13006, 13, '离开区域报警', 'Leaving area alarm'],
  [13007, 13, '禁入区域报警', 'Forbidden area entry alarm'],
  [13008, 13, '禁出区域报警', 'Restricted area exit alarm'],
  [13009, 13, '区域内超时停车报警', 'Parking overtime in area alarm'],
  [13010, 13, '平台路线偏离报警', 'Platform route deviation alarm'],
  [13011, 13, '关键点未到达报警', 'Key point not reached alarm'],

  // ── 14 blind area ──
  [14001, 14, '后方接近报警', 'Rear approach alarm'], // BSD 0x01
  [14002, 14, '左侧后方接近报警', 'Left rear approach alarm'], // BSD 0x02
  [14003, 14, '右侧后方接近报警', 'Right rear approach alarm'], // BSD 0x03
  [14004, 14, '右转盲区异常报警', 'Right-turn blind area abnormal alarm'], // 808-2019 bit 17
  [14005, 14, '右侧前方接近报警', 'Right front approach alarm'],
  [14006, 14, '右转盲区行人预警', 'Right-turn blind area pedestrian warning'],
  [14007, 14, '右转盲区非机动车预警', 'Right-turn blind area non-motor vehicle warning'],
  [14008, 14, '右转未停车报警', 'Right turn without stopping alarm'],
  [14009, 14, '左侧盲区预警', 'Left blind area warning'],
  [14010, 14, '倒车盲区预警', 'Reversing blind area warning'],

  // ── 15 hardware failure ──
  [15001, 15, 'GNSS模块故障', 'GNSS module fault'], // 808 bit 4
  [15002, 15, 'GNSS天线未接或被剪断', 'GNSS antenna disconnected or cut'], // bit 5
  [15003, 15, 'GNSS天线短路', 'GNSS antenna short circuit'], // bit 6
  [15004, 15, '终端主电源欠压', 'Terminal main power under-voltage'], // bit 7
  [15005, 15, '终端主电源掉电', 'Terminal main power off'], // bit 8
  [15006, 15, '终端LCD或显示器故障', 'Terminal LCD or display fault'], // bit 9
  [15007, 15, 'TTS模块故障', 'TTS module fault'], // bit 10
  [15008, 15, '摄像头故障', 'Camera fault'], // bit 11
  [15009, 15, '道路运输证IC卡模块故障', 'Road transport certificate IC card module fault'], // bit 12
  [15010, 15, '车辆VSS故障', 'Vehicle VSS fault'], // bit 24
  [15011, 15, '视频信号丢失报警', 'Video signal loss alarm'], // 1078 video alarm bit 0
  [15012, 15, '视频信号遮挡报警', 'Video signal occlusion alarm'], // bit 1
  [15013, 15, '存储单元故障报警', 'Storage unit fault alarm'], // bit 2
  [15014, 15, '其他视频设备故障报警', 'Other video device fault alarm'], // bit 3
  [15015, 15, '特殊报警录像达到存储阈值报警', 'Special alarm recording storage threshold reached'], // bit 6
  [15016, 15, '驾驶辅助功能失效报警', 'Driver assistance (ADAS) function failure alarm'],
  [15017, 15, '驾驶员行为监测功能失效报警', 'Driver monitoring (DMS) function failure alarm'],
  [15018, 15, '终端故障报警', 'Terminal fault alarm'],

  // ── 16 tire pressure (TPMS 0x66 per-tire bits 1–7) ──
  [16001, 16, '胎压过高报警', 'Tire pressure too high alarm'],
  [16002, 16, '胎压过低报警', 'Tire pressure too low alarm'],
  [16003, 16, '胎温过高报警', 'Tire temperature too high alarm'],
  [16004, 16, '胎压传感器异常报警', 'Tire sensor abnormal alarm'],
  [16005, 16, '胎压不平衡报警', 'Tire pressure imbalance alarm'],
  [16006, 16, '慢漏气报警', 'Slow leak alarm'],
  [16007, 16, '胎压传感器电池电量低报警', 'Tire sensor battery low alarm'],
  [16008, 16, '胎压预警', 'Tire pressure warning'], // 808-2019 bit 16
  [16009, 16, '快速漏气报警', 'Rapid leak alarm'],
  [16010, 16, '胎压传感器失联报警', 'Tire sensor signal lost alarm'],

  // ── 17 general ──
  [17001, 17, '紧急报警', 'Emergency alarm'], // 808 bit 0
  [17002, 17, '危险预警', 'Danger warning'], // 808 bit 3 (2019: dangerous driving behaviour)
  [17003, 17, '违规行驶报警', 'Illegal driving alarm'], // 808-2019 bit 15
  [17004, 17, '车辆被盗报警', 'Vehicle stolen alarm'], // bit 26
  [17005, 17, '车辆非法点火报警', 'Illegal ignition alarm'], // bit 27
  [17006, 17, '车辆非法位移报警', 'Illegal displacement alarm'], // bit 28
  [17007, 17, '事故报警', 'Accident alarm'],
  [17008, 17, '车辆电瓶欠压报警', 'Vehicle battery under-voltage alarm'],
  [17009, 17, '终端拆除报警', 'Terminal removal alarm'],

  // ── 59 sanitation ──
  [59001, 59, '未按规定路线作业报警', 'Operation off the assigned route alarm'],
  [59002, 59, '作业超速报警', 'Operation overspeed alarm'],
  [59003, 59, '作业漏扫报警', 'Missed sweeping section alarm'],
  [59004, 59, '作业时长不足报警', 'Insufficient operation time alarm'],
  [59005, 59, '非作业时段作业报警', 'Operation outside scheduled hours alarm'],
  [59006, 59, '作业车辆长时间停留报警', 'Operation vehicle long stay alarm'],
  [59007, 59, '垃圾桶满溢报警', 'Waste bin overflow alarm'],
  [59008, 59, '垃圾未清运报警', 'Waste not collected alarm'],
  [59009, 59, '水箱缺水报警', 'Water tank low alarm'],
  [59010, 59, '洒水作业异常报警', 'Sprinkling operation abnormal alarm'],

  // ── 60 temperature (cold-chain compartment and the driver temperature report) ──
  [60001, 60, '车厢温度过高报警', 'Compartment temperature too high alarm'],
  [60002, 60, '车厢温度过低报警', 'Compartment temperature too low alarm'],
  [60003, 60, '温度传感器异常报警', 'Temperature sensor abnormal alarm'],
  [60004, 60, '车厢湿度过高报警', 'Compartment humidity too high alarm'],
  [60005, 60, '车厢湿度过低报警', 'Compartment humidity too low alarm'],
  [60006, 60, '冷机故障报警', 'Refrigeration unit fault alarm'],
  [60007, 60, '车厢温度变化过快报警', 'Rapid compartment temperature change alarm'],
  [60008, 60, '疑似发热报警', 'Suspected fever alarm'],
  [60009, 60, '未佩戴口罩报警', 'Mask not worn alarm'],

  // ── 70 slag truck ──
  [70001, 70, '未密闭运输报警', 'Unsealed transport alarm'],
  [70002, 70, '违规举升报警', 'Illegal body lifting alarm'],
  [70003, 70, '违规倾倒报警', 'Illegal dumping alarm'],
  [70004, 70, '非指定消纳场卸载报警', 'Unloading outside an approved disposal site alarm'],
  [70005, 70, '重车超速报警', 'Loaded vehicle overspeed alarm'],
  [70006, 70, '无准运证运输报警', 'Transport without a transport permit alarm'],
  [70007, 70, '未按核准路线行驶报警', 'Off the approved route alarm'],
  [70008, 70, '非准运时段运输报警', 'Transport outside permitted hours alarm'],
  [70009, 70, '渣土车超载报警', 'Slag truck overload alarm'],
  [70010, 70, '载重传感器异常报警', 'Load sensor abnormal alarm'],

  // ── 80 patrol ──
  [80001, 80, '未按时巡逻报警', 'Patrol not on schedule alarm'],
  [80002, 80, '漏巡报警', 'Missed patrol point alarm'],
  [80003, 80, '巡逻路线偏离报警', 'Patrol route deviation alarm'],
  [80004, 80, '巡逻点停留超时报警', 'Patrol point overstay alarm'],
  [80005, 80, '巡逻点停留不足报警', 'Patrol point stay too short alarm'],
  [80006, 80, '巡逻超速报警', 'Patrol overspeed alarm'],
  [80007, 80, '离开巡逻区域报警', 'Leaving the patrol area alarm'],
  [80008, 80, '巡逻签到异常报警', 'Patrol check-in abnormal alarm'],

  // ── 81 subordinate platform: JT/T 809-2011 warning types 0x0001–0x000D, 0x00FF ──
  [81001, 81, '超速报警', 'Overspeed alarm'],
  [81002, 81, '疲劳驾驶报警', 'Fatigue driving alarm'],
  [81003, 81, '紧急报警', 'Emergency alarm'],
  [81004, 81, '进入指定区域报警', 'Entering specified area alarm'],
  [81005, 81, '离开指定区域报警', 'Leaving specified area alarm'],
  [81006, 81, '路段堵塞报警', 'Road congestion alarm'],
  [81007, 81, '危险路段报警', 'Dangerous road section alarm'],
  [81008, 81, '越界报警', 'Out-of-bounds alarm'],
  [81009, 81, '盗警', 'Theft alarm'],
  [81010, 81, '劫警', 'Robbery alarm'],
  [81011, 81, '偏离路线报警', 'Route deviation alarm'],
  [81012, 81, '车辆移动报警', 'Vehicle movement alarm'],
  [81013, 81, '超时驾驶报警', 'Driving overtime alarm'],
  [81014, 81, '其他报警', 'Other alarm'],
  [81015, 81, '下级平台异常断线报警', 'Subordinate platform link lost alarm'],

  // ── 82 AEB: Chinese-only names (spec) ──
  [82001, 82, 'AEB预警', null],
  [82002, 82, 'AEB部分制动', null],
  [82003, 82, 'AEB紧急制动', null],
  [82004, 82, 'AEB行人制动', null],
  [82005, 82, 'AEB驾驶员干预', null],
  [82006, 82, 'AEB系统关闭', null],
  [82007, 82, 'AEB系统故障', null],
  [82008, 82, 'AEB雷达遮挡', null],
  [82009, 82, 'AEB摄像头遮挡', null],
  [82010, 82, 'AEB通信异常', null],
  [82011, 82, 'AEB标定异常', null],

  // ── 90 traffic violations ──
  [90001, 90, '闯红灯', 'Running a red light'],
  [90002, 90, '违法停车', 'Illegal parking'],
  [90003, 90, '逆向行驶', 'Driving against traffic'],
  [90004, 90, '不按导向车道行驶', 'Not following the lane direction arrows'],
  [90005, 90, '压实线行驶', 'Driving on a solid line'],
  [90006, 90, '违法占用应急车道', 'Illegally occupying the emergency lane'],
  [90007, 90, '违法占用公交专用车道', 'Illegally occupying the bus lane'],
  [90008, 90, '机动车不礼让行人', 'Failing to yield to pedestrians'],
  [90009, 90, '违法掉头', 'Illegal U-turn'],
  [90010, 90, '高速公路低于规定最低时速', 'Below the minimum speed on an expressway'],
  [90011, 90, '货车违法占用超车道', 'Truck illegally occupying the overtaking lane'],
  [90012, 90, '违反禁令标志指示', 'Violating a prohibition sign'],
  [90013, 90, '违反限行规定', 'Violating traffic restrictions'],
];

/** Every alarm type, headings first, then by group in the spec's order and by code. */
export const ALARM_TYPES: readonly AlarmType[] = Object.freeze(
  ROWS.map(([code, group, zh, en]) => Object.freeze({ code, group, zh, en })),
);

/**
 * The spec's "second list of codes treated specially" (meaning not shown), designed here as the
 * platform-generated types: raised by the server's rules from the position stream, fences and
 * time, never by a terminal flag or item. So they carry no device evidence (no attachments to
 * fetch, no alarm identification) and there is nothing to reply to the terminal: the
 * `...AndReplyDevice` calls and 0x8203 do not apply, and the pop-up hides the media buttons.
 * Each is produced by a rule in `sources.ts` `PLATFORM_RULES`.
 */
export const PLATFORM_GENERATED_CODES: ReadonlySet<number> = new Set([
  10031, 10035, 10036, 10047,
  11004, 11005, 11006, 11007, 11008, 11009, 11012,
  12003, 12004, 12005, 12006, 12007, 12008, 12009,
  13005, 13006, 13007, 13008, 13009, 13010, 13011,
  81015,
]);

const BY_CODE: ReadonlyMap<number, AlarmType> = new Map(ALARM_TYPES.map((t) => [t.code, t]));
const GROUP_SET: ReadonlySet<number> = new Set(ALARM_GROUPS);

/** The catalogue entry of a code, or undefined when the default catalogue has no such code. */
export function byCode(code: number): AlarmType | undefined {
  return BY_CODE.get(code);
}

/**
 * The ADAS (0x64) types, whose codes sit in group 10 by the code design (the spec numbers them
 * 10006–10017) but whose group is 19 "vehicle risk (ADAS)": the spec's catalogue keeps the forward
 * and lane alarms apart from the driver (DMS) alarms (dashboard "vehicle risk set", "driver DMS and
 * ADAS tabs"), and an operator looking under driver status for a forward collision finds nothing.
 */
export const ADAS_GROUP = 19;

/**
 * The group a code belongs to: the catalogue's group for a known code (the ADAS codes → 19),
 * else by the code design (headings → 1, else the leading digits), or undefined when that is not
 * one of the spec's groups. Works for codes added to the database later.
 */
export function groupOf(code: number): AlarmGroup | undefined {
  if (!Number.isInteger(code) || code < 1) return undefined;
  if (isClassification(code)) return CLASSIFICATION_GROUP;
  const known = BY_CODE.get(code);
  if (known !== undefined) return known.group;
  if (code < 10_000 || code >= 100_000) return undefined;
  const group = Math.floor(code / 1000);
  return GROUP_SET.has(group) && group !== CLASSIFICATION_GROUP && group !== ADAS_GROUP ? (group as AlarmGroup) : undefined;
}

/** The codes filed outside the group their leading digits name (the ADAS codes under 19). */
const MOVED: readonly AlarmType[] = ALARM_TYPES.filter((t) => t.group !== CLASSIFICATION_GROUP && Math.floor(t.code / 1000) !== t.group);

/**
 * Which codes a group filter matches, for a query over stored alarms: the code range of the
 * group's leading digits without the codes filed elsewhere, plus the codes filed here from
 * another range. (The ADAS group 19 has no range of its own: 19000–19999 is no group.)
 */
export function groupCodes(group: number): { from: number; to: number; except: number[]; plus: number[] } {
  const ranged = group !== ADAS_GROUP;
  return {
    from: ranged ? group * 1000 : 0, to: ranged ? group * 1000 + 1000 : 0,
    except: MOVED.filter((t) => Math.floor(t.code / 1000) === group).map((t) => t.code),
    plus: MOVED.filter((t) => t.group === group).map((t) => t.code),
  };
}

/** True for group headings (group 1): tree nodes, never raised as alarms. */
export function isClassification(code: number): boolean {
  return Number.isInteger(code) && code < 100 && GROUP_SET.has(code) && code !== CLASSIFICATION_GROUP;
}

/**
 * The display name in a language; English falls back to Chinese where the type has none (82,
 * 82001–82011). Unknown codes get a neutral label carrying the code so nothing shows blank.
 */
export function alarmName(code: number, lang: Lang): string {
  const t = BY_CODE.get(code);
  if (t === undefined) return lang === 'en' ? `Alarm ${code}` : `报警${code}`;
  return lang === 'en' ? (t.en ?? t.zh) : t.zh;
}

/** The alarm types of one group in code order (group 1: the headings in the spec's order). */
export function typesOfGroup(group: AlarmGroup): AlarmType[] {
  return ALARM_TYPES.filter((t) => t.group === group);
}
