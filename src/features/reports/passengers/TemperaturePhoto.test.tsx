// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { PASSENGER_REPORTS_NS } from './messages.ts';
import { TEMPERATURE_PHOTO_PATH, TemperaturePhoto } from './TemperaturePhoto.tsx';

// The photo call goes through the shared http client (with the session's token): a JPEG blob.
const load = vi.fn((_url: string) => Promise.resolve({ blob: new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' }) }));
vi.mock('../../../api/http.ts', () => ({ http: { export: (url: string) => load(url) } }));

beforeAll(() => {
  // jsdom has no object URLs.
  URL.createObjectURL = vi.fn(() => 'blob:photo-1');
  URL.revokeObjectURL = vi.fn();
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
});
afterEach(cleanup);

const t = (lng: 'zh' | 'en') => {
  const fixed = i18n.getFixedT(lng, PASSENGER_REPORTS_NS);
  return (key: string, params?: Record<string, unknown>): string => fixed(key, params ?? {});
};
const show = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('temperature report photo cell', () => {
  it('shows the stored photo as a thumbnail that opens the full image', async () => {
    show(<TemperaturePhoto photoId={5} mediaId={42} title="苏A12345 37.5℃" t={t('zh')} />);
    const thumb = await screen.findByTestId('temperature-photo');
    expect(load).toHaveBeenCalledWith(`${TEMPERATURE_PHOTO_PATH}/5`);
    expect(thumb.querySelector('img')?.getAttribute('src')).toBe('blob:photo-1');
    fireEvent.click(thumb);
    const full = await screen.findByTestId('temperature-photo-full');
    expect(full.getAttribute('src')).toBe('blob:photo-1');
    expect(screen.getByText('苏A12345 37.5℃')).toBeTruthy();
  });

  it('says when the terminal has not uploaded the photo yet, and shows a dash without one; loads nothing', async () => {
    load.mockClear();
    show(<TemperaturePhoto photoId={null} mediaId={42} title="" t={t('en')} />);
    expect(screen.getByText('Photo 42 not uploaded')).toBeTruthy();
    cleanup();
    show(<TemperaturePhoto photoId={null} mediaId={null} title="" t={t('zh')} />);
    expect(screen.getByText('—')).toBeTruthy();
    await waitFor(() => expect(load).not.toHaveBeenCalled());
  });
});
