/**
 * Position subjects by company path (issue 20: "push nodes subscribe per company subject").
 *
 * A company's path is `/1/5/12/` (server/db/scope.ts: subtrees are path prefixes); its vehicles' positions
 * go to `fleet.pos.1.5.12._`. The trailing `_` token ends the path, so a subtree is one filter:
 * `fleet.pos.1.5.>` holds company 5's own positions (`fleet.pos.1.5._`) and every descendant's, and none
 * of company 50's (`fleet.pos.1.50._`). nats-server 2.9 (Debian's) takes one filter per consumer, so a
 * subtree has to be a single wildcard: flat `fleet.pos.<companyId>` subjects would need one consumer per
 * company of the subtree.
 */
import type { Scope } from '../db/scope.ts';

export const SUBJECT_PREFIX = 'fleet.pos';
/** Ends a company's path in its subject (not a company id, so no subtree filter matches it as a branch). */
const PATH_END = '_';
const PATH = /^\/(?:[1-9]\d*\/)+$/;

/** The path's company ids as subject tokens, or undefined when it is not a company path (a deleted slot's, ''). */
function tokens(path: string): string | undefined {
  return PATH.test(path) ? path.slice(1, -1).replaceAll('/', '.') : undefined;
}

/** `fleet.pos.1.5.12._` for `/1/5/12/`; undefined for a string that is no company path (nothing is published). */
export function positionSubject(companyPath: string): string | undefined {
  const t = tokens(companyPath);
  return t === undefined ? undefined : `${SUBJECT_PREFIX}.${t}.${PATH_END}`;
}

/** The one filter holding every position of the scope: `fleet.pos.>` for all companies, `fleet.pos.1.5.>` under `/1/5/`. */
export function scopeFilter(scope: Scope): string {
  if (scope.all) return `${SUBJECT_PREFIX}.>`;
  const t = tokens(scope.rootPath);
  if (t === undefined) throw new Error(`bus: ${JSON.stringify(scope.rootPath)} is not a company path`);
  return `${SUBJECT_PREFIX}.${t}.>`;
}
