// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/http.ts';
import type { MediaItem, SnapResult } from './api.ts';
import { SnapDialog } from './SnapDialog.tsx';

const photoSnap = vi.fn();
const photo = vi.fn();
vi.mock('./api.ts', () => ({
  mediaApi: {
    photoSnap: (...args: unknown[]) => photoSnap(...args) as unknown,
    photo: (...args: unknown[]) => photo(...args) as unknown,
  },
}));

const item = (id: number, channel: number): MediaItem => ({
  id, vehicleId: 7, vehiidno: '沪A10007', companyId: 3, companyName: '浦东车队', channel, deviceMediaId: id, mediaType: 0, format: 0, eventCode: 0,
  eventName: '平台下发指令', captureTime: Date.UTC(2026, 10, 22, 1), receivedTime: Date.UTC(2026, 10, 22, 1), lng: 121.5, lat: 31.2, speed: 30, size: 9000,
  source: 'snap', sourceName: '平台抓拍', alarmId: 42, alarmType: 12001, alarmName: '超速报警', requestedBy: 1, requestedByName: '系统管理员',
  url: `/service-priv/media/file/${id}`,
});

beforeAll(() => {
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  let n = 0;
  URL.createObjectURL = () => `blob:photo-${++n}`;
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  cleanup();
  photoSnap.mockReset();
  photo.mockReset();
});

describe('the pop-up\'s photoSnap dialog', () => {
  it('shows the server\'s "capture failed, retry", and on retry the photos of the alarm vehicle through blob URLs', async () => {
    const result: SnapResult = { vehicleId: 7, alarmId: 42, items: [item(101, 1), item(102, 2)], channels: [{ channel: 1, ok: true, count: 1 }, { channel: 2, ok: true, count: 1 }, { channel: 3, ok: false, message: '抓拍失败，请重试' }] };
    photoSnap.mockRejectedValueOnce(new ApiError(504, '抓拍失败，请重试')).mockResolvedValueOnce(result);
    photo.mockImplementation(() => Promise.resolve({ blob: new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' }), filename: 'x.jpg' }));
    render(<MantineProvider><SnapDialog vehicleId={7} alarmId={42} /></MantineProvider>);

    expect(screen.getByTestId('snap-progress')).toBeTruthy();
    const error = await screen.findByTestId('snap-error');
    expect(error.textContent).toContain('抓拍失败，请重试');
    expect(photoSnap).toHaveBeenCalledWith(7, 42);

    fireEvent.click(screen.getByText('重试'));
    await screen.findByTestId('snap-result');
    expect(screen.getByText('抓拍完成，收到 2 张照片')).toBeTruthy();
    expect(screen.getByText('通道 3：抓拍失败，请重试')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('media-photo')).toHaveLength(2));
    const srcs = screen.getAllByTestId('media-photo').map((img) => img.getAttribute('src'));
    expect(srcs.every((s) => s?.startsWith('blob:photo-'))).toBe(true);
    expect(photo.mock.calls.map((c) => c[0])).toEqual(['/service-priv/media/file/101', '/service-priv/media/file/102']);
    expect(photoSnap).toHaveBeenCalledTimes(2);
  });

  it('says when a photo cannot be loaded', async () => {
    photoSnap.mockResolvedValue({ vehicleId: 7, alarmId: 42, items: [item(201, 1)], channels: [{ channel: 1, ok: true, count: 1 }] });
    photo.mockRejectedValue(new ApiError(404, 'gone'));
    render(<MantineProvider><SnapDialog vehicleId={7} alarmId={42} /></MantineProvider>);
    expect((await screen.findByTestId('media-photo-failed')).textContent).toBe('照片加载失败');
  });
});
