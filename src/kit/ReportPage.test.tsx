// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider, TextInput } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReportPage } from './ReportPage.tsx';
import { stubBrowserApis } from './test-dom.ts';

beforeAll(stubBrowserApis);
afterEach(cleanup);

describe('the report frame', () => {
  it('lays out the tree, the form line, the problem, the report and the note, and searches on 查询 or Enter', () => {
    const search = vi.fn();
    render(
      <MantineProvider>
        <ReportPage pageId="r" title="上线率" aside={<div data-testid="tree" />} filters={<TextInput aria-label="车牌号" />} onSearch={search} problem="查询时间段不能超过31天" note="按中国时间统计">
          <div data-testid="table" />
        </ReportPage>
      </MantineProvider>,
    );
    expect(screen.getByTestId('tree')).toBeTruthy();
    expect(screen.getByTestId('table')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('查询时间段不能超过31天');
    expect(screen.getByText('按中国时间统计')).toBeTruthy();
    expect(screen.queryByTestId('export')).toBeNull();
    fireEvent.click(screen.getByTestId('search'));
    fireEvent.submit(screen.getByLabelText('车牌号').closest('form') as HTMLFormElement);
    expect(search).toHaveBeenCalledTimes(2);
  });

  it('keeps 导出 busy while the file is made and usable again after a failure (the request client has said why)', async () => {
    let fail: (e: Error) => void = () => undefined;
    const run = vi.fn(() => new Promise<void>((_, reject) => { fail = reject; }));
    render(
      <MantineProvider>
        <ReportPage pageId="r" title="t" filters={null} onSearch={() => undefined} onExport={run}>
          {null}
        </ReportPage>
      </MantineProvider>,
    );
    const button = screen.getByTestId('export') as HTMLButtonElement;
    expect(button.textContent).toBe('导出');
    fireEvent.click(button);
    expect(run).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(button.getAttribute('data-loading')).toBe('true'));
    fail(new Error('服务器错误'));
    await waitFor(() => expect(button.getAttribute('data-loading')).toBeNull());
    expect(button.disabled).toBe(false);
  });
});
