// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Button, MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { UploadStatus, useUpload, type UploadProgress } from './useUpload.tsx';

beforeAll(stubBrowserApis);
afterEach(cleanup);

/** A form like the upgrade-package one: a check before sending, then the upload with its progress. */
function Form({ upload: call, onDone }: { upload: (p: UploadProgress) => Promise<{ name: string }>; onDone: (name: string) => void }) {
  const upload = useUpload();
  return (
    <MantineProvider>
      <Button onClick={() => void upload.send(call, (a) => onDone(a.name))}>上传</Button>
      <Button onClick={() => upload.fail('请选择文件')}>检查</Button>
      <UploadStatus upload={upload} progressText={(pct) => `上传中 ${pct}%`} errorTestId="upload-error" />
    </MantineProvider>
  );
}

describe('an upload form', () => {
  it('shows the per-cent sent while the file goes up, then hands over the answer', async () => {
    let progress: UploadProgress = () => undefined;
    let finish: (a: { name: string }) => void = () => undefined;
    const done: string[] = [];
    render(<Form upload={(p) => { progress = p; return new Promise((r) => { finish = r; }); }} onDone={(n) => done.push(n)} />);
    fireEvent.click(screen.getByText('上传'));
    expect(screen.getByText('上传中 0%')).toBeTruthy();
    act(() => progress(400, 1000));
    expect(screen.getByText('上传中 40%')).toBeTruthy();
    await act(async () => finish({ name: 'fw.bin' }));
    expect(done).toEqual(['fw.bin']);
    expect(screen.queryByText(/上传中/)).toBeNull();
  });

  it("shows the server's refusal and a form check's message, and clears them on the next send", async () => {
    let attempt = 0;
    render(<Form upload={async () => { attempt++; if (attempt === 1) throw new Error('一次只能上传一个文件'); return { name: 'a.mp3' }; }} onDone={() => undefined} />);
    await act(async () => fireEvent.click(screen.getByText('上传')));
    expect(screen.getByTestId('upload-error').textContent).toBe('一次只能上传一个文件');
    fireEvent.click(screen.getByText('检查'));
    expect(screen.getByTestId('upload-error').textContent).toBe('请选择文件');
    await act(async () => fireEvent.click(screen.getByText('上传')));
    expect(screen.queryByTestId('upload-error')).toBeNull();
  });
});
