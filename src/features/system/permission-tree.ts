/**
 * The permission registry as a tree (spec §6), and the grant rules of its checkbox tree. Pure.
 *
 * Granting a node grants its whole subtree and its ancestors: a page needs its group's bit to show
 * and a button needs its page's. Revoking a node revokes its subtree and leaves the ancestors.
 */
import { bitOf, slotOf } from '../../../domain/permissions/bits.ts';

export interface PermissionLike {
  id: number;
  pid: number;
  type: 1 | 2;
  name: string;
  nameEn?: string;
  routeKey: string;
  sort?: number;
}

export interface PermNode<T extends PermissionLike = PermissionLike> {
  record: T;
  children: PermNode<T>[];
}

export class PermissionTree<T extends PermissionLike = PermissionLike> {
  readonly roots: PermNode<T>[];
  private readonly byId = new Map<number, PermNode<T>>();

  constructor(records: readonly T[]) {
    for (const r of records) this.byId.set(r.id, { record: r, children: [] });
    const roots: PermNode<T>[] = [];
    for (const n of this.byId.values()) {
      const parent = n.record.pid ? this.byId.get(n.record.pid) : undefined;
      // A record whose parent is missing hangs under the root rather than vanishing.
      (parent ? parent.children : roots).push(n);
    }
    const order = (a: PermNode<T>, b: PermNode<T>) => (a.record.sort ?? 0) - (b.record.sort ?? 0) || a.record.id - b.record.id;
    const sortAll = (list: PermNode<T>[]) => {
      list.sort(order);
      for (const n of list) sortAll(n.children);
    };
    sortAll(roots);
    this.roots = roots;
  }

  get size(): number {
    return this.byId.size;
  }

  node(id: number): PermNode<T> | undefined {
    return this.byId.get(id);
  }

  /** Every id in the tree, depth first. */
  allIds(): number[] {
    const out: number[] = [];
    const walk = (list: PermNode<T>[]) => {
      for (const n of list) {
        out.push(n.record.id);
        walk(n.children);
      }
    };
    walk(this.roots);
    return out;
  }

  /** The id and every id below it. */
  subtreeIds(id: number): number[] {
    const start = this.byId.get(id);
    if (!start) return [];
    const out: number[] = [];
    const walk = (n: PermNode<T>) => {
      out.push(n.record.id);
      for (const c of n.children) walk(c);
    };
    walk(start);
    return out;
  }

  /** Ancestor ids, nearest first. */
  ancestorIds(id: number): number[] {
    const out: number[] = [];
    let p = this.byId.get(id)?.record.pid;
    while (p) {
      const n = this.byId.get(p);
      if (!n || out.includes(p)) break;
      out.push(p);
      p = n.record.pid;
    }
    return out;
  }

  /** The grant after checking (`on`) or unchecking one node; id 0 is 'all permissions'. */
  setGranted(granted: ReadonlySet<number>, id: number, on: boolean): Set<number> {
    const next = new Set(granted);
    const ids = id === 0 ? this.allIds() : this.subtreeIds(id);
    for (const x of ids) {
      if (on) next.add(x);
      else next.delete(x);
    }
    if (on && id !== 0) for (const a of this.ancestorIds(id)) next.add(a);
    return next;
  }

  /** Checkbox state: checked when the node and all below are granted; indeterminate when some are. */
  state(granted: ReadonlySet<number>, id: number): 'checked' | 'indeterminate' | 'unchecked' {
    const ids = id === 0 ? this.allIds() : this.subtreeIds(id);
    let n = 0;
    for (const x of ids) if (granted.has(x)) n++;
    if (n === 0) return 'unchecked';
    return n === ids.length ? 'checked' : 'indeterminate';
  }

  /**
   * The ids to show for a search: nodes whose name, English name or route key contains the keyword,
   * with their ancestors so they stay reachable. undefined when there is no keyword (show all).
   */
  matching(keyword: string): Set<number> | undefined {
    const k = keyword.trim().toLowerCase();
    if (!k) return undefined;
    const out = new Set<number>();
    for (const n of this.byId.values()) {
      const r = n.record;
      if (r.name.toLowerCase().includes(k) || (r.nameEn ?? '').toLowerCase().includes(k) || r.routeKey.toLowerCase().includes(k)) {
        out.add(r.id);
        for (const a of this.ancestorIds(r.id)) out.add(a);
      }
    }
    return out;
  }
}

/** Compact slot/bit text of a permission id: `2:1<<5` (slot ceil(id/30), bit 1 << id % 30). */
export function slotBitLabel(id: number): string {
  return `${slotOf(id)}:1<<${Math.log2(bitOf(id))}`;
}
