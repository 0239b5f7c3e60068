// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import { setUser } from '../../session/store.ts';
import { VehicleContextMenu, VehicleMenuButton } from './ContextMenu.tsx';

const id = (key: string) => entryByKey(key)?.id ?? 0;
function signInWith(keys: string[], userLevel = 2) {
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel, companyId: 1, geoInverse: true, permissions: masksFromIds(keys.map(id)) }));
}

const BASE = ['/global', '/global/rightMenu', '/global/rightMenu:menu808', '/global/alarm', '/monitor', '/monitor/index'];

function showMenu(online: boolean | undefined, onCommand = vi.fn()) {
  render(
    <MantineProvider>
      <VehicleContextMenu
        menu={{ x: 10, y: 10, vehicleId: 7 }}
        monitored={false}
        online={online}
        onClose={vi.fn()}
        onDetails={vi.fn()}
        onFollow={vi.fn()}
        onMonitor={vi.fn()}
        onCommand={onCommand}
      />
    </MantineProvider>,
  );
  return onCommand;
}

beforeAll(() => {
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
});
afterEach(cleanup);

describe('the vehicle menu', () => {
  it('shows only the commands whose bits the user holds, and runs the one clicked', () => {
    signInWith([...BASE, '/global/alarm:ttsReminder', '/global/alarm:photoSnap']);
    const onCommand = showMenu(true);
    expect(screen.getByTestId('menu-tts').textContent).toBe('文本信息下发（TTS）');
    expect(screen.getByTestId('menu-photo')).toBeTruthy();
    for (const k of ['talk', 'phone', 'live', 'track', 'alarms', 'music']) expect(screen.queryByTestId(`menu-${k}`)).toBeNull();
    fireEvent.click(screen.getByTestId('menu-tts'));
    expect(onCommand).toHaveBeenCalledWith('tts');
  });

  it('opens track and alarm history only with their pages visible', () => {
    signInWith([...BASE, '/global/alarm:trackPlayback', '/monitor/trackPlaybackPage', '/safeManagement', '/safeManagement/alarmProcessingPage']);
    showMenu(true);
    expect(screen.getByTestId('menu-track')).toBeTruthy();
    expect(screen.getByTestId('menu-alarms')).toBeTruthy();
    cleanup();
    signInWith([...BASE, '/global/alarm:trackPlayback']);
    showMenu(true);
    expect(screen.queryByTestId('menu-track')).toBeNull();
    expect(screen.queryByTestId('menu-alarms')).toBeNull();
  });

  it('disables device commands with the reason while the vehicle is offline, not the others', () => {
    signInWith([...BASE, '/global/alarm:ttsReminder', '/global/alarm:talk', '/global/alarm:trackPlayback', '/monitor/trackPlaybackPage']);
    const onCommand = showMenu(false);
    expect(screen.getByTestId('menu-offline-reason').textContent).toBe('车辆离线：无法向终端下发指令');
    expect(screen.getByTestId('menu-tts').hasAttribute('data-disabled')).toBe(true);
    expect(screen.getByTestId('menu-talk').hasAttribute('data-disabled')).toBe(true);
    expect(screen.getByTestId('menu-track').hasAttribute('data-disabled')).toBe(false);
    fireEvent.click(screen.getByTestId('menu-tts'));
    expect(onCommand).not.toHaveBeenCalled();
    // Features not built yet are listed, disabled.
    expect(screen.getByTestId('menu-later-upgrade').hasAttribute('data-disabled')).toBe(true);
    expect(screen.getByTestId('menu-later-upgrade').textContent).toContain('未建');
  });

  it('while the state is unknown nothing is disabled and no reason shows', () => {
    signInWith([...BASE, '/global/alarm:ttsReminder']);
    showMenu(undefined);
    expect(screen.queryByTestId('menu-offline-reason')).toBeNull();
    expect(screen.getByTestId('menu-tts').hasAttribute('data-disabled')).toBe(false);
  });

  it('is not shown at all without menu808, on the map or on the info card', () => {
    signInWith(['/global', '/global/alarm', '/global/alarm:ttsReminder', '/monitor', '/monitor/index']);
    showMenu(true);
    expect(screen.queryByTestId('vehicle-menu')).toBeNull();
    render(<MantineProvider><VehicleMenuButton online onCommand={vi.fn()} /></MantineProvider>);
    expect(screen.queryByTestId('details-menu')).toBeNull();
  });

  it('terminal tools: the four terminal calls need the control bit the server checks; the screens need their routes', () => {
    const PARAMS = ['/information', '/information/params', '/information/params/baseParam'];
    signInWith([...BASE, ...PARAMS, '/information/params/baseParam:control', '/monitor/shape_map', '/monitor/deviceLog']);
    const onCommand = showMenu(true);
    const labels = { position: '位置查询', tempTrack: '临时跟踪', terminalControl: '终端控制', attributes: '终端属性', params: '参数设置', fence: '电子围栏', commLog: '通讯日志' };
    for (const [k, label] of Object.entries(labels)) expect(screen.getByTestId(`menu-${k}`).textContent).toBe(label);
    expect(screen.queryByTestId('menu-later-params')).toBeNull();
    fireEvent.click(screen.getByTestId('menu-tempTrack'));
    expect(onCommand).toHaveBeenCalledWith('tempTrack');
    cleanup();
    // The parameter screen without its control bit: the screens open, the calls are not offered.
    signInWith([...BASE, ...PARAMS]);
    showMenu(true);
    for (const k of ['position', 'tempTrack', 'terminalControl', 'attributes', 'fence', 'commLog']) expect(screen.queryByTestId(`menu-${k}`)).toBeNull();
    expect(screen.getByTestId('menu-params')).toBeTruthy();
  });

  it('terminal tools offline: the terminal calls are disabled, the screens stay open', () => {
    signInWith([...BASE, '/information', '/information/params', '/information/params/baseParam', '/information/params/baseParam:control', '/monitor/shape_map', '/monitor/deviceLog']);
    const onCommand = showMenu(false);
    for (const k of ['position', 'tempTrack', 'terminalControl', 'attributes']) expect(screen.getByTestId(`menu-${k}`).hasAttribute('data-disabled')).toBe(true);
    for (const k of ['params', 'fence', 'commLog']) expect(screen.getByTestId(`menu-${k}`).hasAttribute('data-disabled')).toBe(false);
    fireEvent.click(screen.getByTestId('menu-position'));
    expect(onCommand).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('menu-commLog'));
    expect(onCommand).toHaveBeenCalledWith('commLog');
  });
});
