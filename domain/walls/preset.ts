/**
 * Wall presets (issue 14, /largeScreen): the eight variants are one wall framework fed by a preset
 * each — title, company scope, theme, map centre and zoom, and panels placed on a fixed grid. The
 * defaults live here; an administrator's changes are stored on the server (migration 21) and
 * checked by `presetProblems` before they are saved, so a wall never meets a layout it cannot draw.
 * Pure: no DOM, no Node (the server validates with it, the console's editor shows the same problems).
 */

/** The eight walls of the spec (route `/largeScreen/<key>`). */
export const WALL_KEYS = [
  'overallMonitoring',
  'monitoringCenter',
  'monitoringCenterNew',
  'shellProject',
  'monitoringCenterQingHua',
  'monitoringCenterZiBo',
  'monitoringParkCharge',
  'monitoringCenterKaiXin',
] as const;
export type WallKey = (typeof WALL_KEYS)[number];

export function isWallKey(v: unknown): v is WallKey {
  return typeof v === 'string' && (WALL_KEYS as readonly string[]).includes(v);
}

/**
 * What a panel shows. Every kind reads real server data or the push stream; `missingSource` says
 * which data source the wall would need and that it is not built yet (never invented figures).
 */
export const PANEL_KINDS = [
  'map', // the fleet moving live (stream worker + deck.gl)
  'fleetStates', // totals by state (screen/V3/realtimestat)
  'onlineRate', // online share (screen/V3/realtimestat)
  'alarmTicker', // rolling alarms (push stream; first fill from screenV2/realtimeAlarms)
  'alarmTypesToday', // today's alarms by type (screen/V3/getUserAlarmData)
  'alarmWeek', // alarms per day, last 7 days and today (screen/V3/getWeekUserAlarmData)
  'riskLevels', // today's alarms by risk level, processed share (screen/synplatformlevel)
  'companyFleet', // vehicles and online per company (screen/synvehicle)
  'latestReports', // vehicles that reported last (screen/V3/getVehicleLast)
  'riskRanking', // the dashboard's 5 riskiest vehicles of 30 days (wall/data/riskRanking)
  'drivingWeek', // the dashboard's km and driving hours per day, 7 days before today (wall/data/dailyMile)
  'videoToday', // live video watched today: connections, vehicles, open now, volume (screen/synvideo)
  'missingSource', // a data source other issues have not built yet
] as const;
export type PanelKind = (typeof PANEL_KINDS)[number];

/** Data sources a variant names that do not exist yet (shown, never faked). */
export const MISSING_SOURCES = ['parkingRevenue', 'shellFuel', 'parkingOccupancy', 'roadTest'] as const;
export type MissingSource = (typeof MISSING_SOURCES)[number];

export interface PanelPlacement {
  readonly kind: PanelKind;
  /** Grid column and row of the top-left cell (0-based) and the size in cells. */
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** For `missingSource` only: which source. */
  readonly source?: MissingSource;
}

export interface WallPreset {
  readonly title: { readonly zh: string; readonly en: string };
  /** The company whose subtree the wall shows; null = the viewer's whole scope (credential or user). */
  readonly companyId: number | null;
  readonly theme: 'dark' | 'light';
  /**
   * `basemap`: 'streets' (the default when absent) draws the server's self-hosted street map in its
   * dark or light flavour when the server holds an archive, else the bundled outline; 'outline' keeps the
   * outline (a wall about provinces, not streets).
   */
  readonly map: { readonly center: readonly [number, number]; readonly zoom: number; readonly basemap?: 'streets' | 'outline' };
  readonly panels: readonly PanelPlacement[];
}

/** What a wall's map draws: the street map when the preset allows it and the server holds an archive. */
export function wallBasemap(basemap: WallPreset['map']['basemap'], hasStreetArchive: boolean): 'streets' | 'outline' {
  return basemap !== 'outline' && hasStreetArchive ? 'streets' : 'outline';
}

/** The grid every wall lays its panels on: 24 × 12 cells of the area under the title bar. */
export const GRID_COLUMNS = 24;
export const GRID_ROWS = 12;
export const TITLE_MAX = 40;
export const PANELS_MAX = 16;
export const ZOOM_MIN = 2;
export const ZOOM_MAX = 16;

const CHINA: readonly [number, number] = [104.2, 35.9];

const p = (kind: PanelKind, x: number, y: number, w: number, h: number, source?: MissingSource): PanelPlacement =>
  source ? { kind, x, y, w, h, source } : { kind, x, y, w, h };

/**
 * The factory presets. Layouts follow control-room practice: the map holds the centre and the
 * largest area, state totals top-left (read first), alarms on the right where the eye lands after
 * the map, trends along the bottom.
 */
