// @vitest-environment jsdom
import { useState } from 'react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import type { PickedPhoto } from './installation-form.ts';
import { PhotoPicker } from './Photos.tsx';

beforeAll(stubBrowserApis);
afterEach(cleanup);

let latest: PickedPhoto[] = [];
function Harness() {
  const [photos, setPhotos] = useState<PickedPhoto[]>([]);
  const change = (next: PickedPhoto[]) => {
    latest = next;
    setPhotos(next);
  };
  return <PhotoPicker photos={photos} onChange={change} />;
}

describe('PhotoPicker', () => {
  it('states the limits first, names a file refused by its bytes, keeps a real one, removes on request', async () => {
    render(<MantineProvider><Harness /></MantineProvider>);
    expect(screen.getByTestId('installation-photos').textContent).toContain('JPEG 或 PNG，每张不超过 2 MiB，每条记录最多 9 张');
    const input = screen.getByTestId('installation-photos').querySelector('input[type=file]') as HTMLInputElement;
    const fake = new File(['not an image'], '假照片.jpg', { type: 'image/jpeg' });
    const real = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1])], 'real.jpg', { type: 'image/jpeg' });
    fireEvent.change(input, { target: { files: [fake, real] } });
    await screen.findByText('照片「假照片.jpg」不是 JPEG 或 PNG 图片');
    expect(latest.map((p) => [p.name, p.problem?.code])).toEqual([['假照片.jpg', 'photoType'], ['real.jpg', undefined]]);
    expect(latest[1]!.data).toBe(btoa(String.fromCharCode(0xff, 0xd8, 0xff, 0xe0, 0, 1)));

    fireEvent.click(screen.getAllByRole('button', { name: '移除' })[0]!);
    await waitFor(() => expect(latest.map((p) => p.name)).toEqual(['real.jpg']));
    expect(screen.queryByText('照片「假照片.jpg」不是 JPEG 或 PNG 图片')).toBeNull();
  });
});
