// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { deviceApi, type DeviceOption } from '../devices/api.ts';
import { DeviceSelect } from './DeviceSelect.tsx';

const option = (deviceNo: string, plate: string | null = null): DeviceOption => ({
  id: Number(deviceNo.slice(-3)), deviceNo, companyId: 1, companyName: '总公司', model: 'JT-808', channelCount: 4, vehicleId: plate ? 7 : null, plate,
});

beforeAll(() => {
  stubBrowserApis();
  setLanguage('zh');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('DeviceSelect', () => {
  it('asks the server for devices in stock only when unboundOnly, and answers the picked number and option', async () => {
    const search = vi.spyOn(deviceApi, 'search').mockResolvedValue([option('013800000101'), option('013800000102')]);
    const onChange = vi.fn();
    render(
      <MantineProvider>
        <DeviceSelect value={null} onChange={onChange} unboundOnly testId="picker" />
      </MantineProvider>,
    );
    await waitFor(() => expect(search).toHaveBeenCalledWith({ keyword: undefined, unbound: true, size: 50 }));
    fireEvent.click(screen.getByTestId('picker'));
    const item = await screen.findByText('013800000102 · JT-808');
    fireEvent.click(item);
    expect(onChange).toHaveBeenCalledWith('013800000102', expect.objectContaining({ deviceNo: '013800000102', vehicleId: null }));
  });

  it('shows the current device (initialOption) with the plate it is on, before any search answers', async () => {
    vi.spyOn(deviceApi, 'search').mockResolvedValue([]);
    render(
      <MantineProvider>
        <DeviceSelect value="013800000103" initialOption={option('013800000103', '沪A12345')} onChange={() => undefined} testId="picker" />
      </MantineProvider>,
    );
    expect((screen.getByTestId('picker') as HTMLInputElement).value).toBe('013800000103 · JT-808 · 已装于 沪A12345');
  });
});
