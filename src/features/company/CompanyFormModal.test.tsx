// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMPANY_LIMITS } from '../../../domain/management/limits.ts';
import { ApiError } from '../../api/http.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { setUser } from '../../session/store.ts';
import { CompanyFormModal } from './CompanyFormModal.tsx';

const create = vi.fn();
vi.mock('./api.ts', () => ({ companyApi: { create: (...a: unknown[]) => create(...a) as unknown, update: vi.fn() } }));

beforeAll(() => {
  stubBrowserApis();
  act(() => setUser({ id: 1, username: 'admin', realName: null, userLevel: 0, companyId: 1, geoInverse: false, permissions: [] }));
});
afterEach(() => {
  cleanup();
  create.mockReset();
});

function open(onSaved = vi.fn()) {
  render(
    <MantineProvider>
      <CompanyFormModal company={undefined} defaultPid={1} companies={[{ id: 1, pid: 0, name: '总公司', childCount: 0, vehicleCount: 0 }]} onClose={() => undefined} onSaved={onSaved} />
    </MantineProvider>,
  );
  return onSaved;
}

const input = (name: RegExp) => screen.getByRole('textbox', { name });

describe('the company form drawer', () => {
  it('names each bad field in Chinese and sends nothing', async () => {
    open();
    fireEvent.change(input(/联系人/), { target: { value: 'x'.repeat(COMPANY_LIMITS.contact + 1) } });
    fireEvent.change(input(/联系电话/), { target: { value: '021-abc' } });
    fireEvent.click(screen.getByTestId('company-form-submit'));
    expect(await screen.findByText('必填')).toBeTruthy();
    expect(screen.getByText(`最多 ${COMPANY_LIMITS.contact} 个字符`)).toBeTruthy();
    expect(screen.getByText('电话号码只能包含数字、空格、+ 和 -')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });

  it('puts a schema refusal under the field the server names', async () => {
    create.mockRejectedValueOnce(new ApiError(400, 'body/address must NOT have more than 200 characters'));
    const onSaved = open();
    fireEvent.change(input(/公司名称/), { target: { value: '浦东车队' } });
    fireEvent.click(screen.getByTestId('company-form-submit'));
    await waitFor(() => expect(screen.getAllByText('body/address must NOT have more than 200 characters')).toHaveLength(2));
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('creates the company under the chosen parent with trimmed values', async () => {
    create.mockResolvedValueOnce({ id: 7 });
    const onSaved = open();
    fireEvent.change(input(/公司名称/), { target: { value: ' 浦东车队 ' } });
    fireEvent.click(screen.getByTestId('company-form-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(create).toHaveBeenCalledWith({ pid: 1, name: '浦东车队', contact: '', phone: '', address: '', remark: '' });
  });
});
