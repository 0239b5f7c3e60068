// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TreeNode } from '../../../domain/company/tree-node.ts';
import { companySelection } from '../../session/company-selection.ts';
import { CompanyTreePanel } from './CompanyTreePanel.tsx';
import type { TreeSearchHit } from './api.ts';
import { OnlineCounts } from './online-counts.ts';

// The server's tree, as treeStruct would answer it: root C_1 > branch C_2 > fleet C_3 > V_30, V_31;
// C_1 also holds line L_7 with V_70.
const C = (id: number, name: string, vehicleCount: number): TreeNode => ({ id: `C_${id}`, name, nodeType: 'C', companyId: id, hasChildren: true, vehicleCount });
const V = (id: number, companyId: number): TreeNode => ({ id: `V_${id}`, name: `粤B${id}`, nodeType: 'V', companyId, hasChildren: false, deviceNo: `0${id}` });
const CHILDREN: Record<string, TreeNode[]> = {
  '': [C(1, 'Group', 3)],
  C_1: [C(2, 'East branch', 2), { id: 'L_7', name: 'Line 7', nodeType: 'L', companyId: 1, hasChildren: true }],
  C_2: [C(3, 'Fleet 3', 2)],
  C_3: [V(30, 3), V(31, 3)],
  L_7: [V(70, 1)],
};
const fetched: string[] = [];

vi.mock('./api.ts', () => ({
  fetchTreeChildren: (nodeId?: string) => {
    fetched.push(nodeId ?? '');
    return Promise.resolve(CHILDREN[nodeId ?? ''] ?? []);
  },
  searchTree: (keyword: string): Promise<TreeSearchHit[]> =>
    Promise.resolve(keyword === '31' ? [{ node: V(31, 3), path: ['C_1', 'C_2', 'C_3'] }] : []),
}));

const rect = { clientHeight: 400, clientWidth: 280 };
const saved: Record<string, PropertyDescriptor | undefined> = {};
beforeAll(() => {
  // jsdom lays nothing out: give elements a size so the virtualizer renders rows, and stub what Mantine needs.
  for (const [k, v] of Object.entries(rect)) {
    saved[k] = Object.getOwnPropertyDescriptor(HTMLElement.prototype, k);
    Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v });
  }
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Element.prototype.scrollTo ??= function () {};
});
afterAll(() => {
  for (const [k, d] of Object.entries(saved)) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
});
beforeEach(() => {
  fetched.length = 0;
  companySelection.companyId = null;
  companySelection.rootCompanyId = 1;
  companySelection.line = null;
});
afterEach(cleanup);

const renderPanel = (props: Parameters<typeof CompanyTreePanel>[0] = {}) =>
  render(
    <MantineProvider>
      <div style={{ height: 400 }}>
        <CompanyTreePanel {...props} />
      </div>
    </MantineProvider>,
  );
const row = (id: string) => document.querySelector(`[data-node-id="${id}"]`) as HTMLElement | null;

