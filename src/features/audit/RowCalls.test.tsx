// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { PERMISSION_REGISTRY } from '../../../domain/permissions/registry.ts';
import { AuditTrailSlot, registerAuditSection, registerAuditTrail } from '../../kit/audit.tsx';
import { createQueryClient } from '../../kit/query.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { setUser } from '../../session/store.ts';
import { operatorLogApi } from '../operator-log/api.ts';
import { RecordTrailButton } from '../operator-log/RecordTrail.tsx';
import { auditApi, type AuditRow } from './api.ts';
import { RowCallsSection } from './RowCalls.tsx';

// As src/app/App.tsx does at start: the change history, and the audit trail's calls as a section of it.
registerAuditTrail(RecordTrailButton);
registerAuditSection('calls', RowCallsSection);

beforeAll(stubBrowserApis);
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const call = (over: Partial<AuditRow>): AuditRow => ({
  id: 1, time: Date.UTC(2026, 10, 25, 1, 5, 9), userId: 2, userName: 'zhang', realName: '张调度', companyName: '总公司', ip: '10.0.0.8',
  method: 'PUT', route: '/service-priv/driver', permission: '/information/driver:update', page: '/information/driver', pageName: '司机管理',
  button: '/information/driver:update', buttonName: '司机管理 / 修改', result: 'ok', status: 200, code: 200, targets: [{ kind: 'record', id: 7 }], ...over,
});

function signIn(keys: string[] | 'all') {
  const ids = keys === 'all' ? PERMISSION_REGISTRY.map((e) => e.id) : keys.map((k) => entryByKey(k)!.id);
  act(() => setUser({ id: 1, username: 'u', realName: null, userLevel: 1, companyId: 1, geoInverse: false, permissions: masksFromIds(ids) }));
}

function openTrail(route: string, recordId = 7) {
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <AuditTrailSlot route={route} recordId={recordId} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  fireEvent.click(screen.getByTestId('record-trail'));
}

describe("a list row's drawer", () => {
  it('shows the change history and, below it, every audited call that named the row, refused ones too', { timeout: 30_000 }, async () => {
    signIn('all');
    vi.spyOn(operatorLogApi, 'trail').mockResolvedValue({ records: [], total: 0 });
    const page = vi.spyOn(auditApi, 'page').mockResolvedValue({
      records: [call({ id: 2, result: 'refused', buttonName: '司机管理 / 删除', realName: '', userName: 'intruder' }), call({})], total: 2,
    });
    openTrail('/information/driver');
    expect(await screen.findByText('司机管理 / 删除')).toBeTruthy();
    expect(page).toHaveBeenCalledWith(expect.objectContaining({ recordPage: '/information/driver', recordId: 7, current: 1, size: 20 }));
    expect(screen.getAllByTestId('row-call')).toHaveLength(2);
    expect(screen.getByText('司机管理 / 修改')).toBeTruthy();
    expect(screen.getByText('拒绝')).toBeTruthy();
    expect(screen.getByText(/intruder/)).toBeTruthy();
    // the change history section is still there (its empty state)
    expect(screen.getByTestId('record-trail-drawer')).toBeTruthy();
    expect(screen.getByText('共 2 条，已显示 2 条')).toBeTruthy();
  });

  it('leaves the calls out for a user who may not read the audit trail (and never asks the server)', { timeout: 30_000 }, async () => {
    signIn(['/information', '/information/driver']);
    vi.spyOn(operatorLogApi, 'trail').mockResolvedValue({ records: [], total: 0 });
    const page = vi.spyOn(auditApi, 'page');
    openTrail('/information/driver');
    expect(await screen.findByTestId('record-trail-drawer')).toBeTruthy();
    expect(screen.queryByTestId('row-calls')).toBeNull();
    expect(page).not.toHaveBeenCalled();
  });
});

describe("a list row's calls, page after page", () => {
  it('"load more" asks for the same period as the first page, even when time has passed (rows would shift between pages otherwise)', { timeout: 30_000 }, async () => {
    signIn('all');
    vi.spyOn(operatorLogApi, 'trail').mockResolvedValue({ records: [], total: 0 });
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 28, 8, 0, 0));
    const page = vi.spyOn(auditApi, 'page').mockImplementation(async (q) => ({
      records: Array.from({ length: 20 }, (_, i) => call({ id: (q.current - 1) * 20 + i + 1 })), total: 45,
    }));
    openTrail('/information/driver');
    expect(await screen.findByText('共 45 条，已显示 20 条')).toBeTruthy();
    // A minute later the user asks for more.
    now.mockReturnValue(Date.UTC(2026, 10, 28, 8, 1, 0));
    fireEvent.click(screen.getByText('加载更多'));
    expect(await screen.findByText('共 45 条，已显示 40 条')).toBeTruthy();
    const [first, second] = page.mock.calls.map(([q]) => q);
    expect(second).toMatchObject({ current: 2, from: first!.from, to: first!.to });
    expect(first!.to).toBe(Date.UTC(2026, 10, 28, 8, 0, 0));
    expect(first!.to! - first!.from!).toBe(93 * 86_400_000);
    expect(screen.getByText('调用记录（近 93 天）')).toBeTruthy();
  });
});
