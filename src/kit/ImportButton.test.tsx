// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { entryByKey } from '../../domain/permissions/access.ts';
import { masksFromIds } from '../../domain/permissions/bits.ts';
import { ApiError } from '../api/http.ts';
import { setLanguage } from '../i18n/index.ts';
import { setUser } from '../session/store.ts';
import { importProblems, IMPORT_MAX_BYTES, type ImportCall } from './ImportButton.tsx';
import { ListPage } from './ListPage.tsx';
import type { ImportJobState } from '../../domain/fleet/import-job.ts';
import type { ImportJobCall } from './import-job.ts';
import { createQueryClient } from './query.ts';
import { stubBrowserApis } from './test-dom.ts';

const ROUTE = '/information/deviceType';

function signInWith(buttons: string[]) {
  const keys = ['/information', ROUTE, ...buttons.map((b) => `${ROUTE}:${b}`)];
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel: 2, companyId: 1, geoInverse: false, permissions: masksFromIds(keys.flatMap((k) => entryByKey(k)?.id ?? [])) }));
}

function renderPage(importCall: ImportCall, fetchPage = vi.fn(() => Promise.resolve({ records: [{ id: 1, name: 'FLEETSIM-808' }], total: 1 }))) {
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <ListPage<{ id: number; name: string }>
          route={ROUTE}
          pageId="kit-import-test"
          title="Device types"
          searchPlaceholder="name"
          fetchPage={fetchPage}
          columns={[{ key: 'name', title: 'Name', minWidth: 120, maxWidth: 240, render: (r) => r.name }]}
          importCall={importCall}
        />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return fetchPage;
}

const xlsx = (name = 'types.xlsx', bytes = 2048) => new File([new Uint8Array(bytes)], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

async function pick(file: File) {
  fireEvent.click(await screen.findByTestId('list-import'));
  const input = await screen.findByTestId('list-import-file');
  fireEvent.change(input, { target: { files: [file] } });
}

beforeAll(() => stubBrowserApis());
beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
  act(() => setLanguage('zh'));
});
afterEach(() => cleanup());

