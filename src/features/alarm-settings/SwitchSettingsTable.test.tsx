// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/http.ts';
import { createQueryClient } from '../../kit/query.ts';
import { stubBrowserApis, stubLayoutHeight } from '../../kit/test-dom.ts';
import type { AlarmSettingList, AlarmSettingRecord } from './api.ts';

const api = vi.hoisted(() => ({ fetchAlarmSettings: vi.fn(), setEnabled: vi.fn(), setAutoHandle: vi.fn() }));
vi.mock('./api.ts', () => api);

const { AlarmSettingsPage } = await import('./AlarmSettingsPage.tsx');

const row = (alarmType: number, alarmName: string, enabled: boolean, fromCompanyId: number | null = null): AlarmSettingRecord => ({
  alarmType, alarmName, group: 12000, enabled, autoHandle: false, riskLevel: 'low', defaultRiskLevel: 'low', popup: false, voice: false, tts: false, fromCompanyId,
});

let held: AlarmSettingRecord[] = [];
let unstubLayout: () => void;

beforeAll(() => {
  stubBrowserApis();
  unstubLayout = stubLayoutHeight();
});
afterAll(() => unstubLayout());
beforeEach(() => {
  held = [row(12001, '超速报警', true), row(12002, '超速预警', false, 7), row(12003, '平台超速报警', true, 1)];
  api.fetchAlarmSettings.mockReset().mockImplementation(() => Promise.resolve<AlarmSettingList>({ companyId: 1, records: held.map((r) => ({ ...r })) }));
  api.setEnabled.mockReset().mockImplementation((types: number[], enabled: boolean) => {
    held = held.map((r) => (types.includes(r.alarmType) ? { ...r, enabled, fromCompanyId: 1 } : r));
    return Promise.resolve({ companyId: 1, alarmTypes: types });
  });
});
afterEach(cleanup);

function renderPage() {
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <AlarmSettingsPage />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const rowOf = (type: number) => document.querySelector(`[data-testid=settings-row][data-alarm-type="${type}"]`) as HTMLElement;

describe('alarm settings on the kit table', () => {
  it('lists each type with its origin, and a batch turns on only the selected types that are off, then shows what the server holds', async () => {
    renderPage();
    await waitFor(() => expect(rowOf(12001)).toBeTruthy());
    expect(within(rowOf(12001)).getByText('系统默认')).toBeTruthy();
    expect(within(rowOf(12002)).getByText('继承自公司 7')).toBeTruthy();
    expect(within(rowOf(12003)).getByText('本公司')).toBeTruthy();

    fireEvent.click(screen.getByRole('checkbox', { name: '全选' }));
    expect(screen.getByTestId('settings-selected').textContent).toBe('已选 3 项');
    fireEvent.click(screen.getByTestId('batch-enabled-on'));
    await waitFor(() => expect(api.setEnabled).toHaveBeenCalledWith([12002], true));
    await waitFor(() => expect(within(rowOf(12002)).getByText('本公司')).toBeTruthy());
    expect((within(rowOf(12002)).getByTestId('switch-enabled') as HTMLInputElement).checked).toBe(true);
  });

  it('the search narrows the rows, and the header box selects only what is shown', async () => {
    renderPage();
    await waitFor(() => expect(rowOf(12001)).toBeTruthy());
    fireEvent.change(screen.getByTestId('settings-search'), { target: { value: '预警' } });
    await waitFor(() => expect(rowOf(12001)).toBeNull());
    fireEvent.click(screen.getByRole('checkbox', { name: '全选' }));
    expect(screen.getByTestId('settings-selected').textContent).toBe('已选 1 项');
  });

  it('says why the list did not load and loads it again on 重试', async () => {
    api.fetchAlarmSettings.mockReset().mockRejectedValueOnce(new ApiError(500, '数据库忙')).mockResolvedValue({ companyId: 1, records: held });
    renderPage();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('加载失败：数据库忙'));
    fireEvent.click(screen.getByText('重试'));
    await waitFor(() => expect(rowOf(12003)).toBeTruthy());
  });
});
