// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n/index.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { vehicleApi } from '../vehicles/api.ts';
import { VehicleSelect } from './VehicleSelect.tsx';

beforeAll(() => {
  stubBrowserApis();
  setLanguage('zh');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('VehicleSelect', () => {
  it('shows the chosen vehicle (initial) before any search', () => {
    render(
      <MantineProvider>
        <VehicleSelect value={9} initial={{ id: 9, plate: '京B22222', companyName: '北京第一车队' }} onChange={() => undefined} testId="picker" />
      </MantineProvider>,
    );
    expect((screen.getByTestId('picker') as HTMLInputElement).value).toBe('京B22222');
  });

  it('lists the known options with their company and answers the picked id (the server search is e2e-tested by the screens using it)', async () => {
    const search = vi.spyOn(vehicleApi, 'search').mockResolvedValue({ records: [], total: 0, current: 1, size: 20 });
    const onChange = vi.fn();
    render(
      <MantineProvider>
        <VehicleSelect value={null} initial={{ id: 4, plate: '沪A11112', companyName: '上海第一车队' }} onChange={onChange} testId="picker" />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByTestId('picker'));
    expect(await screen.findByText('上海第一车队')).toBeTruthy();
    fireEvent.click(await screen.findByText('沪A11112'));
    expect(onChange).toHaveBeenCalledWith(4, { id: 4, plate: '沪A11112', companyName: '上海第一车队' });
    expect(search).not.toHaveBeenCalled(); // nothing typed: no server search
  });
});
