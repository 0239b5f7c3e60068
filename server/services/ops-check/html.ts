/**
 * The ops check's downloadable files: one self-contained HTML document each (inline CSS, inline SVG
 * charts, no script, no external asset and no URL at all), so a company can keep, mail or print it and
 * it opens the same offline years later. Every text from the database is escaped.
 */
import type { Lang } from '../../../domain/errors/catalogue.ts';
import { CHINA_OFFSET_MS } from '../../../domain/track/days.ts';

export interface InsureRow {
  vehicleId: number;
  vehiidno: string;
  companyName: string;
  mileageKm: number;
  onlineDays: number;
  days: number;
  alarms: number;
  highRiskAlarms: number;
  handledAlarms: number;
  alarmsPer100Km: number | null;
}

interface KpiItem {
  code: string; name: string; unit: string; measured: number | null; corrected: number | null; value: number | null; target: number; weight: number;
  passed: boolean | null; score: number | null; reason: string; correctedBy: string;
}

interface Kpis { score: number | null; passed: number; failed: number; items: readonly KpiItem[] }

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const t = (lang: Lang, zh: string, en: string) => (lang === 'zh' ? zh : en);
const num = (x: number | null, unit = '') => (x === null ? '—' : `${x}${unit}`);
const chinaTime = (ms: number) => new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');

const STYLE = `
  body { font-family: "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif; color: #1f2933; margin: 24px auto; max-width: 1040px; padding: 0 16px; }
  h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-left: 4px solid #1c7ed6; padding-left: 8px; }
  .meta { color: #52606d; font-size: 13px; }
  table { border-collapse: collapse; width: 100%; font-size: 13px; }
  th, td { border: 1px solid #d9e2ec; padding: 6px 8px; text-align: left; } th { background: #f0f4f8; }
  td.n { text-align: right; font-variant-numeric: tabular-nums; }
  .pass { color: #2b8a3e; font-weight: 600; } .fail { color: #c92a2a; font-weight: 600; } .none { color: #7b8794; }
  .score { font-size: 40px; font-weight: 700; } .cards { display: flex; gap: 24px; align-items: baseline; }
  svg text { font-size: 11px; fill: #334e68; }
  @media print { body { margin: 0; } }
`;

