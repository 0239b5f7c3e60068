// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider, type Query } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { setUser } from '../../session/store.ts';
import { dashboardQueries } from './api.ts';
import { DeviceHealthPanel } from './panels/DeviceHealthPanel.tsx';
import { OnlinePanel } from './panels/OnlinePanel.tsx';
import { YesterdayAlarmsPanel } from './panels/YesterdayAlarmsPanel.tsx';

const get = vi.fn();
const post = vi.fn();
vi.mock('../../api/http.ts', () => ({
  TOAST_MS: 2000,
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
  },
}));
const navigate = vi.fn((_href: string) => Promise.resolve());
vi.mock('../../app/navigate.ts', () => ({ navigateHref: (href: string) => navigate(href) }));
const toast = vi.fn();
vi.mock('@mantine/notifications', () => ({ notifications: { show: (o: unknown) => toast(o) } }));

const id = (key: string) => entryByKey(key)?.id ?? 0;
function signInWith(keys: string[]) {
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel: 2, companyId: 1, geoInverse: false, permissions: masksFromIds(keys.map(id)) }));
}
function show(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<MantineProvider><QueryClientProvider client={client}>{node}</QueryClientProvider></MantineProvider>);
}

beforeAll(() => {
  stubBrowserApis();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  get.mockReset();
  post.mockReset();
  navigate.mockClear();
  toast.mockClear();
});

const STATS = { vehicleTotal: 120, vehicleOnline: 30, vehicleTodayOnline: 44, vehicleRunning: 20, vehicleStop: 8, vehicleIdle: 2, vehicleOffline: 80, vehicleNeverOnline: 10, vehicleYesterdayRegister: 3, riskTotal: 5, onlineRate: 25 };

describe('dashboard panels', () => {
  it('shows the online stat keys and, without the target page’s right, warns 暂无该权限！ instead of navigating', async () => {
    signInWith(['/home', '/home/index']);
    get.mockResolvedValue(STATS);
    show(<OnlinePanel />);
    expect((await screen.findByTestId('online-vehicleTotal')).textContent).toBe('120');
    expect(screen.getByTestId('online-onlineRate').textContent).toBe('25.00%');
    expect(get).toHaveBeenCalledWith('/service-monitor/monitor/getDashboard', undefined, expect.objectContaining({ silent: true }));
    fireEvent.click(screen.getByTestId('panel-online-open'));
    expect(navigate).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ message: '暂无该权限！' }));
  });

  it('navigates to the target page when the user may open it', async () => {
    signInWith(['/home', '/home/index', '/information', '/information/vehicle']);
    get.mockResolvedValue(STATS);
    show(<OnlinePanel />);
    await screen.findByTestId('online-vehicleTotal');
    fireEvent.click(screen.getByTestId('panel-online-open'));
    expect(navigate).toHaveBeenCalledWith('/information/vehicle');
    expect(toast).not.toHaveBeenCalled();
  });

  it('falls back to zeros when device health fails (spec §8), without a toast', async () => {
    signInWith(['/home', '/home/index']);
    post.mockRejectedValue(new Error('down'));
    show(<DeviceHealthPanel />);
    await waitFor(() => expect(screen.getByTestId('health-deviceCount').textContent).toBe('0'));
    expect(screen.getByTestId('health-t1').textContent).toBe('0');
    expect(screen.getByTestId('health-t2').textContent).toBe('0');
    expect(toast).not.toHaveBeenCalled();
  });

  it('shows zero counts of the driver set when yesterday’s alarms fail (spec §8)', async () => {
    signInWith(['/home', '/home/index']);
    get.mockRejectedValue(new Error('down'));
    show(<YesterdayAlarmsPanel />);
    await waitFor(() => expect(screen.getByTestId('yesterday-chart').getAttribute('data-values')).toBe('0,0,0,0,0,0,0,0'));
    expect(screen.getByText('疲劳驾驶报警')).toBeTruthy();
  });

  it('stops polling the map’s alarm count after an error, every 60 s otherwise (spec §4)', () => {
    const interval = dashboardQueries.mapTotals().refetchInterval as unknown as (q: Query) => number | false;
    expect(interval({ state: { status: 'success' } } as unknown as Query)).toBe(60_000);
    expect(interval({ state: { status: 'error' } } as unknown as Query)).toBe(false);
    expect(dashboardQueries.online().refetchInterval).toBe(30_000);
  });
});
