/**
 * Company tree nodes (spec §2 "Company tree"): ids carry a type prefix, `C_12` (company), `V_345`
 * (vehicle), `L_7` (line). The selected company is the clicked company node, or the tree's root
 * company when a vehicle or a line is clicked.
 */
export type NodeType = 'C' | 'V' | 'L';

export const NODE_TYPES: readonly NodeType[] = ['C', 'V', 'L'];

/** A node as `GET /service-priv/company/treeStruct` answers it (server/API.md `TreeNode`). */
export interface TreeNode {
  readonly id: string;
  readonly name: string;
  readonly nodeType: NodeType;
  /** The company the node belongs to (for C, the company itself). */
  readonly companyId: number;
  readonly hasChildren: boolean;
  /** C: vehicles in its subtree. */
  readonly vehicleCount?: number;
  /** V: the terminal's device number. */
  readonly deviceNo?: string;
}

export interface ParsedNodeId {
  readonly nodeType: NodeType;
  readonly id: number;
}

const NODE_ID = /^([CVL])_([1-9]\d*)$/;

/** `C_12` → `{nodeType: 'C', id: 12}`; anything else (no prefix, unknown type, id ≤ 0) → undefined. */
export function parseNodeId(nodeId: string): ParsedNodeId | undefined {
  const m = NODE_ID.exec(nodeId);
  if (!m) return undefined;
  const id = Number(m[2]);
  if (!Number.isSafeInteger(id)) return undefined;
  return { nodeType: m[1] as NodeType, id };
}

/** `('C', 12)` → `C_12`. Refuses ids that parseNodeId would not read back. */
export function formatNodeId(nodeType: NodeType, id: number): string {
  if (!Number.isSafeInteger(id) || id < 1) throw new RangeError(`tree node id must be a positive integer: ${id}`);
  return `${nodeType}_${id}`;
}

export function companyNodeId(companyId: number): string {
  return formatNodeId('C', companyId);
}

/**
 * The company a click selects (spec §2): a company node selects itself; a vehicle or a line selects
 * the tree's root company, so company-scoped lists widen back to everything the user sees.
 */
export function selectedCompanyId(node: Pick<TreeNode, 'id' | 'nodeType'>, rootCompanyId: number): number {
  if (node.nodeType !== 'C') return rootCompanyId;
  const parsed = parseNodeId(node.id);
  if (!parsed || parsed.nodeType !== 'C') throw new RangeError(`not a company node id: ${node.id}`);
  return parsed.id;
}

/**
 * Checking nodes for a multi-select (e.g. vehicles to monitor): at most `max` at once (spec §5,
 * 500). Unchecking always succeeds; a check past the limit is refused and nothing changes.
 */
export function toggleChecked(
  checked: ReadonlySet<string>,
  nodeId: string,
  max: number,
): { readonly checked: ReadonlySet<string>; readonly refused: boolean } {
  const next = new Set(checked);
  if (next.has(nodeId)) {
    next.delete(nodeId);
    return { checked: next, refused: false };
  }
  if (next.size >= max) return { checked, refused: true };
  next.add(nodeId);
  return { checked: next, refused: false };
}
