/**
 * Right: driver alarm radar — the driver-fatigue set (spec §9) over the last 30 days, one axis per type,
 * radius by count against the busiest type. Drawn as SVG: uPlot (the project's chart library) has no
 * polar charts, and eight axes are a few lines of geometry. Spec §8: a failure shows zero counts.
 */
import { useMemo } from 'react';
import { useMantineTheme } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { alarmName } from '../../../../domain/alarms/catalogue.ts';
import { DRIVER_FATIGUE_SET } from '../../../../domain/alarms/sources.ts';
import { alarmCountKey } from '../../../../domain/dashboard/rules.ts';
import { useLang, useT } from '../../../i18n/index.ts';
import { dashboardQueries } from '../api.ts';
import { openPanelTarget, Panel } from '../Panel.tsx';
import { DASHBOARD_NS } from '../messages.ts';

const RINGS = 4;

export function DriverRadarPanel() {
  const t = useT(DASHBOARD_NS);
  const lang = useLang();
  const theme = useMantineTheme();
  const q = useQuery(dashboardQueries.lastMonth());
  const axes = useMemo(() => {
    if (!q.data && !q.isError) return null;
    return DRIVER_FATIGUE_SET.map((code) => ({ code, name: alarmName(code, lang), count: q.data?.[alarmCountKey(code)] ?? 0 }));
  }, [q.data, q.isError, lang]);
  const max = axes ? Math.max(1, ...axes.map((a) => a.count)) : 1;
  const n = DRIVER_FATIGUE_SET.length;
  const at = (i: number, r: number): [number, number] => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / n;
    return [100 + r * Math.cos(a), 100 + r * Math.sin(a)];
  };
  const color = theme.colors.orange?.[6] ?? '#f76707';
  return (
    <Panel id="radar" title={t('radar.title')} target="alarms" state={axes ? 'ready' : 'loading'} extra={<span style={{ fontSize: 11, opacity: 0.7 }}>{t('radar.period')}</span>}>
      {axes ? (
        <svg viewBox="-100 -6 400 212" width="100%" height="100%" preserveAspectRatio="xMidYMid meet" role="img" aria-label={t('radar.title')}
          data-testid="radar" data-counts={axes.map((a) => a.count).join(',')} style={{ cursor: 'pointer' }} onClick={() => openPanelTarget('alarms')}>
          {Array.from({ length: RINGS }, (_, k) => (
            <polygon key={k} fill="none" stroke="currentColor" strokeOpacity={0.15}
              points={axes.map((_, i) => at(i, (80 * (k + 1)) / RINGS).join(',')).join(' ')} />
          ))}
          {axes.map((a, i) => {
            const [x, y] = at(i, 80);
            const [lx, ly] = at(i, 92);
            return (
              <g key={a.code}>
                <line x1={100} y1={100} x2={x} y2={y} stroke="currentColor" strokeOpacity={0.2} />
                <text x={lx} y={ly} fontSize={10} textAnchor={lx < 95 ? 'end' : lx > 105 ? 'start' : 'middle'} dominantBaseline="middle" fill="currentColor">
                  {a.name.length > 8 ? `${a.name.slice(0, 8)}…` : a.name} {a.count}
                </text>
              </g>
            );
          })}
          <polygon fill={color} fillOpacity={0.3} stroke={color} strokeWidth={1.5}
            points={axes.map((a, i) => at(i, (80 * a.count) / max).join(',')).join(' ')} />
        </svg>
      ) : null}
    </Panel>
  );
}
