import { describe, expect, it } from 'vitest';
import { fieldProblemMessage } from '../errors/field-problem.ts';

// Every field code the machine-affairs calls send (server/resources/{vehicles,devices,drivers,installations}.ts,
// server/services/fleet-assets/*.ts): the console re-words each in the UI language after a switch.
const CODES: { code: string; params?: Record<string, unknown>; zh: RegExp; en: RegExp }[] = [
  { code: 'checkDigit', zh: /校验位/, en: /check digit/ },
  { code: 'characters', zh: /I、O、Q/, en: /I, O and Q/ },
  { code: 'length', zh: /17位/, en: /17 characters/ },
  { code: 'deviceBound', params: { deviceNo: '013800000001', plate: '粤A12345' }, zh: /013800000001.*粤A12345/, en: /installed on 粤A12345/ },
  { code: 'noSuchDevice', params: { deviceNo: '013800000009' }, zh: /013800000009 不存在/, en: /no device 013800000009/ },
  { code: 'deviceCompany', params: { deviceNo: '013800000009' }, zh: /上级公司/, en: /above it/ },
  { code: 'unchanged', zh: /没有变化/, en: /same as the current/ },
  { code: 'future', zh: /晚于当前/, en: /later than now/ },
  { code: 'date', zh: /日期/, en: /date/ },
  { code: 'duplicate', params: { channel: 3 }, zh: /通道 3 重复/, en: /channel 3 appears twice/ },
  { code: 'noSuchLine', zh: /线路/, en: /line/ },
  { code: 'noSuchDriver', params: { id: 5 }, zh: /司机 5/, en: /driver 5/ },
  { code: 'noSuchDeviceType', zh: /设备类型/, en: /device type/ },
  { code: 'vehicleOutside', zh: /车辆/, en: /vehicle/ },
  { code: 'lineNotInVehicleCompany', zh: /线路/, en: /line/ },
  { code: 'periodSpan', params: { maxDays: 92 }, zh: /92 天/, en: /92 days/ },
  { code: 'photoSize', params: { name: 'a.jpg', max: 2 * 1024 * 1024 }, zh: /a\.jpg/, en: /a\.jpg/ },
  { code: 'photoCount', params: { max: 9 }, zh: /9 张/, en: /9 photos/ },
  { code: 'duplicateName', params: { index: 2, name: '东站', first: 0 }, zh: /第 3 个站点「东站」与第 1 个重名/, en: /Station 3 "东站"/ },
  { code: 'badPosition', params: { index: 0 }, zh: /第 1 个站点/, en: /Station 1/ },
];

describe('machine-affairs field problems are worded in both languages', () => {
  for (const c of CODES) {
    it(c.code, () => {
      const zh = fieldProblemMessage('x', { code: c.code, params: c.params }, 'zh');
      const en = fieldProblemMessage('x', { code: c.code, params: c.params }, 'en');
      expect(zh).toMatch(c.zh);
      expect(en).toMatch(c.en);
    });
  }
});
