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