describe('the company tree panel', () => {
  it('opens the single root at once and shows each company with its vehicle count', async () => {
    renderPanel();
    await waitFor(() => expect(row('C_2')).not.toBeNull());
    expect(row('C_1')?.getAttribute('aria-expanded')).toBe('true');
    expect(row('C_2')?.textContent).toContain('East branch');
    expect(row('C_2')?.textContent).toContain('2');
    expect(row('L_7')).not.toBeNull();
    expect(row('C_3')).toBeNull();
    expect(fetched).toEqual(['', 'C_1']);
  });

  it('shows online / total on the company rows on screen when given online counts (monitor)', async () => {
    const asked: number[] = [];
    const online: Record<number, number> = { 1: 2, 2: 0 };
    const counts = new OnlineCounts((companyId) => {
      asked.push(companyId);
      return Promise.resolve({ online: online[companyId] ?? 0, total: 99 });
    });
    renderPanel({ onlineCounts: counts });
    await waitFor(() => expect(row('C_2')?.querySelector('[data-testid=node-count]')?.textContent).toBe('0 / 2'));
    expect(row('C_1')?.querySelector('[data-testid=node-count]')?.textContent).toBe('2 / 3');
    // Only companies are asked, each once (the line and the vehicles are not).
    expect(asked.sort()).toEqual([1, 2]);
  });

  it('shows the total alone without online counts', async () => {
    renderPanel();
    await waitFor(() => expect(row('C_2')).not.toBeNull());
    expect(row('C_1')?.querySelector('[data-testid=node-count]')?.textContent).toBe('3');
  });

  it('loads a branch’s children only when it is expanded, and hides them again on collapse', async () => {
    renderPanel();
    await waitFor(() => expect(row('C_2')).not.toBeNull());
    fireEvent.click(row('C_2')!.querySelector('button')!);
    await waitFor(() => expect(row('C_3')).not.toBeNull());
    expect(fetched).toEqual(['', 'C_1', 'C_2']);
    fireEvent.click(row('C_2')!.querySelector('button')!);
    await waitFor(() => expect(row('C_3')).toBeNull());
    expect(row('C_2')?.getAttribute('aria-expanded')).toBe('false');
  });

  it('a company click selects that company; a vehicle or line click selects the root company', async () => {
    const onSelect = vi.fn();
    renderPanel({ onSelect });
    await waitFor(() => expect(row('C_2')).not.toBeNull());
    fireEvent.click(row('C_2')!);
    expect(companySelection.companyId).toBe(2);
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'C_2' }), 2);
    fireEvent.click(row('L_7')!);
    expect(companySelection.companyId).toBe(1);
    expect(row('L_7')?.getAttribute('aria-selected')).toBe('true');
    // the line is kept for a list of its vehicles (the vehicle page), until another node is clicked
    expect(companySelection.line).toEqual({ id: 7, name: 'Line 7' });
    fireEvent.click(row('C_2')!);
    expect(companySelection.line).toBeNull();
  });

  it('search opens the path to a hit, loading each closed branch, and selects it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderPanel();
      await waitFor(() => expect(row('C_2')).not.toBeNull());
      fireEvent.change(screen.getByRole('textbox'), { target: { value: '31' } });
      await act(() => vi.advanceTimersByTimeAsync(400));
      const hit = await waitFor(() => {
        const el = document.querySelector('[data-hit-id="V_31"]');
        if (!el) throw new Error('no hit yet');
        return el as HTMLElement;
      });
      fireEvent.click(hit);
      await waitFor(() => expect(row('V_31')?.getAttribute('aria-selected')).toBe('true'));
      expect(fetched).toEqual(['', 'C_1', 'C_2', 'C_3']);
      expect(companySelection.companyId).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('in checkbox mode refuses a check past the limit and says so', async () => {
    const onCheckedChange = vi.fn();
    renderPanel({ checkable: true, checkableTypes: ['V'], maxChecked: 1, onCheckedChange });
    await waitFor(() => expect(row('C_2')).not.toBeNull());
    fireEvent.click(row('L_7')!.querySelector('button')!);
    await waitFor(() => expect(row('V_70')).not.toBeNull());
    expect(row('C_2')?.querySelector('input[type=checkbox]')).toBeNull();
    fireEvent.click(row('V_70')!.querySelector('input[type=checkbox]')!);
    expect(onCheckedChange).toHaveBeenCalledTimes(1);
    fireEvent.click(row('C_2')!.querySelector('button')!);
    await waitFor(() => expect(row('C_3')).not.toBeNull());
    fireEvent.click(row('C_3')!.querySelector('button')!);
    await waitFor(() => expect(row('V_30')).not.toBeNull());
    fireEvent.click(row('V_30')!.querySelector('input[type=checkbox]')!);
    expect(onCheckedChange).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert').textContent).toMatch(/1/);
    expect((row('V_30')!.querySelector('input[type=checkbox]') as HTMLInputElement).checked).toBe(false);
  });
});
