// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import type { TerminalRegistrationView } from '../../../domain/vehicle/registration.ts';
import { setUser } from '../../session/store.ts';
import { TerminalRegistration } from './TerminalRegistration.tsx';

const get = vi.fn();
const post = vi.fn();
vi.mock('../../api/http.ts', () => ({
  http: {
    get: (...args: unknown[]) => get(...args) as unknown,
    post: (...args: unknown[]) => post(...args) as unknown,
  },
}));

const REFUSED_AT = Date.UTC(2026, 10, 25, 6, 30);
const view = (over: Partial<TerminalRegistrationView> = {}): TerminalRegistrationView => ({
  vehicleId: 7, deviceNo: '013800000007', registered: true, registerTime: REFUSED_AT - 86_400_000, authTime: REFUSED_AT - 60_000,
  unregisterTime: null, unregisterBy: null, resetUserId: null, refusedCount: 2, refusedTime: REFUSED_AT, refusedAddress: '203.0.113.9', online: true, ...over,
});

const id = (key: string) => entryByKey(key)?.id ?? 0;
function signInWith(keys: string[]) {
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel: 2, companyId: 1, geoInverse: false, permissions: masksFromIds(keys.map(id)) }));
}

function show() {
  render(<MantineProvider><ModalsProvider><TerminalRegistration vehicleId={7} /></ModalsProvider></MantineProvider>);
}

beforeAll(() => {
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
});
afterEach(() => {
  cleanup();
  get.mockReset();
  post.mockReset();
});

describe('the vehicle card\'s terminal registration', () => {
  it('shows the refused re-registrations (a hijack attempt) with count, time and address; a monitor-only user gets no reset button', async () => {
    signInWith(['/monitor', '/monitor/index']);
    get.mockResolvedValue(view());
    show();
    expect((await screen.findByTestId('registration-state')).textContent).toBe('已注册');
    const refused = screen.getByTestId('registration-refused').textContent ?? '';
    expect(refused).toContain('2 次');
    expect(refused).toContain('203.0.113.9');
    expect(get).toHaveBeenCalledWith('/service-priv/device/registration', { vehicleId: 7 }, expect.objectContaining({ noCompanyId: true }));
    expect(screen.queryByTestId('registration-reset')).toBeNull();
  });

  it('resets only after the confirmation, for a user with device management, and shows the new state', async () => {
    signInWith(['/monitor', '/monitor/index', '/information', '/information/device']);
    get.mockResolvedValue(view());
    post.mockResolvedValue(view({ registered: false, unregisterBy: 'operator', resetUserId: 9, online: false }));
    show();
    fireEvent.click(await screen.findByTestId('registration-reset'));
    expect(post).not.toHaveBeenCalled(); // the click only opens the confirmation
    fireEvent.click(await screen.findByTestId('registration-reset-confirm'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/service-priv/device/resetRegistration', { vehicleId: 7 }, expect.anything()));
    await waitFor(() => expect(screen.getByTestId('registration-state').textContent).toBe('未注册（已重置，等待终端重新注册）'));
    expect(screen.queryByTestId('registration-reset')).toBeNull();
  });
});
