// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DriftRow, PeriodSums, SummaryRow } from './api.ts';
import { DataQualifiedRatePage, DriftRateDetailPage } from './pages.tsx';

const sums = (over: Partial<PeriodSums>): PeriodSums => ({
  days: 7, totalGps: 0, pass: 0, undetermined: 0, error: 0, drift: 0, lossTimes: 0, lossHours: 0, lossKm: 0, continuousKm: 0, mileageKm: 0,
  earlyMorningKm: 0, onlineDays: 0, operationDays: 0, qualifiedRate: 0, driftRate: 0, onlineRate: 0, ...over,
});
const vehicle = (id: number, plate: string) => ({ vehicleId: id, vehiidno: plate, companyId: 3, companyName: '上海浦东车队' });
const ROWS: SummaryRow[] = [
  { ...vehicle(1, '沪A10001'), ...sums({ totalGps: 20, pass: 18, drift: 1, undetermined: 1, qualifiedRate: 90, onlineDays: 7, onlineRate: 100 }) },
  { ...vehicle(2, '沪A10002'), ...sums({ totalGps: 10, pass: 10, qualifiedRate: 100, onlineDays: 3, onlineRate: 42.86 }) },
];
const DRIFT: DriftRow[] = [{ ...vehicle(1, '沪A10001'), gpsTime: Date.UTC(2026, 10, 20, 0, 5), lng: 122, lat: 31, speed: 30, speedIn: 3400.5, speedOut: null }];

const summary = vi.fn();
const detail = vi.fn();
vi.mock('./api.ts', () => ({
  onlineControlApi: {
    summary: (...args: unknown[]) => summary(...args) as unknown,
    detail: (...args: unknown[]) => detail(...args) as unknown,
    exportSummary: () => Promise.resolve(),
    exportDetail: () => Promise.resolve(),
  },
}));
vi.mock('../../company-tree/CompanyTreePanel.tsx', () => ({ CompanyTreePanel: () => <div data-testid="tree" /> }));
vi.mock('../../system/api.ts', () => ({ companyOptionsApi: { tree: () => Promise.resolve([]) } }));

beforeAll(() => {
  // jsdom lays nothing out: give the scroll box a size so the virtualizer renders rows.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 600 });
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
afterAll(() => {
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { offsetHeight?: number }).offsetHeight;
});
afterEach(() => {
  cleanup();
  summary.mockReset();
  detail.mockReset();
});

const page = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('online-control report pages', () => {
  it('shows every vehicle’s positioning quality with a totals row', async () => {
    summary.mockResolvedValue({ records: ROWS, total: 2, current: 1, size: 500, totals: sums({ days: 14, totalGps: 30, pass: 28, qualifiedRate: 93.33 }) });
    page(<DataQualifiedRatePage />);
    expect(await screen.findByText('沪A10001')).toBeTruthy();
    expect(screen.getByText('沪A10002')).toBeTruthy();
    expect(screen.getByText('合计')).toBeTruthy();
    expect(screen.getByText('93.33%')).toBeTruthy();
    expect(screen.getByTestId('list-total').textContent).toBe('共 2 条');
    expect(summary).toHaveBeenCalledWith(expect.objectContaining({ vehicleIds: undefined }), { current: 1, size: 500 }, expect.anything());
  });

  it('shows a failed load with a retry that loads the list again', async () => {
    summary.mockRejectedValueOnce(new Error('down')).mockResolvedValue({ records: ROWS, total: 2, current: 1, size: 500, totals: sums({}) });
    page(<DataQualifiedRatePage />);
    // The kit's table says why, with the failure's own message.
    expect((await screen.findByTestId('rows-empty')).textContent).toBe('加载失败：down');
    fireEvent.click(await screen.findByText('重试'));
    expect(await screen.findByText('沪A10001')).toBeTruthy();
  });

  it('says when there is nothing to show', async () => {
    summary.mockResolvedValue({ records: [], total: 0, current: 1, size: 500, totals: sums({ days: 0 }) });
    page(<DataQualifiedRatePage />);
    expect(await screen.findByText('暂无数据')).toBeTruthy();
  });

  it('refuses a period over 31 days before asking the server', async () => {
    summary.mockResolvedValue({ records: [], total: 0, current: 1, size: 500, totals: sums({}) });
    page(<DataQualifiedRatePage />);
    await waitFor(() => expect(summary).toHaveBeenCalledTimes(1));
    fireEvent.change(screen.getByTestId('start-date'), { target: { value: '2020-01-01' } });
    expect(screen.getByRole('alert').textContent).toBe('查询时间段不能超过31天');
    expect((screen.getByTestId('search') as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists drift points with the implied speeds, an infinite one as ∞', async () => {
    detail.mockResolvedValue({ records: DRIFT, total: 1, current: 1, size: 100 });
    page(<DriftRateDetailPage />);
    expect(await screen.findByText('3400.5')).toBeTruthy();
    expect(screen.getByText('∞')).toBeTruthy();
    expect(screen.getByText('2026-11-20 08:05:00')).toBeTruthy();
    expect(detail).toHaveBeenCalledWith('driftDatas', expect.anything(), { current: 1, size: 100 }, expect.anything());
  });
});
