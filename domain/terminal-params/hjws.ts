/**
 * The slag-truck / sanitation controller's parameters (环卫/渣土车控制器参数, /information/params/hjwsParam,
 * issue 17) as ONE private JT/T 808 parameter item, laid out like the 苏标 active-safety blocks
 * (active-safety.ts): a fixed block of BYTE / WORD / DWORD fields, big-endian, reserved bytes written as
 * zero. The same layout is read by the codec (server/gateway/jt808/parameters.ts, through
 * `activeSafetyLayout`), the simulator (server/sim/box.ts obeys it), the service's checks and the form.
 *
 * Id 0xF3A0: JT/T 808 leaves 0xF000–0xFFFF to user definitions; the regional slag-truck rules name no id,
 * 0xF364–0xF367 are 苏标 (ADAS, DSM, TPMS, BSD) and 0xF370–0xF37F are taken by other provincial
 * extensions, so the platform's controller block sits clear of them. A terminal firmware that uses
 * another id is mapped here, in one place.
 *
 * What the controller does with it (the box item 0xE1 it reports, domain/box/status.ts):
 * - lift: the body counts as raised above `liftAngle` degrees; with `liftLock` on the controller refuses
 *   to raise it while the truck moves faster than `liftSpeedLimit` (举升限速);
 * - seal: with `sealCheck` on, driving above `unsealedSpeed` with the cover open is a violation;
 * - load: the truck counts as loaded (重车) from `loadedThreshold` tonnes of measured load;
 * - speed: `loadedSpeedLimit` when loaded, held `overspeedDuration` s before it counts;
 * - photo: a photo on every lift (`liftPhoto`) on camera `photoChannel`, `photoCount` pictures.
 */
import type { BlockField, BlockLayout, BlockOption } from './active-safety.ts';

const OFF_ON: readonly BlockOption[] = [{ value: 0, zh: '关闭', en: 'Off' }, { value: 1, zh: '开启', en: 'On' }];

const f = (group: string, key: string, type: BlockField['type'], zh: string, en: string, min: number, max: number, def: number, unit?: string, extra: Partial<BlockField> = {}): BlockField =>
  ({ group, key, type, zh, en, min, max, def, ...(unit === undefined ? {} : { unit }), ...extra });

export const HJWS_PARAM_ID = 0xf3a0;

/** Alarm enable bits (`alarmEnable`): which group 70 conditions the controller reports. */
export const HJWS_ENABLE = { unsealed: 1 << 0, illegalLift: 1 << 1, loadedOverspeed: 1 << 2 } as const;

/** 0xF3A0 controller parameters, 24 bytes. */
export const HJWS_PARAMS: BlockLayout = {
  id: HJWS_PARAM_ID, key: 'hjws', zh: '环卫/渣土车控制器参数', en: 'Slag-truck controller parameters',
  entries: [
    f('lift', 'liftAngle', 'byte', '举升角度阈值', 'Lift angle threshold', 1, 60, 10, '°'),
    f('lift', 'liftLock', 'byte', '行驶中禁止举升', 'No lifting while driving', 0, 1, 0, undefined, { options: OFF_ON }),
    f('lift', 'liftSpeedLimit', 'byte', '举升限速', 'Lift speed limit', 0, 30, 5, 'km/h'),
    f('seal', 'sealCheck', 'byte', '密闭检测', 'Cover check', 0, 1, 1, undefined, { options: OFF_ON }),
    f('seal', 'unsealedSpeed', 'byte', '未密闭行驶速度阈值', 'Open-cover driving speed', 0, 30, 5, 'km/h'),
    f('load', 'loadedThreshold', 'byte', '重车载重阈值', 'Loaded from', 1, 100, 5, 't'),
    f('load', 'ratedLoad', 'byte', '核定载质量', 'Rated load', 1, 100, 30, 't'),
    f('speed', 'loadedSpeedLimit', 'byte', '重车限速', 'Speed limit loaded', 10, 120, 60, 'km/h'),
    f('speed', 'overspeedDuration', 'byte', '超速持续时间', 'Overspeed duration', 0, 60, 10, 's'),
    f('photo', 'liftPhoto', 'byte', '举升拍照', 'Photo on lift', 0, 1, 1, undefined, { options: OFF_ON }),
    f('photo', 'photoChannel', 'byte', '拍照通道', 'Photo camera channel', 1, 8, 1),
    f('photo', 'photoCount', 'byte', '拍照张数', 'Photos per lift', 1, 10, 1),
    { reserved: 2 },
    f('general', 'reportInterval', 'word', '货箱状态上报间隔', 'Box state report interval', 0, 3600, 30, 's'),
    f('general', 'alarmEnable', 'dword', '报警使能', 'Alarms enabled', 0, 0xffffffff, 0x00000007, undefined, { mask: true }),
    { reserved: 4 },
  ],
};
