import { http } from '../../api/http.ts';
import type { TreeNode } from '../../../domain/company/tree-node.ts';

/** A treeSearch hit: the node and its ancestor node ids, root first (server/API.md). */
export interface TreeSearchHit {
  readonly node: TreeNode;
  readonly path: readonly string[];
}

// The tree always shows the caller's whole subtree, so the selected company is not injected.
export function fetchTreeChildren(nodeId?: string): Promise<TreeNode[]> {
  return http.get<TreeNode[]>('/service-priv/company/treeStruct', nodeId ? { nodeId } : {}, { noCompanyId: true });
}

export function searchTree(keyword: string, limit = 50): Promise<TreeSearchHit[]> {
  return http.get<TreeSearchHit[]>('/service-priv/company/treeSearch', { keyword, limit }, { noCompanyId: true, silent: true });
}
