/**
 * /home/index — the operation dashboard (spec §2): header; left online monitoring, operation (7 days)
 * and maintenance; centre the live fleet map with totals, online rates (only under 10,000 vehicles,
 * §9) and running alarms; right yesterday's alarms, risk ranking and the driver radar. Each panel is
 * self-contained (its own query and states, src/features/dashboard/panels), so the walls reuse them.
 */
import { useEffect, useRef, useState } from 'react';
import { LoadingOverlay } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LOADING_MAX_MS, ONLINE_RATE_MAX_VEHICLES } from '../../../domain/dashboard/rules.ts';
import { dashboardQueries } from './api.ts';
import { DashboardHeader } from './DashboardHeader.tsx';
import { DeviceHealthPanel } from './panels/DeviceHealthPanel.tsx';
import { DriverRadarPanel } from './panels/DriverRadarPanel.tsx';
import { FleetMapPanel } from './panels/FleetMapPanel.tsx';
import { MileagePanel } from './panels/MileagePanel.tsx';
import { OnlinePanel } from './panels/OnlinePanel.tsx';
import { OnlineRatePanel } from './panels/OnlineRatePanel.tsx';
import { RiskRankingPanel } from './panels/RiskRankingPanel.tsx';
import { RunningAlarmsPanel } from './panels/RunningAlarmsPanel.tsx';
import { YesterdayAlarmsPanel } from './panels/YesterdayAlarmsPanel.tsx';
import './messages.ts';

const column = { display: 'grid', gap: 8, minHeight: 0, minWidth: 0 } as const;

export function DashboardPage() {
  const root = useRef<HTMLDivElement>(null);
  const online = useQuery(dashboardQueries.online());
  const [overlay, setOverlay] = useState(true);
  const [fullscreen, setFullscreen] = useState(false);
  // Spec §4: the loading overlay shows until the first figures arrive, at most 3.5 s.
  useEffect(() => {
    const timer = setTimeout(() => setOverlay(false), LOADING_MAX_MS);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    const sync = () => setFullscreen(document.fullscreenElement === root.current);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void root.current?.requestFullscreen().catch(() => undefined);
  };
  const total = online.data?.vehicleTotal;
  // Spec §9: the online-rate panel only while the fleet is under 10,000 vehicles.
  const showRates = total !== undefined && total < ONLINE_RATE_MAX_VEHICLES;
  return (
    <div ref={root} data-testid="dashboard-page" data-online-rate-panel={showRates ? 'shown' : 'hidden'}
      style={{ position: 'relative', display: 'flex', flexDirection: 'column', height: fullscreen ? '100vh' : 'calc(100vh - 110px)', minHeight: 560, background: 'var(--mantine-color-body)' }}>
      <LoadingOverlay visible={overlay && online.isPending} zIndex={1} overlayProps={{ blur: 1 }} />
      <DashboardHeader fullscreen={fullscreen} onFullscreen={toggleFullscreen} />
      <div style={{ flex: 1, minHeight: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 2.2fr) minmax(0, 1fr)', gap: 8, padding: 8 }}>
        <div style={{ ...column, gridTemplateRows: 'auto 1fr 1fr' }}>
          <OnlinePanel />
          <MileagePanel />
          <DeviceHealthPanel />
        </div>
        <div style={{ ...column, gridTemplateRows: 'minmax(240px, 2fr) minmax(160px, 1fr)' }}>
          <FleetMapPanel />
          <div style={{ display: 'grid', gap: 8, minHeight: 0, gridTemplateColumns: showRates ? '1fr 1.4fr' : '1fr' }}>
            {showRates ? <OnlineRatePanel /> : null}
            <RunningAlarmsPanel />
          </div>
        </div>
        <div style={{ ...column, gridTemplateRows: '1fr 1fr 1fr' }}>
          <YesterdayAlarmsPanel />
          <RiskRankingPanel />
          <DriverRadarPanel />
        </div>
      </div>
    </div>
  );
}
