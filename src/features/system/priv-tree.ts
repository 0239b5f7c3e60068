import type { PermissionRecord, PrivTreeNode } from './types.ts';

/**
 * Records of a findAllPrivTree answer (root id 0 'all permissions'), parents before children; the
 * parent of each record is the node it hangs under, whatever its own pid says.
 */
export function recordsOfPrivTree(root: PrivTreeNode): PermissionRecord[] {
  const out: PermissionRecord[] = [];
  const walk = (node: PrivTreeNode, pid: number) => {
    for (const [i, c] of (node.children ?? []).entries()) {
      out.push({
        id: c.id,
        pid,
        type: c.type === 2 ? 2 : 1,
        name: c.name,
        nameEn: c.nameEn ?? '',
        routeKey: c.routeKey ?? '',
        offset: c.offset ?? Math.ceil(c.id / 30),
        permissions: c.permissions ?? 1 << c.id % 30,
        sort: c.sort ?? i,
      });
      walk(c, c.id);
    }
  };
  walk(root, 0);
  return out;
}
