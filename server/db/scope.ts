/**
 * Company scoping: every repository read and write takes a Scope. An administrator has the whole
 * forest; anyone else has the subtree under its own company. Subtrees are path ranges (see migrations).
 */
export type Scope =
  | { readonly all: true }
  | { readonly all: false; readonly rootId: number; readonly rootPath: string };

export const ALL_COMPANIES: Scope = { all: true };

export function subtreeScope(rootId: number, rootPath: string): Scope {
  return { all: false, rootId, rootPath };
}

/** The half-open range of paths inside the subtree whose root has `path`. */
export function pathRange(path: string): [from: string, to: string] {
  return [path, `${path}~`];
}

/** True when a company path lies inside the scope. */
export function pathInScope(scope: Scope, path: string): boolean {
  return scope.all || path.startsWith(scope.rootPath);
}

/**
 * SQL condition limiting rows to the scope, on a joined company table alias (e.g. `c`).
 * Answers `1` for the whole forest so callers can always write `WHERE ${sql}`.
 */
export function scopeCondition(scope: Scope, companyAlias: string): { sql: string; params: string[] } {
  if (scope.all) return { sql: '1', params: [] };
  const [from, to] = pathRange(scope.rootPath);
  return { sql: `(${companyAlias}.path >= ? AND ${companyAlias}.path < ?)`, params: [from, to] };
}
