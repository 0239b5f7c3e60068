/**
 * One wall framework for the eight /largeScreen variants (CONTEXT.md): load the wall's preset from
 * the server (re-read every minute, so an administrator's change reaches a running wall without a
 * person), start its live half, and lay the preset's panels on the 24 × 12 grid under a title bar
 * with the clock and the connection state. No dialogs, no scroll bars; a refused key says so full-screen.
 */
import { useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import type { PanelPlacement, WallKey, WallPreset } from '../../../domain/walls/preset.ts';
import { useLang, useT } from '../../i18n/index.ts';
import { themeState } from '../../shell/theme.ts';
import { mapSourceStore } from '../map/map-source-store.ts';
import { displayCrsOf } from '../map/map-sources.ts';
import { WALLS_NS } from './messages.ts';
import {
  AlarmTickerPanel, AlarmTypesTodayPanel, AlarmWeekPanel, CompanyFleetPanel, DrivingWeekPanel, FleetStatesPanel, LatestReportsPanel, MissingSourcePanel,
  OnlineRatePanel, RiskLevelsPanel, RiskRankingPanel, VideoTodayPanel,
} from './panels/WallPanels.tsx';
import { WallMap } from './panels/WallMap.tsx';
import { authKey, REFRESH, WallContext, type WallContextValue } from './wall-context.ts';
import { wallGet, WallApiError, type WallAuth } from './wall-api.ts';
import { REVOKED_CLOSE_CODE, WallLive, type WallLiveOptions, type WallLiveState } from './wall-live.ts';
import classes from './walls.module.css';

export interface PresetAnswer {
  wall: WallKey;
  preset: WallPreset;
  stored: boolean;
  /** The company the wall shows (null: the viewer's whole scope). */
  companyId: number | null;
  companyOutsideViewer: boolean;
  viewer: { kind: 'display' | 'user'; name: string };
}

export function WallPage({ wall }: { wall: WallKey }) {
  const t = useT(WALLS_NS);
  const lang = useLang();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const key = typeof search['key'] === 'string' && search['key'].startsWith('wd.') ? search['key'] : null;
  const [auth] = useState<WallAuth>(() => (key ? { kind: 'display', key } : { kind: 'user' }));
  const preset = useQuery({
    queryKey: ['wall', authKey(auth), 'preset', wall, lang],
    queryFn: () => wallGet<PresetAnswer>(auth, '/service-priv/wall/preset/get', { wall }, lang),
    refetchInterval: REFRESH.preset,
    refetchIntervalInBackground: true,
    retry: false,
  });
  const { refetch } = preset;
  const onRevoked = useCallback(() => void refetch(), [refetch]);
  const error = preset.error instanceof WallApiError ? preset.error : null;
  if (error?.refused && auth.kind === 'display') return <div className={classes.center} data-testid="wall-refused">{t('revoked')}</div>;
  if (error?.status === 403) return <div className={classes.center} data-testid="wall-refused">{t('noWall')}</div>;
  if (!preset.data) return <div className={classes.center} data-testid="wall-loading">{preset.isError ? t('loadFailed') : ''}</div>;
  return <WallFrame wall={wall} auth={auth} answer={preset.data} onRevoked={onRevoked} />;
}

export interface WallFrameProps {
  wall: WallKey;
  auth: WallAuth;
  answer: PresetAnswer;
  /** The soak bench's synthetic stream and frame hook (bench/wall-soak.bench.ts); the live stream otherwise. */
  liveOptions?: Pick<WallLiveOptions, 'stream' | 'mapOptions'>;
  /** The server closed the stream because the key was revoked: re-read the preset (its 401 shows the notice). */
  onRevoked?: () => void;
}

/** A wall with its preset in hand: title bar, panels on the grid, the live half. */
export function WallFrame({ wall, auth, answer, liveOptions, onRevoked }: WallFrameProps) {
  const t = useT(WALLS_NS);
  const lang = useLang();
  const { preset, companyId } = answer;
  const hasMap = preset.panels.some((p) => p.kind === 'map');
  const [live, setLive] = useState<WallLive | null>(null);

  // The preset's theme while the wall is open (not stored: a wall's window has no other page).
  useEffect(() => {
    const before = themeState.name;
    themeState.name = preset.theme === 'dark' ? 'dark' : before === 'dark' ? 'blue' : before;
    return () => {
      themeState.name = before;
    };
  }, [preset.theme]);

  // One live half per (map or not, company): a preset change that keeps both keeps the stream.
  useEffect(() => {
    const l = new WallLive(auth, { map: hasMap, crs: displayCrsOf(mapSourceStore.get()), companyId, ...liveOptions });
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the live half owns workers, so it is created in an effect
    setLive(l);
    return () => l.dispose();
  }, [auth, hasMap, companyId, liveOptions]);

  const closeCode = useSyncExternalStore(live?.subscribe ?? noop, () => live?.getState().closeCode);
  useEffect(() => {
    if (closeCode === REVOKED_CLOSE_CODE) onRevoked?.();
  }, [closeCode, onRevoked]);

  const ctx: WallContextValue = { auth, companyId, live };
  return (
    <WallContext.Provider value={ctx}>
      <div className={classes.wall} data-theme={preset.theme} data-testid="wall" data-wall={wall}>
        <header className={classes.title}>
          <Clock />
          <h1 data-testid="wall-title">{lang === 'en' ? preset.title.en : preset.title.zh}</h1>
          <div className={classes.status}>
            {answer.companyOutsideViewer ? <span>{t('companyOutside')}</span> : null}
            {answer.viewer.kind === 'display' ? <span>{t('viewerDisplay', { name: answer.viewer.name })}</span> : null}
            <ConnectionState live={live} />
          </div>
        </header>
        <main className={classes.grid}>
          {preset.panels.map((p, i) => (
            <section
              key={`${p.kind}-${p.x}-${p.y}`}
              className={classes.panel}
              data-testid={`wall-panel-${p.kind}`}
              data-index={i}
              style={{ gridColumn: `${p.x + 1} / span ${p.w}`, gridRow: `${p.y + 1} / span ${p.h}` }}
            >
              <h2>{t(`panel.${p.kind}`)}</h2>
              <PanelBody placement={p} live={live} center={preset.map.center} zoom={preset.map.zoom} basemap={preset.map.basemap} />
            </section>
          ))}
        </main>
      </div>
    </WallContext.Provider>
  );
}

function PanelBody({ placement, live, center, zoom, basemap }: { placement: PanelPlacement; live: WallLive | null; center: readonly [number, number]; zoom: number; basemap: WallPreset['map']['basemap'] }): ReactNode {
  switch (placement.kind) {
    case 'map':
      return <div className={classes.mapBody}>{live?.map ? <WallMap controller={live.map} center={center} zoom={zoom} basemap={basemap} /> : null}</div>;
    case 'fleetStates': return <FleetStatesPanel />;
    case 'onlineRate': return <OnlineRatePanel />;
    case 'alarmTicker': return <AlarmTickerPanel />;
    case 'alarmTypesToday': return <AlarmTypesTodayPanel />;
    case 'alarmWeek': return <AlarmWeekPanel />;
    case 'riskLevels': return <RiskLevelsPanel />;
    case 'companyFleet': return <CompanyFleetPanel />;
    case 'latestReports': return <LatestReportsPanel />;
    case 'riskRanking': return <RiskRankingPanel />;
    case 'drivingWeek': return <DrivingWeekPanel />;
    case 'videoToday': return <VideoTodayPanel />;
    case 'missingSource': return <MissingSourcePanel source={placement.source} />;
  }
}

/** Date, weekday and time, ticking each second, in the UI language. */
function Clock() {
  const lang = useLang();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const locale = lang === 'en' ? 'en-GB' : 'zh-CN';
  const d = new Date(now);
  const date = d.toLocaleDateString(locale, { year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'long' });
  const time = d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  return <div className={classes.clock} data-testid="wall-clock">{date} {time}</div>;
}

const noop = () => () => undefined;
const CONNECTING: WallLiveState = { connection: 'connecting', attempt: 0, alarms: [] };

function ConnectionState({ live }: { live: WallLive | null }) {
  const t = useT(WALLS_NS);
  const s = useSyncExternalStore(live?.subscribe ?? noop, live?.getState ?? (() => CONNECTING));
  return (
    <>
      <span data-testid="wall-connection" data-state={s.connection}>{t(`connection.${s.connection}`, { attempt: s.attempt })}</span>
      <span className={classes.dot} data-state={s.connection} />
    </>
  );
}