export const DEFAULT_PRESETS: Readonly<Record<WallKey, WallPreset>> = {
  overallMonitoring: {
    title: { zh: '综合监控大屏', en: 'Fleet overview' }, companyId: null, theme: 'dark', map: { center: CHINA, zoom: 4.1 },
    panels: [p('fleetStates', 0, 0, 6, 4), p('onlineRate', 0, 4, 6, 3), p('companyFleet', 0, 7, 6, 5), p('map', 6, 0, 12, 8),
      p('alarmWeek', 6, 8, 6, 4), p('riskLevels', 12, 8, 6, 4), p('alarmTypesToday', 18, 0, 6, 5), p('alarmTicker', 18, 5, 6, 7)],
  },
  monitoringCenter: {
    title: { zh: '监控中心大屏', en: 'Monitoring centre' }, companyId: null, theme: 'dark', map: { center: CHINA, zoom: 4.1 },
    panels: [p('map', 0, 0, 17, 12), p('fleetStates', 17, 0, 7, 3), p('alarmTicker', 17, 3, 7, 6), p('latestReports', 17, 9, 7, 3)],
  },
  monitoringCenterNew: {
    title: { zh: '监控中心大屏（新）', en: 'Monitoring centre (new)' }, companyId: null, theme: 'dark', map: { center: CHINA, zoom: 4.1 },
    panels: [p('fleetStates', 0, 0, 5, 4), p('companyFleet', 0, 4, 5, 5), p('videoToday', 0, 9, 5, 3), p('map', 5, 0, 14, 9), p('alarmWeek', 5, 9, 7, 3),
      p('riskLevels', 12, 9, 7, 3), p('alarmTicker', 19, 0, 5, 12)],
  },
  shellProject: {
    title: { zh: '壳牌项目大屏', en: 'Shell project' }, companyId: null, theme: 'dark', map: { center: CHINA, zoom: 4.1 },
    panels: [p('fleetStates', 0, 0, 6, 4), p('missingSource', 0, 4, 6, 4, 'shellFuel'), p('missingSource', 0, 8, 6, 4, 'roadTest'),
      p('map', 6, 0, 12, 12), p('alarmTypesToday', 18, 0, 6, 5), p('alarmTicker', 18, 5, 6, 7)],
  },
  monitoringCenterQingHua: {
    title: { zh: '清华监控中心', en: 'Qinghua monitoring centre' }, companyId: null, theme: 'dark', map: { center: [116.33, 40.0], zoom: 9 },
    panels: [p('fleetStates', 0, 0, 6, 4), p('onlineRate', 0, 4, 6, 3), p('alarmTypesToday', 0, 7, 6, 5), p('map', 6, 0, 12, 12),
      p('alarmTicker', 18, 0, 6, 8), p('riskLevels', 18, 8, 6, 4)],
  },
  monitoringCenterZiBo: {
    title: { zh: '淄博监控中心', en: 'Zibo monitoring centre' }, companyId: null, theme: 'dark', map: { center: [118.05, 36.81], zoom: 9 },
    panels: [p('fleetStates', 0, 0, 6, 4), p('latestReports', 0, 4, 6, 8), p('map', 6, 0, 12, 9), p('alarmWeek', 6, 9, 6, 3),
      p('drivingWeek', 12, 9, 6, 3), p('alarmTicker', 18, 0, 6, 12)],
  },
  monitoringParkCharge: {
    title: { zh: '停车收费大屏', en: 'Parking revenue' }, companyId: null, theme: 'dark', map: { center: CHINA, zoom: 4.1 },
    panels: [p('missingSource', 0, 0, 6, 6, 'parkingRevenue'), p('missingSource', 0, 6, 6, 6, 'parkingOccupancy'), p('map', 6, 0, 12, 12),
      p('fleetStates', 18, 0, 6, 4), p('alarmTicker', 18, 4, 6, 8)],
  },
  monitoringCenterKaiXin: {
    title: { zh: '开心监控中心', en: 'Kaixin monitoring centre' }, companyId: null, theme: 'dark', map: { center: CHINA, zoom: 4.1 },
    panels: [p('onlineRate', 0, 0, 6, 3), p('fleetStates', 0, 3, 6, 4), p('riskRanking', 0, 7, 6, 5), p('map', 6, 0, 12, 12),
      p('latestReports', 18, 0, 6, 5), p('alarmTicker', 18, 5, 6, 7)],
  },
};

/** A problem with a preset, keyed for the UI language (the editor and the server's 400 say the same). */
export type PresetProblem =
  | { readonly code: 'shape'; readonly field: string }
  | { readonly code: 'title'; readonly lang: 'zh' | 'en' }
  | { readonly code: 'unknownKind'; readonly index: number }
  | { readonly code: 'outsideGrid'; readonly index: number }
  | { readonly code: 'overlap'; readonly index: number; readonly other: number }
  | { readonly code: 'tooManyPanels' }
  | { readonly code: 'noPanels' }
  | { readonly code: 'twoMaps' }
  | { readonly code: 'sourceMissing'; readonly index: number }
  | { readonly code: 'center' }
  | { readonly code: 'zoom' };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every problem of a candidate preset (any JSON value); empty when the wall can draw it.
 * Panels must lie inside the 24 × 12 grid without overlapping, at most one map, ≤ 16 panels.
 */
