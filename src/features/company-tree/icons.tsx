import type { NodeType } from '../../../domain/company/tree-node.ts';

const PATHS: Record<NodeType, string> = {
  // A building: company.
  C: 'M3 21V5l7-3v5l7 2v12H3zm3-3h2v-2H6v2zm0-4h2v-2H6v2zm0-4h2V8H6v2zm5 8h2v-2h-2v2zm0-4h2v-2h-2v2z',
  // A truck: vehicle.
  V: 'M2 6h11v9H2V6zm11 3h4l3 3v3h-7V9zM5 19a2 2 0 110-4 2 2 0 010 4zm11 0a2 2 0 110-4 2 2 0 010 4z',
  // A route with two stops: line.
  L: 'M6 3a3 3 0 100 6 3 3 0 000-6zm12 12a3 3 0 100 6 3 3 0 000-6zM7 9v4a3 3 0 003 3h5v2h-5a5 5 0 01-5-5V9h2z',
};

const COLORS: Record<NodeType, string> = { C: 'var(--mantine-color-blue-6)', V: 'var(--mantine-color-teal-6)', L: 'var(--mantine-color-orange-6)' };

/** The icon of a tree node type; `label` is the accessible name (the type in the user's language). */
export function NodeIcon({ type, label }: { type: NodeType; label: string }) {
  return (
    <svg width={14} height={14} viewBox="0 0 22 22" role="img" aria-label={label} style={{ flex: 'none' }}>
      <path d={PATHS[type]} fill={COLORS[type]} />
    </svg>
  );
}

/** The expand/collapse caret. */
export function Caret({ open }: { open: boolean }) {
  return (
    <svg width={10} height={10} viewBox="0 0 10 10" aria-hidden style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}>
      <path d="M3 1l4 4-4 4z" fill="currentColor" />
    </svg>
  );
}
