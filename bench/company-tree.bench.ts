/**
 * Company tree panel at the scale: 500 companies and 20,000 vehicles, everything loaded and
 * expanded (≈20,500 visible rows). Measures one expand/collapse click, keeping the visible rows
 * incrementally (LazyTree) against the baseline of re-walking the whole tree on every click
 * (`flattenVisible`, what a naive tree component does on each render).
 */
import { flattenVisible, LazyTree, ROOT_KEY } from '../domain/company/lazy-tree.ts';
import type { TreeNode } from '../domain/company/tree-node.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const BRANCHES = 20;
const FLEETS_PER_BRANCH = 24; // 1 root + 20 + 480 = 501 companies
const VEHICLES = 20_000;

function company(id: number, hasChildren: boolean): TreeNode {
  return { id: `C_${id}`, name: `company ${id}`, nodeType: 'C', companyId: id, hasChildren };
}

function buildTree(): { tree: LazyTree; fleets: string[] } {
  const tree = new LazyTree();
  tree.setChildren(ROOT_KEY, [company(1, true)]);
  const branches: TreeNode[] = [];
  const fleets: string[] = [];
  let nextId = 2;
  let vehicleId = 1;
  const perFleet = Math.ceil(VEHICLES / (BRANCHES * FLEETS_PER_BRANCH));
  const branchFleets = new Map<string, TreeNode[]>();
  for (let b = 0; b < BRANCHES; b++) {
    const branch = company(nextId++, true);
    branches.push(branch);
    const kids: TreeNode[] = [];
    for (let f = 0; f < FLEETS_PER_BRANCH; f++) kids.push(company(nextId++, true));
    branchFleets.set(branch.id, kids);
  }
  tree.setChildren('C_1', branches);
  tree.expand('C_1');
  for (const branch of branches) {
    const kids = branchFleets.get(branch.id) ?? [];
    tree.setChildren(branch.id, kids);
    tree.expand(branch.id);
    for (const fleet of kids) {
      const vehicles: TreeNode[] = [];
      for (let v = 0; v < perFleet && vehicleId <= VEHICLES; v++, vehicleId++) {
        vehicles.push({ id: `V_${vehicleId}`, name: `京A${vehicleId}`, nodeType: 'V', companyId: fleet.companyId, hasChildren: false });
      }
      tree.setChildren(fleet.id, vehicles);
      tree.expand(fleet.id);
      fleets.push(fleet.id);
    }
  }
  return { tree, fleets };
}

function timeClicks(clicks: number, click: (i: number) => void): number {
  const start = performance.now();
  for (let i = 0; i < clicks; i++) click(i);
  return (performance.now() - start) / clicks;
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const { tree, fleets } = buildTree();
  const clicks = quick ? 200 : 2000;
  const visible = tree.rows.length;
  const pick = (i: number) => fleets[(i * 7919) % fleets.length] ?? 'C_1';

  // Warm both paths before timing.
  timeClicks(50, (i) => tree.toggle(pick(i)));
  const childrenOf = (key: string) => tree.childIds(key);
  const isExpanded = (id: string) => tree.isExpanded(id);
  timeClicks(5, () => flattenVisible(childrenOf, isExpanded));

  const incremental = timeClicks(clicks, (i) => tree.toggle(pick(i)));
  const rewalk = timeClicks(quick ? 20 : 200, (i) => {
    tree.toggle(pick(i));
    flattenVisible(childrenOf, isExpanded);
  });
  return [
    { name: 'company tree 501 companies / 20k vehicles', metric: 'visible rows', value: visible, unit: 'rows' },
    {
      name: 'company tree expand/collapse click',
      metric: 'time per click',
      value: incremental * 1000,
      unit: 'µs',
      baseline: rewalk * 1000,
      ratio: rewalk / incremental,
    },
  ];
}
