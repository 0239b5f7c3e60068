// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuditTrailSlot, registerAuditTrail } from '../../kit/audit.tsx';
import { RecordTrailButton } from './RecordTrail.tsx';

import { createQueryClient } from '../../kit/query.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { setLanguage } from '../../i18n/index.ts';
import { operatorLogApi, type LogRow } from './api.ts';
import { periodBounds } from './OperatorLogPage.tsx';

// The app registers the trail at start (src/app/App.tsx); the test does the same.
registerAuditTrail(RecordTrailButton);

beforeAll(stubBrowserApis);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  act(() => setLanguage('zh'));
});

const row = (over: Partial<LogRow>): LogRow => ({
  id: 1, resource: 'vehicle', recordId: 7, label: '粤B12345', companyId: 3, companyName: '华东分公司', operation: 'update', userName: '张调度',
  ip: '10.0.0.8', time: Date.UTC(2026, 10, 25, 1, 5, 9), before: { plateColor: 1, companyId: 3 }, after: { plateColor: 2, companyId: 4 },
  names: { company: { 3: '华东分公司' } }, ...over,
});

function renderSlot(route: string, recordId = 7) {
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <AuditTrailSlot route={route} recordId={recordId} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the log search period', () => {
  it('sends inclusive bounds (the end minute whole), none for an empty period, and holds back a period over 92 days', () => {
    const p = periodBounds({ start: '2026-11-01T00:00', end: '2026-11-07T23:59' });
    expect(p).toEqual({ from: new Date('2026-11-01T00:00:00').getTime(), to: new Date('2026-11-07T23:59:59.999').getTime() });
    expect(periodBounds({ start: '', end: '' })).toEqual({});
    // 92 whole days are the longest search (the end minute counts whole, as the server reads it)
    expect(periodBounds({ start: '2026-08-01T00:00', end: '2026-10-31T23:59' })).toEqual({ from: new Date('2026-08-01T00:00:00').getTime(), to: new Date('2026-10-31T23:59:59.999').getTime() });
    expect(periodBounds({ start: '2026-08-01T00:00', end: '2026-11-01T00:00' })).toBeUndefined();
    expect(periodBounds({ start: '2026-11-07T00:00', end: '2026-11-01T00:00' })).toBeUndefined();
    expect(periodBounds({ start: '2026-11-07T00:00', end: '' })).toBeUndefined();
  });
});

describe('the audit slot on the list screens', () => {
  it('shows nothing on screens without an operator log', () => {
    renderSlot('/system/user');
    expect(screen.queryByTestId('record-trail')).toBeNull();
  });

  it("opens a vehicle row's trail from binlog/record, each change worded field by field with the referenced names", async () => {
    const trail = vi.spyOn(operatorLogApi, 'trail').mockResolvedValue({
      records: [row({}), row({ id: 0, operation: 'create', before: null, after: { vehiidno: '粤B12345', status: 1 }, userName: '' })], total: 2,
    });
    renderSlot('/information/vehicle');
    fireEvent.click(screen.getByTestId('record-trail'));
    expect(await screen.findByText('操作记录：粤B12345')).toBeTruthy();
    expect(trail).toHaveBeenCalledWith('vehicle', 7, { current: 1, size: 20 });
    expect(screen.getAllByTestId('trail-entry')).toHaveLength(2);
    expect(screen.getByText('车牌颜色')).toBeTruthy();
    expect(screen.getByText('蓝色')).toBeTruthy();
    expect(screen.getByText('黄色')).toBeTruthy();
    // the company the reader may see is named, the other one numbered
    expect(screen.getByText('华东分公司')).toBeTruthy();
    expect(screen.getByText('公司 #4')).toBeTruthy();
    expect(screen.getByText('系统')).toBeTruthy();
    expect(screen.getByText('共 2 条，已显示 2 条')).toBeTruthy();
  });

  it('maps the device, driver, installation and line lists to their records and words them in English too', async () => {
    act(() => setLanguage('en'));
    const trail = vi.spyOn(operatorLogApi, 'trail').mockResolvedValue({ records: [row({ resource: 'device', label: '013800000001', operation: 'bind', before: { vehicleId: null }, after: { vehicleId: 7 }, names: { vehicle: { 7: '粤B12345' } } })], total: 1 });
    renderSlot('/information/device', 5);
    fireEvent.click(screen.getByTestId('record-trail'));
    expect(await screen.findByText('History: 013800000001')).toBeTruthy();
    expect(trail).toHaveBeenCalledWith('device', 5, { current: 1, size: 20 });
    expect(screen.getByText('Device bound')).toBeTruthy();
    expect(screen.getByText('Vehicle')).toBeTruthy();
    expect(screen.getByText('粤B12345')).toBeTruthy();
  });
});
