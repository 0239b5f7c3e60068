/**
 * The .xlsx of a list of alarms (processing-page export, `aggregate/alarms/excel`): one sheet, a
 * header row in the caller's language, one row per alarm, times as China-time text (GMT+8). Written
 * with the report exports' writer (`services/reports/excel.ts`).
 */
import { alarmName, groupOf } from '../../../domain/alarms/catalogue.ts';
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { AlarmRecord } from '../../db/alarm-types.ts';
import { xlsxBuffer, type SheetColumn } from '../reports/excel.ts';
import { chinaTimeText } from '../track/common.ts';
import { address } from '../track/geocoder.ts';

type Row = AlarmRecord & { readonly driverCert?: string; readonly driverName?: string };
type Labels = Readonly<Record<string, readonly [zh: string, en: string]>>;

export const RISK_LABELS: Labels = { high: ['高风险', 'High'], medium: ['中风险', 'Medium'], low: ['低风险', 'Low'], ordinary: ['一般', 'Ordinary'] };
export const DEAL_STATUS_LABELS: Labels = { 0: ['未处理', 'Not processed'], 1: ['自动处理', 'Processed automatically'], 2: ['人工处理', 'Processed manually'], 3: ['无效报警', 'Invalid'] };
export const DEAL_TYPE_LABELS: Labels = { 1: ['风险解除', 'Risk released'], 2: ['风险跟踪', 'Risk tracking'], 3: ['风险升级', 'Risk escalated'], 4: ['无风险', 'No risk'] };

export const label = (labels: Labels, key: string | number | null, lang: Lang): string => {
  if (key === null) return '';
  const l = labels[String(key)];
  return l ? l[lang === 'zh' ? 0 : 1] : String(key);
};

const time = (ms: number | null) => (ms === null ? '' : chinaTimeText(ms));

/** The place of an alarm in words ('' without a fix: 0,0 or not finite). */
export function alarmAddress(a: Pick<AlarmRecord, 'lng' | 'lat'>, lang: Lang): string {
  if (!Number.isFinite(a.lng) || !Number.isFinite(a.lat) || (a.lng === 0 && a.lat === 0)) return '';
  return address(a.lng, a.lat, lang);
}

/** `withAddress`: the user's `geoInverse` setting adds the place in words after the coordinates. */
export function alarmColumns(lang: Lang, withAddress = false): SheetColumn<Row>[] {
  return [
    { header: ['车牌号', 'Plate'], width: 14, value: (a) => a.vehiidno },
    { header: ['终端号', 'Terminal'], width: 14, value: (a) => a.deviceNo },
    { header: ['所属公司', 'Company'], width: 20, value: (a) => a.companyName },
    { header: ['报警分类', 'Alarm group'], width: 14, value: (a) => { const g = groupOf(a.alarmType); return g === undefined ? '' : alarmName(g, lang); } },
    { header: ['报警类型', 'Alarm type'], width: 22, value: (a) => alarmName(a.alarmType, lang) },
    { header: ['风险等级', 'Risk level'], width: 10, value: (a) => label(RISK_LABELS, a.riskLevel, lang) },
    { header: ['报警时间', 'Alarm time'], width: 20, value: (a) => time(a.startTime) },
    { header: ['最后时间', 'Last time'], width: 20, value: (a) => time(a.lastTime) },
    { header: ['结束时间', 'End time'], width: 20, value: (a) => time(a.endTime) },
    { header: ['次数', 'Count'], width: 8, value: (a) => a.count },
    { header: ['速度(km/h)', 'Speed (km/h)'], width: 12, value: (a) => a.speed },
    { header: ['经度', 'Longitude'], width: 12, value: (a) => a.lng },
    { header: ['纬度', 'Latitude'], width: 12, value: (a) => a.lat },
    ...(withAddress ? [{ header: ['地址', 'Address'] as const, width: 30, value: (a: Row) => alarmAddress(a, lang) }] : []),
    { header: ['驾驶员', 'Driver'], width: 14, value: (a) => a.driverName ?? '' },
    { header: ['处理状态', 'Processing state'], width: 14, value: (a) => label(DEAL_STATUS_LABELS, a.dealStatus, lang) },
    { header: ['处理方式', 'Handling'], width: 12, value: (a) => label(DEAL_TYPE_LABELS, a.dealType, lang) },
    { header: ['处理人', 'Handled by'], width: 12, value: (a) => a.dealUsername },
    { header: ['处理时间', 'Handled at'], width: 20, value: (a) => time(a.dealTime) },
    { header: ['处理内容', 'Handling note'], width: 24, value: (a) => a.dealContent },
    { header: ['典型报警', 'Typical'], width: 10, value: (a) => (a.typical ? (lang === 'zh' ? '是' : 'Yes') : (lang === 'zh' ? '否' : 'No')) },
  ];
}

export function alarmWorkbook(rows: readonly Row[], lang: Lang, withAddress = false): Promise<Buffer> {
  return xlsxBuffer(lang === 'zh' ? '报警' : 'Alarms', alarmColumns(lang, withAddress), rows, lang);
}
