// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { paramsApi } from '../terminal-params/api.ts';
import { AttributesPanel, ControlForm, TrackingForm } from './TerminalTools.tsx';

beforeAll(() => {
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const wrap = (ui: ReactNode) => render(<QueryClientProvider client={new QueryClient()}><MantineProvider>{ui}</MantineProvider></QueryClientProvider>);

describe('terminal tools', () => {
  it('终端控制 asks before sending, warns on the commands that cut the terminal off, then sends the chosen command', async () => {
    const call = vi.spyOn(paramsApi, 'terminalFun').mockResolvedValue({ recordId: 1, result: 0, answer: null });
    wrap(<ControlForm vehicleId={7} plate="苏A12345" />);
    fireEvent.click(screen.getByTestId('control-ask'));
    expect(call).not.toHaveBeenCalled();
    expect(screen.getByTestId('control-confirm').textContent).toContain('确认向 苏A12345 的终端下发“终端复位”？');
    expect(screen.getByTestId('control-confirm').textContent).not.toContain('需到现场');
    fireEvent.click(screen.getByTestId('control-send'));
    await waitFor(() => expect(screen.getByTestId('tool-result').textContent).toBe('终端已应答成功'));
    expect(call).toHaveBeenCalledWith({ vehicleId: 7, fun: 'control', command: 4 });
  });

  it('临时跟踪 refuses an interval out of range without sending, and sends interval 0 to stop', async () => {
    const call = vi.spyOn(paramsApi, 'terminalFun').mockResolvedValue({ recordId: 1, result: 0, answer: null });
    wrap(<TrackingForm vehicleId={7} />);
    fireEvent.change(screen.getByTestId('tracking-interval'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('tracking-start'));
    await waitFor(() => expect(screen.getByTestId('tool-result').textContent).toBe('上报间隔（秒）：请输入 1 到 3600 的整数'));
    expect(call).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('tracking-stop'));
    await waitFor(() => expect(screen.getByTestId('tool-result').textContent).toBe('已停止临时跟踪'));
    expect(call).toHaveBeenCalledWith({ vehicleId: 7, fun: 'tracking', interval: 0, validity: 0 });
  });

  it('终端属性 shows the 0x0107 answer with the GNSS and radio bits named', async () => {
    vi.spyOn(paramsApi, 'terminalFun').mockResolvedValue({ recordId: 1, result: 0, answer: { terminalType: 4, makerId: 'SIM01', model: 'FLEET-SIM', terminalId: '1234567', iccid: '89860000000000000000', hardwareVersion: 'HW1.0', firmwareVersion: 'SIM-808-1.0', gnss: 3, comm: 0x21 } });
    wrap(<AttributesPanel vehicleId={7} />);
    await waitFor(() => expect(screen.getByTestId('attributes-answer-固件版本').textContent).toBe('SIM-808-1.0'));
    expect(screen.getByTestId('attributes-answer-GNSS').textContent).toBe('GPS / BDS');
    expect(screen.getByTestId('attributes-answer-通信模块').textContent).toBe('GPRS / TD-LTE');
  });
});
