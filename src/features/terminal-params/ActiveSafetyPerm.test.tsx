// @vitest-environment jsdom
/**
 * The ADAS / DSM screens show their buttons to a role holding the screen's own bits (450–455) as well
 * as to one holding the base screen's (370–371), as the server's any-of route policies accept; a role
 * holding the other block screen's bits sees none of them.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entryByKey } from '../../../domain/permissions/access.ts';
import { masksFromIds } from '../../../domain/permissions/bits.ts';
import { ADAS_PARAMS, DSM_PARAMS, type BlockLayout } from '../../../domain/terminal-params/active-safety.ts';
import { stubBrowserApis } from '../../kit/test-dom.ts';
import { setUser } from '../../session/store.ts';
import { ActiveSafetyPage } from './ActiveSafetyPage.tsx';

const id = (key: string) => {
  const e = entryByKey(key);
  if (!e) throw new Error(`no registry entry ${key}`);
  return e.id;
};
const GROUPS = ['/information', '/information/params'];

function signInWith(keys: string[]) {
  act(() => setUser({ id: 9, username: 'u', realName: null, userLevel: 2, companyId: 1, geoInverse: false, permissions: masksFromIds([...GROUPS, ...keys].map(id)) }));
}

function renderPage(layout: BlockLayout) {
  // No server here: the template and vehicle lists fail quietly; only the buttons matter.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<MantineProvider><QueryClientProvider client={client}><ActiveSafetyPage layout={layout} /></QueryClientProvider></MantineProvider>);
}

const shown = (testId: string) => screen.queryByTestId(testId) !== null;

beforeAll(() => stubBrowserApis());
afterEach(cleanup);

describe('ADAS / DSM screen buttons', () => {
  it('a role with only the ADAS screen and its query + set bits sees 查询 and 设置 but not 批量下发 or 保存为模板', () => {
    signInWith(['/information/params/adasParam', '/information/params/adasParam:query', '/information/params/adasParam:set']);
    renderPage(ADAS_PARAMS);
    expect([shown('params-query'), shown('params-set'), shown('batch-send'), shown('template-save-open')]).toEqual([true, true, false, false]);
    expect(screen.getByTestId('params-query').getAttribute('data-perm')).toContain('/information/params/adasParam:query');
  }, 30_000);

  it('the ADAS screen\'s 批量下发 bit shows the batch button', () => {
    signInWith(['/information/params/adasParam', '/information/params/adasParam:send']);
    renderPage(ADAS_PARAMS);
    expect([shown('params-query'), shown('params-set'), shown('batch-send')]).toEqual([false, true, true]);
  }, 30_000);

  it('the DSM screen\'s bits open nothing on the ADAS screen, and the DSM screen\'s own buttons', () => {
    const dsm = ['/information/params/adasParam', '/information/params/dsmParam', '/information/params/dsmParam:query', '/information/params/dsmParam:set', '/information/params/dsmParam:send'];
    signInWith(dsm);
    renderPage(ADAS_PARAMS);
    expect([shown('params-query'), shown('params-set'), shown('batch-send')]).toEqual([false, false, false]);
    cleanup();
    renderPage(DSM_PARAMS);
    expect([shown('params-query'), shown('params-set'), shown('batch-send')]).toEqual([true, true, true]);
  }, 30_000);

  it('the base screen\'s bits still show every button on the ADAS screen', () => {
    signInWith(['/information/params/adasParam', '/information/params/baseParam', '/information/params/baseParam:query', '/information/params/baseParam:set', '/information/params/baseParam:template']);
    renderPage(ADAS_PARAMS);
    expect([shown('params-query'), shown('params-set'), shown('batch-send'), shown('template-save-open')]).toEqual([true, true, true, true]);
  }, 30_000);
});