function page(lang: Lang, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

/** Horizontal bars: each KPI's achievement of its target (100% = met), failed ones red. */
function achievementChart(lang: Lang, items: readonly KpiItem[]): string {
  const judged = items.filter((i) => i.value !== null);
  if (judged.length === 0) return `<p class="none">${t(lang, '本月无可考核数据', 'No data to judge this month')}</p>`;
  const rowH = 26;
  const w = 640;
  const left = 170;
  const barW = w - left - 60;
  const bars = judged.map((i, k) => {
    const value = i.value!;
    const higher = i.unit === '%';
    const ratio = i.passed ? 1 : higher ? (i.target <= 0 ? 1 : value / i.target) : value <= 0 ? 1 : i.target / value;
    const len = Math.max(2, Math.min(1, ratio) * barW);
    const y = k * rowH + 6;
    return `<text x="0" y="${y + 14}">${escapeHtml(i.name)}</text>`
      + `<rect x="${left}" y="${y}" width="${len.toFixed(1)}" height="16" fill="${i.passed ? '#40c057' : '#fa5252'}"></rect>`
      + `<text x="${left + len + 6}" y="${y + 13}">${Math.round(Math.min(1, ratio) * 100)}%</text>`;
  }).join('');
  const h = judged.length * rowH + 12;
  return `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${t(lang, '达标程度', 'Achievement')}">`
    + `<line x1="${left + barW}" y1="0" x2="${left + barW}" y2="${h}" stroke="#829ab1" stroke-dasharray="3 3"></line>${bars}</svg>`;
}

/** Daily online rate of the month as a line. */
function onlineChart(lang: Lang, daily: readonly { date: string; rate: number | null }[]): string {
  const pts = daily.filter((d) => d.rate !== null);
  if (pts.length === 0) return `<p class="none">${t(lang, '本月无车辆上线数据', 'No online data this month')}</p>`;
  const w = 640;
  const h = 160;
  const padL = 36;
  const padB = 20;
  const x = (k: number) => padL + (daily.length <= 1 ? 0 : (k / (daily.length - 1)) * (w - padL - 10));
  const y = (r: number) => 6 + (1 - r / 100) * (h - padB - 6);
  const path = daily.map((d, k) => (d.rate === null ? '' : `${x(k).toFixed(1)},${y(d.rate).toFixed(1)}`)).filter(Boolean).join(' ');
  const grid = [0, 50, 100].map((r) => `<line x1="${padL}" y1="${y(r)}" x2="${w - 10}" y2="${y(r)}" stroke="#d9e2ec"></line><text x="0" y="${y(r) + 4}">${r}%</text>`).join('');
  const labels = daily.map((d, k) => (k % 5 === 0 || k === daily.length - 1 ? `<text x="${x(k) - 10}" y="${h - 4}">${d.date.slice(5)}</text>` : '')).join('');
  const dots = daily.map((d, k) => (d.rate === null ? '' : `<circle cx="${x(k).toFixed(1)}" cy="${y(d.rate).toFixed(1)}" r="2.5" fill="#1c7ed6"></circle>`)).join('');
  return `<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${t(lang, '每日上线率', 'Daily online rate')}">${grid}`
    + `<polyline points="${path}" fill="none" stroke="#1c7ed6" stroke-width="2"></polyline>${dots}${labels}</svg>`;
}

function insureTable(lang: Lang, rows: readonly InsureRow[]): string {
  const head = [t(lang, '车牌号', 'Plate'), t(lang, '所属公司', 'Company'), t(lang, '里程(km)', 'Mileage (km)'), t(lang, '上线天数', 'Online days'),
    t(lang, '报警数', 'Alarms'), t(lang, '高风险报警', 'High-risk alarms'), t(lang, '已处理', 'Handled'), t(lang, '百公里报警', 'Alarms per 100 km')];
  const body = rows.map((r) => `<tr><td>${escapeHtml(r.vehiidno)}</td><td>${escapeHtml(r.companyName)}</td><td class="n">${r.mileageKm}</td>`
    + `<td class="n">${r.onlineDays}/${r.days}</td><td class="n">${r.alarms}</td><td class="n">${r.highRiskAlarms}</td><td class="n">${r.handledAlarms}</td>`
    + `<td class="n">${num(r.alarmsPer100Km)}</td></tr>`).join('\n');
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${body || `<tr><td colspan="8" class="none">${t(lang, '无车辆', 'No vehicles')}</td></tr>`}</tbody></table>`;
}

export function analyseHtml(a: {
  lang: Lang; company: string; month: string; closed: boolean; generated: number; kpis: Kpis; vehicles: readonly InsureRow[];
  dailyOnline: readonly { date: string; rate: number | null }[];
}): string {
  const { lang } = a;
  const title = `${a.company} ${a.month} ${t(lang, '运维分析报告', 'operations analysis report')}`;
  const status = (p: boolean | null) => (p === null ? `<span class="none">${t(lang, '无数据', 'No data')}</span>`
    : p ? `<span class="pass">${t(lang, '达标', 'Pass')}</span>` : `<span class="fail">${t(lang, '未达标', 'Fail')}</span>`);
  const kpiRows = a.kpis.items.map((i) => `<tr><td>${escapeHtml(i.name)}</td><td class="n">${num(i.measured, i.unit === '%' ? '%' : ` ${t(lang, '分钟', 'min')}`)}</td>`
    + `<td class="n">${num(i.corrected)}</td><td class="n">${i.target}</td><td class="n">${i.weight}</td><td>${status(i.passed)}</td><td class="n">${num(i.score)}</td>`
    + `<td>${escapeHtml(i.reason)}${i.correctedBy ? ` (${escapeHtml(i.correctedBy)})` : ''}</td></tr>`).join('\n');
  const totals = a.vehicles.reduce((s, v) => ({ km: s.km + v.mileageKm, alarms: s.alarms + v.alarms, high: s.high + v.highRiskAlarms }), { km: 0, alarms: 0, high: 0 });
  const body = `
<h1>${escapeHtml(title)}</h1>
<p class="meta">${t(lang, '生成时间', 'Generated')}: ${chinaTime(a.generated)} · ${a.closed ? t(lang, '月份已结束，数据已冻结', 'month closed, figures frozen') : t(lang, '本月进行中，数据截至生成时间', 'month in progress, figures up to generation time')}</p>
<div class="cards"><div><div class="meta">${t(lang, '综合得分', 'Score')}</div><div class="score" data-score>${num(a.kpis.score)}</div></div>
<div>${t(lang, '达标', 'Passed')} <b>${a.kpis.passed}</b> · ${t(lang, '未达标', 'Failed')} <b>${a.kpis.failed}</b></div>
<div>${t(lang, '车辆', 'Vehicles')} <b>${a.vehicles.length}</b> · ${t(lang, '里程', 'Mileage')} <b>${Math.round(totals.km * 10) / 10}</b> km · ${t(lang, '报警', 'Alarms')} <b>${totals.alarms}</b></div></div>
<h2>${t(lang, '考核指标', 'KPIs')}</h2>
<table><thead><tr><th>${t(lang, '指标', 'KPI')}</th><th>${t(lang, '实测值', 'Measured')}</th><th>${t(lang, '修正值', 'Corrected')}</th><th>${t(lang, '目标', 'Target')}</th>
<th>${t(lang, '权重', 'Weight')}</th><th>${t(lang, '结果', 'Result')}</th><th>${t(lang, '得分', 'Score')}</th><th>${t(lang, '修正原因', 'Correction')}</th></tr></thead>
<tbody>${kpiRows}</tbody></table>
<h2>${t(lang, '达标程度', 'Achievement of targets')}</h2>${achievementChart(lang, a.kpis.items)}
<h2>${t(lang, '每日上线率', 'Daily online rate')}</h2>${onlineChart(lang, a.dailyOnline)}
<h2>${t(lang, '报警最多的车辆', 'Vehicles with the most alarms')}</h2>${insureTable(lang, a.vehicles.slice(0, 20))}
`;
  return page(lang, title, body);
}

export function insureHtml(a: { lang: Lang; company: string; month: string; generated: number; rows: readonly InsureRow[] }): string {
  const { lang } = a;
  const title = `${a.company} ${a.month} ${t(lang, '保险报告', 'insurance report')}`;
  const body = `
<h1>${escapeHtml(title)}</h1>
<p class="meta">${t(lang, '生成时间', 'Generated')}: ${chinaTime(a.generated)} · ${t(lang, '每车当月报警与里程', 'alarms and mileage per vehicle for the month')}</p>
${insureTable(lang, a.rows)}
`;
  return page(lang, title, body);
}