describe('the list kit\'s import button', () => {
  it('is not there without the create bit (the route has no import bit of its own)', async () => {
    signInWith(['retrieve', 'update']);
    renderPage({ call: vi.fn() });
    await screen.findByText('FLEETSIM-808');
    expect(screen.queryByTestId('list-import')).toBeNull();
  });

  it('sends the picked file as base64, says how many rows came in and refreshes the list', async () => {
    signInWith(['retrieve', 'create']);
    const call = vi.fn((_file: string) => Promise.resolve({ imported: 2 }));
    const fetchPage = renderPage({ call, maxRows: 500 });
    await screen.findByText('FLEETSIM-808');
    await pick(xlsx());
    expect(screen.getByTestId('list-import-limits').textContent).toBe('仅支持 .xlsx 文件，不超过 4.0 MB，最多 500 行；任一行有误则整个文件都不导入。');
    const before = fetchPage.mock.calls.length;
    fireEvent.click(screen.getByTestId('list-import-submit'));
    expect((await screen.findByTestId('list-import-done')).textContent).toBe('已导入 2 条');
    // 2,048 zero bytes, base64-encoded.
    expect(call).toHaveBeenCalledWith(Buffer.from(new Uint8Array(2048)).toString('base64'));
    await waitFor(() => expect(fetchPage.mock.calls.length).toBeGreaterThan(before));
  });

  it('lists a refused file\'s problems by row, writes nothing and keeps the file for another try', async () => {
    signInWith(['retrieve', 'create']);
    const call = vi.fn(() => Promise.reject(new ApiError(400, '第 3 行「协议版本」：字段 protocol 不合法：必须是 2013 或 2019', null)));
    const fetchPage = renderPage({ call });
    await screen.findByText('FLEETSIM-808');
    await pick(xlsx('bad.xlsx'));
    const before = fetchPage.mock.calls.length;
    fireEvent.click(screen.getByTestId('list-import-submit'));
    const errors = await screen.findByTestId('list-import-errors');
    expect(within(errors).getByText('导入失败，未写入任何数据')).toBeTruthy();
    const item = errors.querySelector('[data-row="3"]');
    expect(item?.textContent).toBe('第 3 行 「协议版本」：字段 protocol 不合法：必须是 2013 或 2019');
    expect(screen.getByText('bad.xlsx')).toBeTruthy();
    expect((screen.getByTestId('list-import-submit') as HTMLButtonElement).disabled).toBe(false);
    expect(fetchPage.mock.calls.length).toBe(before);
  });

  it('refuses a file over the stated size and a file that is not .xlsx before anything is sent', async () => {
    signInWith(['retrieve', 'create']);
    const call = vi.fn();
    renderPage({ call });
    await pick(xlsx('huge.xlsx', IMPORT_MAX_BYTES + 1));
    expect(await screen.findByText('文件超过 4.0 MB，请拆分后再导入')).toBeTruthy();
    expect((screen.getByTestId('list-import-submit') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('list-import-file'), { target: { files: [new File(['a,b'], 'types.csv', { type: 'text/csv' })] } });
    expect(await screen.findByText('请选择 .xlsx 文件')).toBeTruthy();
    expect((screen.getByTestId('list-import-submit') as HTMLButtonElement).disabled).toBe(true);
    expect(call).not.toHaveBeenCalled();
  });

  it('re-words its own strings on a language switch; the server\'s reason stays as it was sent', async () => {
    signInWith(['retrieve', 'create']);
    const template = vi.fn(() => Promise.reject(new ApiError(403, '无权访问', null)));
    renderPage({ call: () => Promise.reject(new ApiError(409, '第 4 行：设备类型「A」已存在', null)), template });
    await pick(xlsx());
    fireEvent.click(screen.getByTestId('list-import-submit'));
    await screen.findByTestId('list-import-errors');
    expect(screen.getByText('导入 Excel')).toBeTruthy();
    expect(screen.getByText('下载模板')).toBeTruthy();
    act(() => setLanguage('en'));
    expect(await screen.findByText('Import from Excel')).toBeTruthy();
    expect(screen.getByText('Download template')).toBeTruthy();
    expect(screen.getByText('Import failed; nothing was saved')).toBeTruthy();
    expect(screen.getByTestId('list-import-errors').querySelector('[data-row="4"]')?.textContent).toBe('Row 4: 设备类型「A」已存在');
    expect(screen.getByTestId('list-import-limits').textContent).toBe('.xlsx files only, up to 4.0 MB. If any row has a problem, nothing in the file is imported.');
    fireEvent.click(screen.getByTestId('list-import-template'));
    expect(await screen.findByText('无权访问')).toBeTruthy();
  });
});

describe('importProblems', () => {
  it('splits the server\'s refusals into row and reason in both languages', () => {
    expect(importProblems('Row 3, column "Protocol": Field protocol is invalid')).toEqual([{ row: 3, reason: 'column "Protocol": Field protocol is invalid' }]);
    expect(importProblems('Row 12: The device type "X" already exists')).toEqual([{ row: 12, reason: 'The device type "X" already exists' }]);
    expect(importProblems('第 5 行：设备类型「X」已存在\n第 7 行「协议版本」：不合法')).toEqual([{ row: 5, reason: '设备类型「X」已存在' }, { row: 7, reason: '「协议版本」：不合法' }]);
    expect(importProblems('表头有无法识别的列「颜色」')).toEqual([{ reason: '表头有无法识别的列「颜色」' }]);
  });
});

describe('the import job path (multipart upload, progress, every problem listed)', () => {
  const state = (s: Partial<ImportJobState>): ImportJobState => ({ taskId: 't1', phase: 'reading', done: 0, total: 0, ...s });

  function jobOf(states: ImportJobState[], onStart?: (file: File) => void): ImportJobCall & { start: ReturnType<typeof vi.fn>; status: ReturnType<typeof vi.fn> } {
    let i = 0;
    return {
      start: vi.fn(async (file: File, onUpload: (f: number) => void) => {
        onStart?.(file);
        onUpload(0.5);
        return { taskId: 't1' };
      }),
      status: vi.fn(async () => states[Math.min(i++, states.length - 1)]!),
    };
  }

  it('uploads the file, shows the upload and the server\'s phases, then the rows imported and a refreshed list', async () => {
    signInWith(['retrieve', 'create']);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => { release = r; });
    const states = [state({ phase: 'reading', done: 500 }), state({ phase: 'checking', done: 4000, total: 10000 })];
    const job = jobOf(states);
    const status = job.status;
    let calls = 0;
    job.status = vi.fn(async (taskId: string) => {
      calls += 1;
      if (calls === 3) await gate;
      if (calls >= 3) return state({ phase: 'done', done: 10000, total: 10000, imported: 10000 });
      return status(taskId) as Promise<ImportJobState>;
    });
    const fetchPage = renderPage({ job, maxRows: 10000, pollMs: 5 });
    await screen.findByText('FLEETSIM-808');
    await pick(xlsx('vehicles.xlsx', 6 * 1024 * 1024));
    // The job takes 8 MB files (the JSON path 4 MB).
    expect(screen.getByTestId('list-import-limits').textContent).toBe('仅支持 .xlsx 文件，不超过 8.0 MB，最多 10000 行；任一行有误则整个文件都不导入。');
    expect((screen.getByTestId('list-import-submit') as HTMLButtonElement).disabled).toBe(false);
    const before = fetchPage.mock.calls.length;
    fireEvent.click(screen.getByTestId('list-import-submit'));
    await waitFor(() => expect(screen.getByTestId('list-import-phase').textContent).toBe('校验：4000 / 10000 行'));
    expect(screen.getByTestId('list-import-progress').getAttribute('data-phase')).toBe('checking');
    expect(screen.getByText('上传 100%')).toBeTruthy();
    expect(job.start).toHaveBeenCalledWith(expect.objectContaining({ name: 'vehicles.xlsx' }), expect.any(Function), expect.any(AbortSignal));
    release();
    expect((await screen.findByTestId('list-import-done')).textContent).toBe('已导入 10000 条');
    expect(screen.getByTestId('list-import-phase').textContent).toBe('已写入 10000 行');
    await waitFor(() => expect(fetchPage.mock.calls.length).toBeGreaterThan(before));
  });

  it('lists a refused task\'s problems by row and column, says how many there were in all, and keeps the file', async () => {
    signInWith(['retrieve', 'create']);
    const problems = Array.from({ length: 200 }, (_, i) => ({ row: i + 2, column: '车架号', msg: '校验位不正确' }));
    const job = jobOf([state({ phase: 'refused', done: 5000, total: 10000, problems, problemCount: 250, msg: '共 250 处错误，未导入任何数据' })]);
    const fetchPage = renderPage({ job, pollMs: 5 });
    await screen.findByText('FLEETSIM-808');
    await pick(xlsx('bad.xlsx'));
    const before = fetchPage.mock.calls.length;
    fireEvent.click(screen.getByTestId('list-import-submit'));
    const errors = await screen.findByTestId('list-import-errors');
    expect(errors.getAttribute('data-count')).toBe('250');
    expect(screen.getByTestId('list-import-errors-count').textContent).toBe('共 250 处错误，仅列出前 200 处');
    expect(errors.querySelectorAll('[data-row]')).toHaveLength(200);
    expect(errors.querySelector('[data-row="5"]')?.textContent).toBe('第 5 行 「车架号」：校验位不正确');
    expect(screen.getByText('bad.xlsx')).toBeTruthy();
    expect(fetchPage.mock.calls.length).toBe(before);
  });

  it('shows a refused start (the server\'s 429) as the reason, nothing imported', async () => {
    signInWith(['retrieve', 'create']);
    const job = jobOf([]);
    job.start = vi.fn(() => Promise.reject(new ApiError(429, '您已有一个导入正在进行，请等待其完成', null)));
    renderPage({ job, pollMs: 5 });
    await pick(xlsx());
    fireEvent.click(screen.getByTestId('list-import-submit'));
    const errors = await screen.findByTestId('list-import-errors');
    expect(errors.textContent).toContain('您已有一个导入正在进行，请等待其完成');
    expect(job.status).not.toHaveBeenCalled();
  });

  it('the JSON path lists every problem the server names in data.problems', async () => {
    signInWith(['retrieve', 'create']);
    const body = { code: 400, msg: 'Row 3, column "Protocol": …', data: { problems: [{ row: 3, column: '协议版本', msg: '应为 2013, 2019 之一' }, { row: 7, msg: '设备类型「A」已存在' }], problemCount: 2 } };
    renderPage({ call: () => Promise.reject(new ApiError(400, body.msg, body)) });
    await pick(xlsx());
    fireEvent.click(screen.getByTestId('list-import-submit'));
    const errors = await screen.findByTestId('list-import-errors');
    expect(errors.querySelector('[data-row="3"]')?.textContent).toBe('第 3 行 「协议版本」：应为 2013, 2019 之一');
    expect(errors.querySelector('[data-row="7"]')?.textContent).toBe('第 7 行 设备类型「A」已存在');
  });
});