export function presetProblems(v: unknown): PresetProblem[] {
  const out: PresetProblem[] = [];
  if (!isObj(v)) return [{ code: 'shape', field: 'preset' }];
  const title = v['title'];
  if (!isObj(title)) out.push({ code: 'shape', field: 'title' });
  else for (const lang of ['zh', 'en'] as const) {
    const s = title[lang];
    if (typeof s !== 'string' || s.trim().length === 0 || s.length > TITLE_MAX) out.push({ code: 'title', lang });
  }
  const companyId = v['companyId'];
  if (companyId !== null && !(isInt(companyId) && companyId > 0)) out.push({ code: 'shape', field: 'companyId' });
  if (v['theme'] !== 'dark' && v['theme'] !== 'light') out.push({ code: 'shape', field: 'theme' });
  const map = v['map'];
  if (!isObj(map)) out.push({ code: 'shape', field: 'map' });
  else {
    const c = map['center'];
    if (!Array.isArray(c) || c.length !== 2 || typeof c[0] !== 'number' || typeof c[1] !== 'number' || !(Math.abs(c[0]) <= 180) || !(Math.abs(c[1]) <= 85)) {
      out.push({ code: 'center' });
    }
    const z = map['zoom'];
    if (typeof z !== 'number' || !(z >= ZOOM_MIN && z <= ZOOM_MAX)) out.push({ code: 'zoom' });
    const b = map['basemap'];
    if (b !== undefined && b !== 'streets' && b !== 'outline') out.push({ code: 'shape', field: 'map.basemap' });
  }
  const panels = v['panels'];
  if (!Array.isArray(panels)) {
    out.push({ code: 'shape', field: 'panels' });
    return out;
  }
  if (panels.length === 0) out.push({ code: 'noPanels' });
  if (panels.length > PANELS_MAX) out.push({ code: 'tooManyPanels' });
  const placed: { x: number; y: number; w: number; h: number; index: number }[] = [];
  let maps = 0;
  panels.forEach((panel: unknown, index) => {
    if (!isObj(panel) || !(PANEL_KINDS as readonly unknown[]).includes(panel['kind'])) {
      out.push({ code: 'unknownKind', index });
      return;
    }
    if (panel['kind'] === 'map') maps++;
    if (panel['kind'] === 'missingSource' && !(MISSING_SOURCES as readonly unknown[]).includes(panel['source'])) out.push({ code: 'sourceMissing', index });
    const { x, y, w, h } = panel;
    if (!isInt(x) || !isInt(y) || !isInt(w) || !isInt(h) || x < 0 || y < 0 || w < 1 || h < 1 || x + w > GRID_COLUMNS || y + h > GRID_ROWS) {
      out.push({ code: 'outsideGrid', index });
      return;
    }
    for (const o of placed) {
      if (x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h) out.push({ code: 'overlap', index, other: o.index });
    }
    placed.push({ x, y, w, h, index });
  });
  if (maps > 1) out.push({ code: 'twoMaps' });
  return out;
}

/** The problem in words, for the server's 400 and the editor (both languages). */
export function describeProblem(p: PresetProblem, lang: 'zh' | 'en'): string {
  const zh = lang === 'zh';
  const n = (i: number) => (zh ? `第 ${i + 1} 个面板` : `panel ${i + 1}`);
  switch (p.code) {
    case 'shape': return zh ? `字段 ${p.field} 格式不正确` : `The field ${p.field} has the wrong form`;
    case 'title': return zh ? `标题（${p.lang}）须为 1–${TITLE_MAX} 个字符` : `The title (${p.lang}) must be 1–${TITLE_MAX} characters`;
    case 'unknownKind': return zh ? `${n(p.index)}的类型未知` : `The kind of ${n(p.index)} is unknown`;
    case 'outsideGrid': return zh ? `${n(p.index)}超出 ${GRID_COLUMNS}×${GRID_ROWS} 网格` : `${n(p.index)} lies outside the ${GRID_COLUMNS}×${GRID_ROWS} grid`;
    case 'overlap': return zh ? `${n(p.index)}与${n(p.other)}重叠` : `${n(p.index)} overlaps ${n(p.other)}`;
    case 'tooManyPanels': return zh ? `最多 ${PANELS_MAX} 个面板` : `At most ${PANELS_MAX} panels`;
    case 'noPanels': return zh ? '至少需要一个面板' : 'At least one panel is needed';
    case 'twoMaps': return zh ? '只能有一个地图面板' : 'Only one map panel is allowed';
    case 'sourceMissing': return zh ? `${n(p.index)}须指明缺少的数据源` : `${n(p.index)} must name the missing source`;
    case 'center': return zh ? '地图中心须为 [经度, 纬度]' : 'The map centre must be [longitude, latitude]';
    case 'zoom': return zh ? `地图缩放须在 ${ZOOM_MIN}–${ZOOM_MAX} 之间` : `The map zoom must be between ${ZOOM_MIN} and ${ZOOM_MAX}`;
  }
}
