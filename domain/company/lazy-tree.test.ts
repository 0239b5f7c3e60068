import { describe, expect, it } from 'vitest';
import { flattenVisible, LazyTree, ROOT_KEY, type VisibleRow } from './lazy-tree.ts';
import type { TreeNode } from './tree-node.ts';

const company = (id: number, hasChildren = true): TreeNode => ({
  id: `C_${id}`,
  name: `company ${id}`,
  nodeType: 'C',
  companyId: id,
  hasChildren,
  vehicleCount: 0,
});
const vehicle = (id: number, companyId: number): TreeNode => ({
  id: `V_${id}`,
  name: `vehicle ${id}`,
  nodeType: 'V',
  companyId,
  hasChildren: false,
});

const rowsText = (rows: readonly VisibleRow[]) => rows.map((r) => `${'  '.repeat(r.depth)}${r.id}`);

/** The rows a full walk gives, to check the incremental rows against. */
const fullWalk = (t: LazyTree) => flattenVisible((k) => t.childIds(k), (id) => t.isExpanded(id));

describe('flattening an expanded lazy tree into visible rows', () => {
  it('walks expanded, loaded nodes depth first and skips collapsed subtrees', () => {
    const kids: Record<string, string[]> = { '': ['C_1', 'C_9'], C_1: ['C_2', 'V_5'], C_2: ['V_6'], C_9: ['V_7'] };
    const rows = flattenVisible((k) => kids[k], (id) => id === 'C_1' || id === 'C_2');
    expect(rowsText(rows)).toEqual(['C_1', '  C_2', '    V_6', '  V_5', 'C_9']);
  });

  it('an expanded node whose children are not loaded shows no child rows', () => {
    const rows = flattenVisible((k) => (k === '' ? ['C_1'] : undefined), () => true);
    expect(rowsText(rows)).toEqual(['C_1']);
  });
});

describe('a lazily loaded tree', () => {
  it('shows the roots, then a node’s children after it is expanded and loaded', () => {
    const t = new LazyTree();
    t.setChildren(ROOT_KEY, [company(1), company(9)]);
    expect(rowsText(t.rows)).toEqual(['C_1', 'C_9']);
    expect(t.expand('C_1')).toBe(true);
    expect(rowsText(t.rows)).toEqual(['C_1', 'C_9']);
    t.setChildren('C_1', [company(2), vehicle(5, 1)]);
    expect(rowsText(t.rows)).toEqual(['C_1', '  C_2', '  V_5', 'C_9']);
    expect(t.expand('C_1')).toBe(false);
  });

  it('collapsing hides the whole subtree and expanding again restores what was open inside', () => {
    const t = new LazyTree();
    t.setChildren(ROOT_KEY, [company(1)]);
    t.expand('C_1');
    t.setChildren('C_1', [company(2), vehicle(5, 1)]);
    t.expand('C_2');
    t.setChildren('C_2', [vehicle(6, 2)]);
    expect(rowsText(t.rows)).toEqual(['C_1', '  C_2', '    V_6', '  V_5']);
    t.collapse('C_1');
    expect(rowsText(t.rows)).toEqual(['C_1']);
    expect(t.toggle('C_1')).toBe(false);
    expect(rowsText(t.rows)).toEqual(['C_1', '  C_2', '    V_6', '  V_5']);
  });

  it('children that arrive for a hidden node wait until its ancestors open', () => {
    const t = new LazyTree();
    t.setChildren(ROOT_KEY, [company(1)]);
    t.setChildren('C_1', [company(2)]);
    t.expand('C_2');
    t.setChildren('C_2', [vehicle(6, 2)]);
    expect(rowsText(t.rows)).toEqual(['C_1']);
    t.expand('C_1');
    expect(rowsText(t.rows)).toEqual(['C_1', '  C_2', '    V_6']);
    expect(t.ancestors('V_6')).toEqual(['C_1', 'C_2']);
  });

  it('leaf nodes do not expand', () => {
    const t = new LazyTree();
    t.setChildren(ROOT_KEY, [vehicle(5, 1), company(3, false)]);
    expect(t.expand('V_5')).toBe(false);
    expect(t.expand('C_3')).toBe(false);
    expect(t.isExpanded('V_5')).toBe(false);
  });

  it('reloading a node’s children drops the ones that are gone, with their open subtrees', () => {
    const t = new LazyTree();
    t.setChildren(ROOT_KEY, [company(1)]);
    t.expand('C_1');
    t.setChildren('C_1', [company(2), company(3)]);
    t.expand('C_2');
    t.setChildren('C_2', [vehicle(6, 2)]);
    t.setChildren('C_1', [company(3), company(4)]);
    expect(rowsText(t.rows)).toEqual(['C_1', '  C_3', '  C_4']);
    expect(t.node('V_6')).toBeUndefined();
    expect(t.isExpanded('C_2')).toBe(false);
  });

  it('a node delivered under a new parent moves there instead of showing twice', () => {
    const t = new LazyTree();
    t.setChildren(ROOT_KEY, [company(1), company(9)]);
    t.expand('C_1');
    t.expand('C_9');
    t.setChildren('C_1', [company(2)]);
    t.setChildren('C_9', [company(2)]);
    expect(rowsText(t.rows)).toEqual(['C_1', 'C_9', '  C_2']);
    expect(t.childIds('C_1')).toEqual([]);
  });

  it('keeps the incremental rows equal to a full walk through a random sequence of operations', () => {
    const t = new LazyTree();
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let nextId = 100;
    t.setChildren(ROOT_KEY, [company(1), company(2), company(3)]);
    for (let step = 0; step < 400; step++) {
      const rows = t.rows;
      const pick = rows[rand(rows.length)]!.id;
      const op = rand(3);
      if (op === 0) t.toggle(pick);
      else if (op === 1 && pick.startsWith('C_')) {
        const kids = Array.from({ length: rand(4) }, () => (rand(2) ? company(nextId++) : vehicle(nextId++, 1)));
        t.setChildren(pick, kids);
      } else t.collapse(pick);
      expect(t.rows).toEqual(fullWalk(t));
    }
  });

  it('notifies subscribers and bumps the version on each change, and not after unsubscribing', () => {
    const t = new LazyTree();
    let calls = 0;
    const off = t.subscribe(() => calls++);
    t.setChildren(ROOT_KEY, [company(1)]);
    t.expand('C_1');
    expect(calls).toBe(2);
    expect(t.getVersion()).toBe(2);
    t.collapse('V_404');
    expect(calls).toBe(2);
    off();
    t.collapse('C_1');
    expect(calls).toBe(2);
  });

  it('expands 500 companies with 20,000 vehicles quickly and keeps row order', () => {
    const t = new LazyTree();
    const roots = Array.from({ length: 500 }, (_, i) => company(i + 1));
    t.setChildren(ROOT_KEY, roots);
    const started = performance.now();
    for (let c = 1; c <= 500; c++) {
      t.expand(`C_${c}`);
      t.setChildren(
        `C_${c}`,
        Array.from({ length: 40 }, (_, j) => vehicle(c * 100 + j, c)),
      );
    }
    const elapsed = performance.now() - started;
    expect(t.rows).toHaveLength(20_500);
    expect(t.indexOf('V_50039')).toBe(20_499);
    // Generous bound for slow CI; a full re-walk per expansion would be ~10x slower.
    expect(elapsed).toBeLessThan(2000);
  });
});
