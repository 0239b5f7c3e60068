// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADAS_PARAMS, blockDefaults, blockFields, DSM_PARAMS } from '../../../domain/terminal-params/active-safety.ts';
import { setLanguage } from '../../i18n/index.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { BlockForm } from './BlockForm.tsx';

beforeAll(() => stubBrowserApis());
afterEach(() => {
  cleanup();
  setLanguage('zh');
});

describe('BlockForm', () => {
  it('shows every field of the ADAS block with its unit and range, and answers a change of one field', () => {
    setLanguage('zh');
    const onChange = vi.fn();
    render(<MantineProvider><BlockForm layout={ADAS_PARAMS} value={blockDefaults(ADAS_PARAMS)} onChange={onChange} /></MantineProvider>);
    for (const f of blockFields(ADAS_PARAMS)) expect(screen.getByTestId(`block-${f.key}`)).toBeTruthy();
    expect(screen.getByText('报警判断速度阈值 (km/h)')).toBeTruthy();
    expect(screen.getAllByText('范围 0–60').length).toBeGreaterThan(0);
    expect((screen.getByTestId('block-alarmEnable') as HTMLInputElement).value).toBe('0x00010FFF');
    fireEvent.change(screen.getByTestId('block-alarmSpeedThreshold'), { target: { value: '45' } });
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ alarmSpeedThreshold: 45, alarmVolume: 6 }));
  }, 30_000); // ~50 Mantine inputs in jsdom on a loaded machine

  it('labels the DSM block in English when the user reads English', () => {
    setLanguage('en');
    render(<MantineProvider><BlockForm layout={DSM_PARAMS} value={blockDefaults(DSM_PARAMS)} onChange={() => undefined} /></MantineProvider>);
    expect(screen.getByText('Smoking: check interval (s)')).toBeTruthy();
    expect(screen.getByText('Fatigue')).toBeTruthy();
  }, 30_000);
});
