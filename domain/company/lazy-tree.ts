import type { TreeNode } from './tree-node.ts';

/** Parent key of the top-level nodes (the caller's root companies). */
export const ROOT_KEY = '';

/** One visible line of the tree: which node, and how deep. Node data is looked up by id. */
export interface VisibleRow {
  readonly id: string;
  readonly depth: number;
}

/**
 * The rows a tree shows: a depth-first walk that enters a node's children only when the node is
 * expanded and its children are loaded. Cost is proportional to the visible rows, not the tree.
 */
export function flattenVisible(
  childrenOf: (parentKey: string) => readonly string[] | undefined,
  isExpanded: (id: string) => boolean,
  parentKey: string = ROOT_KEY,
  depth = 0,
): VisibleRow[] {
  const out: VisibleRow[] = [];
  const walk = (key: string, d: number) => {
    const kids = childrenOf(key);
    if (!kids) return;
    for (const id of kids) {
      out.push({ id, depth: d });
      if (isExpanded(id)) walk(id, d + 1);
    }
  };
  walk(parentKey, depth);
  return out;
}

/**
 * A lazily loaded tree and its visible rows, kept up to date incrementally: expanding or collapsing
 * one node splices only that node's visible subtree, so a tree of 500 companies and 20,000 vehicles
 * never re-walks everything on a click. Pure (no DOM); the console subscribes to `version`.
 */
export class LazyTree {
  private readonly nodes = new Map<string, TreeNode>();
  private readonly children = new Map<string, readonly string[]>();
  private readonly parents = new Map<string, string>();
  private readonly expanded = new Set<string>();
  private readonly loading = new Set<string>();
  private rowList: readonly VisibleRow[] = [];
  private readonly listeners = new Set<() => void>();
  private ver = 0;

  /** The visible rows; a new array after every change, the same array otherwise. */
  get rows(): readonly VisibleRow[] {
    return this.rowList;
  }

  get version(): number {
    return this.ver;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.ver;

  node(id: string): TreeNode | undefined {
    return this.nodes.get(id);
  }

  childIds(parentKey: string): readonly string[] | undefined {
    return this.children.get(parentKey);
  }

  isExpanded(id: string): boolean {
    return this.expanded.has(id);
  }

  isLoaded(id: string): boolean {
    return this.children.has(id);
  }

  isLoading(id: string): boolean {
    return this.loading.has(id);
  }

  /** Ancestor ids of a known node, root first (empty for a top-level node or an unknown id). */
  ancestors(id: string): string[] {
    const out: string[] = [];
    let p = this.parents.get(id);
    while (p !== undefined && p !== ROOT_KEY) {
      out.unshift(p);
      p = this.parents.get(p);
    }
    return out;
  }

  /** Row index of a node, or -1 when it is not visible. */
  indexOf(id: string): number {
    return this.rowList.findIndex((r) => r.id === id);
  }

  /** Drop everything (e.g. after the user's company set changed). */
  reset(): void {
    this.nodes.clear();
    this.children.clear();
    this.parents.clear();
    this.expanded.clear();
    this.loading.clear();
    this.rowList = [];
    this.changed();
  }

  setLoading(id: string, on: boolean): void {
    if (on === this.loading.has(id)) return;
    if (on) this.loading.add(id);
    else this.loading.delete(id);
    this.changed();
  }

  /**
   * Store the loaded children of a node (or of ROOT_KEY). A node already known elsewhere moves
   * here; old children that are gone are forgotten with their subtrees.
   */
  setChildren(parentKey: string, kids: readonly TreeNode[]): void {
    const old = this.children.get(parentKey);
    const keep = new Set(kids.map((k) => k.id));
    if (old) for (const id of old) if (!keep.has(id)) this.forget(id);
    for (const k of kids) {
      const was = this.parents.get(k.id);
      if (was !== undefined && was !== parentKey) this.detach(k.id, was);
      this.nodes.set(k.id, k);
      this.parents.set(k.id, parentKey);
    }
    this.children.set(
      parentKey,
      kids.map((k) => k.id),
    );
    this.loading.delete(parentKey);
    this.refreshSubtree(parentKey);
    this.changed();
  }

  /**
   * Expand a node. Answers true when its children still need loading: the node stays marked
   * expanded and its rows appear as soon as setChildren delivers them.
   */
  expand(id: string): boolean {
    const node = this.nodes.get(id);
    if (!node || !node.hasChildren) return false;
    if (!this.expanded.has(id)) {
      this.expanded.add(id);
      this.refreshSubtree(id);
      this.changed();
    }
    return !this.children.has(id);
  }

  collapse(id: string): void {
    if (!this.expanded.delete(id)) return;
    this.refreshSubtree(id);
    this.changed();
  }

  /** Toggle; answers true when children need loading (see expand). */
  toggle(id: string): boolean {
    if (this.expanded.has(id)) {
      this.collapse(id);
      return false;
    }
    return this.expand(id);
  }

  /** Replace the visible rows below one node after its expansion or children changed. */
  private refreshSubtree(key: string): void {
    if (key === ROOT_KEY) {
      this.rowList = flattenVisible((k) => this.children.get(k), (id) => this.expanded.has(id));
      return;
    }
    const at = this.indexOf(key);
    if (at < 0) return;
    const depth = this.rowList[at]!.depth;
    let end = at + 1;
    while (end < this.rowList.length && this.rowList[end]!.depth > depth) end++;
    const inserted = this.expanded.has(key)
      ? flattenVisible((k) => this.children.get(k), (id) => this.expanded.has(id), key, depth + 1)
      : [];
    if (inserted.length === 0 && end === at + 1) return;
    // concat, not a spread into splice: 20,000 arguments would overflow the call stack.
    this.rowList = this.rowList.slice(0, at + 1).concat(inserted, this.rowList.slice(end));
  }

  /** Take a node out of its old parent's list (it moved, e.g. its company was re-parented). */
  private detach(id: string, parentKey: string): void {
    const list = this.children.get(parentKey);
    if (list) this.children.set(parentKey, list.filter((k) => k !== id));
    const at = this.indexOf(id);
    if (at >= 0) {
      const depth = this.rowList[at]!.depth;
      let end = at + 1;
      while (end < this.rowList.length && this.rowList[end]!.depth > depth) end++;
      this.rowList = this.rowList.slice(0, at).concat(this.rowList.slice(end));
    }
  }

  private forget(id: string): void {
    const kids = this.children.get(id);
    if (kids) for (const k of kids) this.forget(k);
    this.children.delete(id);
    this.nodes.delete(id);
    this.parents.delete(id);
    this.expanded.delete(id);
    this.loading.delete(id);
  }

  private changed(): void {
    this.ver++;
    for (const l of this.listeners) l();
  }
}
