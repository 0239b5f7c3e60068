/**
 * The wall's data panels. Each reads one wall call (server/services/walls) through `useWallQuery`
 * or the live ticker, draws in em (the wall's type scale), and shows "—" rather than a number it
 * does not have. `data-testid`s carry the figures the e2e compares with the server's answers.
 */
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { alarmName } from '../../../../domain/alarms/catalogue.ts';
import type { MissingSource } from '../../../../domain/walls/preset.ts';
import { useLang, useT } from '../../../i18n/index.ts';
import { WALLS_NS } from '../messages.ts';
import { REFRESH, useWall, useWallQuery } from '../wall-context.ts';
import { TICKER_MAX, type TickerAlarm, type WallLiveState } from '../wall-live.ts';
import classes from '../walls.module.css';

interface StateCounts {
  vehicleTotal: number; vehicleOnline: number; vehicleTodayOnline: number; vehicleRunning: number; vehicleStop: number;
  vehicleIdle: number; vehicleOffline: number; vehicleNeverOnline: number; onlineRate: number;
}

const fmtTime = (t: number) => {
  const d = new Date(t);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`;
};

/** The last answer when a refresh failed: say from when, so nobody mistakes old figures for live ones. */
export function Stale({ failed, updatedAt }: { failed: boolean; updatedAt: number }) {
  const t = useT(WALLS_NS);
  if (!failed || updatedAt === 0) return null;
  return <div className={classes.stale} data-testid="wall-stale">{t('stale', { time: fmtTime(updatedAt) })}</div>;
}

function Body({ children, stale }: { children: ReactNode; stale?: ReactNode }) {
  return (
    <>
      <div className={classes.body}>{children}</div>
      {stale}
    </>
  );
}

function Figure({ value, label, id }: { value: number | undefined; label: string; id: string }) {
  return (
    <div className={classes.figure}>
      <b data-testid={`wall-figure-${id}`}>{value ?? '—'}</b>
      <span>{label}</span>
    </div>
  );
}

export function FleetStatesPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<StateCounts>('/service-monitor/screen/V3/realtimestat', {}, REFRESH.states);
  const d = q.data;
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.figures}>
        <Figure id="total" value={d?.vehicleTotal} label={t('state.total')} />
        <Figure id="online" value={d?.vehicleOnline} label={t('state.online')} />
        <Figure id="driving" value={d?.vehicleRunning} label={t('state.driving')} />
        <Figure id="parking" value={d?.vehicleStop} label={t('state.parking')} />
        <Figure id="idling" value={d?.vehicleIdle} label={t('state.idling')} />
        <Figure id="offline" value={d?.vehicleOffline} label={t('state.offline')} />
        <Figure id="neverOnline" value={d?.vehicleNeverOnline} label={t('state.neverOnline')} />
        <Figure id="todayOnline" value={d?.vehicleTodayOnline} label={t('state.todayOnline')} />
      </div>
    </Body>
  );
}

export function OnlineRatePanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<StateCounts>('/service-monitor/screen/V3/realtimestat', {}, REFRESH.states);
  const d = q.data;
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.big} data-testid="wall-online-rate">{d ? `${d.onlineRate.toFixed(1)}%` : '—'}</div>
      {d ? <div className={classes.muted}>{t('onlineOf', { online: d.vehicleOnline, total: d.vehicleTotal })}</div> : null}
      {d ? <div className={classes.barTrack} style={{ marginTop: '0.6em' }}><div className={classes.bar} style={{ width: `${d.onlineRate}%` }} /></div> : null}
    </Body>
  );
}

const noop = () => () => undefined;
const EMPTY_LIVE: WallLiveState = { connection: 'connecting', attempt: 0, alarms: [] };

export function AlarmTickerPanel() {
  const t = useT(WALLS_NS);
  const lang = useLang();
  const { live } = useWall();
  const state = useSyncExternalStore(live?.subscribe ?? noop, live?.getState ?? (() => EMPTY_LIVE));
  // The stored alarms of the last day fill the ticker at start (and every 30 s, deduplicated); the push stream adds each new one.
  const fill = useWallQuery<{ records: TickerAlarm[] }>('/service-safesheet/screenV2/realtimeAlarms', { size: TICKER_MAX }, REFRESH.alarms);
  useEffect(() => {
    if (fill.data) live?.pushAlarms(fill.data.records);
  }, [fill.data, live]);
  return (
    <Body stale={<Stale failed={fill.isError} updatedAt={fill.dataUpdatedAt} />}>
      <div className={classes.ticker} data-testid="wall-ticker">
        {state.alarms.length === 0 ? <div className={classes.muted}>{t('noAlarms')}</div> : null}
        {state.alarms.map((a) => (
          <div key={a.id} className={classes.alarm} data-testid="wall-alarm" data-alarm-id={a.id}>
            <i data-level={a.riskLevel} />
            <strong>{a.vehiidno} · {alarmName(a.alarmType, lang)}</strong>
            <span className={classes.muted}>{fmtTime(a.gpsTime)}</span>
            <small>{a.companyName}{a.riskLevel in LEVEL_KEYS ? ` · ${t(`level.${a.riskLevel}`)}` : ''}</small>
            <small>{t('kmh', { speed: Math.round(a.speed) })}</small>
          </div>
        ))}
      </div>
    </Body>
  );
}
const LEVEL_KEYS = { high: 1, medium: 1, low: 1, ordinary: 1 };

interface AlarmTypes { total: number; unprocessed: number; vehicles: number; types: { alarmType: number; name: string; count: number }[]; otherTypes: number }

export function AlarmTypesTodayPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<AlarmTypes>('/service-monitor/screen/V3/getUserAlarmData', { top: 8 }, REFRESH.alarmCounts);
  const d = q.data;
  const max = Math.max(1, ...(d?.types.map((x) => x.count) ?? []));
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.figures} style={{ marginBottom: '0.4em' }}>
        <Figure id="alarms-today" value={d?.total} label={t('today')} />
      </div>
      <div className={classes.rows}>
        {d && d.types.length === 0 ? <div className={classes.muted}>{t('noAlarmsToday')}</div> : null}
        {d?.types.map((x) => (
          <div key={x.alarmType} className={classes.row}>
            <span>{x.name}</span>
            <b>{x.count}</b>
            <div className={classes.barTrack}><div className={classes.bar} style={{ width: `${(x.count / max) * 100}%` }} /></div>
          </div>
        ))}
        {d && d.otherTypes > 0 ? <div className={classes.muted}>{t('otherTypes', { count: d.otherTypes })}</div> : null}
      </div>
    </Body>
  );
}

export function AlarmWeekPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<{ days: { date: string; count: number; today: boolean }[] }>('/service-monitor/screen/V3/getWeekUserAlarmData', {}, REFRESH.alarmCounts);
  const days = q.data?.days ?? [];
  const max = Math.max(1, ...days.map((d) => d.count));
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.columns}>
        {days.map((d) => (
          <div key={d.date} className={classes.column} data-today={d.today} data-testid="wall-week-day" data-count={d.count}>
            <b>{d.count}</b>
            <div style={{ height: `${(d.count / max) * 75}%` }} />
            <span>{d.today ? t('today') : d.date.slice(5)}</span>
          </div>
        ))}
      </div>
    </Body>
  );
}

const LEVEL_COLOR: Record<string, string> = { high: 'var(--wall-bad)', medium: 'var(--wall-warn)', low: 'var(--wall-accent)', ordinary: 'var(--wall-dim)' };

export function RiskLevelsPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<{ levels: { level: string; count: number }[]; total: number; processedRate: number | null }>('/service-safesheet/screen/synplatformlevel', {}, REFRESH.alarmCounts);
  const d = q.data;
  const max = Math.max(1, ...(d?.levels.map((l) => l.count) ?? []));
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.rows}>
        {d?.levels.map((l) => (
          <div key={l.level} className={classes.row}>
            <span>{t(`level.${l.level}`)}</span>
            <b data-testid={`wall-level-${l.level}`}>{l.count}</b>
            <div className={classes.barTrack}><div className={classes.bar} style={{ width: `${(l.count / max) * 100}%`, background: LEVEL_COLOR[l.level] }} /></div>
          </div>
        ))}
        {d && d.processedRate !== null ? <div className={classes.muted}>{t('processedRate', { rate: d.processedRate })}</div> : null}
      </div>
    </Body>
  );
}

export function CompanyFleetPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<{ companies: { companyId: number; companyName: string; total: number; online: number; onlineRate: number }[]; more: number }>(
    '/service-safesheet/screen/synvehicle', { top: 10 }, REFRESH.companies,
  );
  const d = q.data;
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.rows}>
        {d?.companies.map((c) => (
          <div key={c.companyId} className={classes.row}>
            <span>{c.companyName}</span>
            <b>{c.online} / {c.total}</b>
            <div className={classes.barTrack}><div className={classes.bar} style={{ width: `${c.onlineRate}%`, background: 'var(--wall-good)' }} /></div>
          </div>
        ))}
        {d && d.more > 0 ? <div className={classes.muted}>{t('more', { count: d.more })}</div> : null}
      </div>
    </Body>
  );
}

export function LatestReportsPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<{ records: { vehicleId: number; vehiidno: string; companyName: string; speed: number; state: number; lastContact: number }[] }>(
    '/service-monitor/screen/V3/getVehicleLast', { size: 12 }, REFRESH.latest,
  );
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.rows}>
        {q.data?.records.map((r) => (
          <div key={r.vehicleId} className={classes.row}>
            <span>{r.vehiidno} · {t(`vehicleState.${r.state}`)} · {t('kmh', { speed: Math.round(r.speed) })}</span>
            <span className={classes.muted}>{fmtTime(r.lastContact)}</span>
          </div>
        ))}
      </div>
    </Body>
  );
}

/** The dashboard's risk ranking (30 days, the riskiest scaled to 100), served to walls by wall/data/riskRanking. */
export function RiskRankingPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<{ records: { vehicleId: number; vehiidno: string; totalScore: number }[] }>('/service-priv/wall/data/riskRanking', {}, REFRESH.week);
  const rows = q.data?.records ?? [];
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.rows}>
        {q.data && rows.length === 0 ? <div className={classes.muted}>{t('noRisk')}</div> : null}
        {rows.map((r, i) => (
          <div key={r.vehicleId} className={classes.row} data-testid="wall-risk-row" data-score={r.totalScore}>
            <span>{i + 1}. {r.vehiidno}</span>
            <b>{r.totalScore.toFixed(1)}</b>
            <div className={classes.barTrack}><div className={classes.bar} style={{ width: `${r.totalScore}%`, background: r.totalScore >= 80 ? 'var(--wall-bad)' : 'var(--wall-warn)' }} /></div>
          </div>
        ))}
      </div>
    </Body>
  );
}

/** The dashboard's 7-day driving (km per China day before today), served to walls by wall/data/dailyMile. */
export function DrivingWeekPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<{ _id: string; aliveMile: number; aliveMinutes: number; vehicles: number }[]>('/service-priv/wall/data/dailyMile', {}, REFRESH.week);
  const days = q.data ?? [];
  const max = Math.max(1, ...days.map((d) => d.aliveMile));
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.columns}>
        {days.map((d) => (
          <div key={d._id} className={classes.column} data-testid="wall-driving-day" data-km={d.aliveMile} title={t('drivingHours', { hours: (d.aliveMinutes / 60).toFixed(1) })}>
            <b>{Math.round(d.aliveMile)}</b>
            <div style={{ height: `${(d.aliveMile / max) * 75}%`, background: 'var(--wall-good)' }} />
            <span>{d._id.slice(5)}</span>
          </div>
        ))}
      </div>
    </Body>
  );
}

/** Live video watched today over the wall's vehicles (screen/synvideo). */
export function VideoTodayPanel() {
  const t = useT(WALLS_NS);
  const q = useWallQuery<{ connections: number; vehicles: number; open: number; megabytes: number }>('/service-safesheet/screen/synvideo', {}, REFRESH.alarms);
  const d = q.data;
  return (
    <Body stale={<Stale failed={q.isError} updatedAt={q.dataUpdatedAt} />}>
      <div className={classes.figures}>
        <Figure id="video-open" value={d?.open} label={t('video.open')} />
        <Figure id="video-connections" value={d?.connections} label={t('video.connections')} />
        <Figure id="video-vehicles" value={d?.vehicles} label={t('video.vehicles')} />
        <Figure id="video-mb" value={d?.megabytes} label={t('video.megabytes')} />
      </div>
    </Body>
  );
}

export function MissingSourcePanel({ source }: { source: MissingSource | undefined }) {
  const t = useT(WALLS_NS);
  return (
    <Body>
      <div className={classes.missing} data-testid="wall-missing-source" data-source={source}>
        <strong>{t('missing.title')}</strong>
        <span>{source ? t(`missing.${source}`) : ''}</span>
      </div>
    </Body>
  );
}
