// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CarAnalysisPage, LineAnalysisPage, PassengerSupervisionPage } from './pages.tsx';

// The list calls go through the shared http client: an empty report page, and the lines of the line filter.
const post = vi.fn((_path: string, _body: unknown) => Promise.resolve({ records: [], total: 0, current: 1, size: 500, totals: {} }));
vi.mock('../../../api/http.ts', () => ({
  http: {
    post: (path: string, body: unknown) => post(path, body),
    get: (path: string) => Promise.resolve(path.endsWith('/page') ? { records: [{ id: 7, name: '1路' }, { id: 9, name: '2路' }], total: 2 } : {}),
  },
}));
// uPlot reads matchMedia when it loads (the hourly chart of the big-data page); jsdom has none.
vi.mock('./HourlyChart.tsx', () => ({ HourlyChart: () => null }));
vi.mock('../../company-tree/CompanyTreePanel.tsx', () => ({ CompanyTreePanel: () => <div data-testid="tree" /> }));
vi.mock('../../system/api.ts', () => ({ companyOptionsApi: { tree: () => Promise.resolve([]) } }));

beforeAll(() => {
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});
afterEach(cleanup);

const page = (ui: React.ReactNode) => render(
  <QueryClientProvider client={new QueryClient()}>
    <MantineProvider>{ui}</MantineProvider>
  </QueryClientProvider>,
);

describe('passenger report pages', () => {
  it('supervision names its own cap of 1,000 vehicles; vehicle passenger flow keeps 500', async () => {
    page(<PassengerSupervisionPage />);
    expect(await screen.findByText(/最多1000辆/)).toBeTruthy();
    cleanup();
    page(<CarAnalysisPage />);
    expect(await screen.findByText(/最多500辆/)).toBeTruthy();
  });

  it('line passenger flow sends the chosen lines, and every line the vehicles served when none is chosen', async () => {
    page(<LineAnalysisPage />);
    const filter = await screen.findByPlaceholderText('全部线路（最多30条）');
    fireEvent.click(screen.getByTestId('search'));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls.at(-1)![1]).not.toHaveProperty('lineIds');
    fireEvent.click(filter);
    fireEvent.click(await screen.findByText('2路'));
    post.mockClear();
    fireEvent.click(screen.getByTestId('search'));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls.at(-1)![1]).toMatchObject({ lineIds: [9] });
  });
});
