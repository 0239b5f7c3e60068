// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { vehicleApi, type Vehicle } from '../vehicles/api.ts';
import type { VehicleOption } from './VehicleSelect.tsx';
import { VehiclesPicker } from './VehiclesPicker.tsx';

beforeAll(() => {
  stubBrowserApis();
  setLanguage('zh');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const vehicle = (id: number, plate: string, deviceNo: string | null) => ({ id, vehiidno: plate, companyName: '苏州车队', deviceNo }) as Vehicle;

function Harness({ max }: { max: number }) {
  const [value, setValue] = useState<VehicleOption[]>([]);
  return <MantineProvider><VehiclesPicker value={value} onChange={setValue} max={max} needsDevice testId="p" /></MantineProvider>;
}

describe('VehiclesPicker', () => {
  it('adds the found vehicles that have a terminal, up to the maximum, and removes one by its pill', async () => {
    const search = vi.spyOn(vehicleApi, 'search').mockResolvedValue({
      records: [vehicle(1, '苏E00001', '013900000001'), vehicle(2, '苏E00002', null), vehicle(3, '苏E00003', '013900000003'), vehicle(4, '苏E00004', '013900000004')], total: 4, current: 1, size: 100,
    });
    render(<Harness max={2} />);
    fireEvent.change(screen.getByTestId('p-search'), { target: { value: '苏E' } });
    await waitFor(() => expect(search).toHaveBeenCalled(), { timeout: 5000 });
    await waitFor(() => expect(screen.getByTestId('p-option-1')).toBeTruthy(), { timeout: 5000 });
    expect(search).toHaveBeenCalledWith('苏E', 100);
    // The vehicle without a terminal cannot be ticked.
    expect((screen.getByTestId('p-option-2') as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('p-add-all').textContent).toBe('全部加入（3）');
    fireEvent.click(screen.getByTestId('p-add-all'));
    expect(screen.getByTestId('p-count').textContent).toBe('已选 2 / 2 辆');
    expect(screen.getByText('最多选择 2 辆车')).toBeTruthy();
    expect(screen.queryByTestId('p-chosen-4')).toBeNull();
    fireEvent.click(screen.getByTestId('p-chosen-1').querySelector('button')!);
    expect(screen.getByTestId('p-count').textContent).toBe('已选 1 / 2 辆');
    fireEvent.click(screen.getByTestId('p-option-4'));
    expect(screen.getByTestId('p-chosen-4')).toBeTruthy();
  });
});
