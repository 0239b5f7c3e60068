/**
 * The one permission-aware wrapper for buttons and elements (spec §6).
 *
 *   <Perm route="/system/user" button="delete"><Button>删除</Button></Perm>
 *
 * - `removeIfMissing` (default): render the children only when the user holds the button's bit;
 * - `removeIfSet`: render them only when the bit is NOT held (an element the right replaces);
 * - the third behaviour (global alarm pop-up / right menu) is `globalAreaShows` in domain/permissions.
 *
 * Perm adds no wrapper element. When its child is a single React element, Perm clones
 * `data-perm="<route>:<button>"` onto it (tests locate permission-bound elements by it); with
 * several children or text, set `data-perm` on the elements yourself.
 */
import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { buttonShows } from '../../domain/permissions/access.ts';
import { useAccess } from '../session/store.ts';

export type PermBehaviour = 'removeIfMissing' | 'removeIfSet';

export interface PermProps {
  /** Route path of the page, e.g. `/system/user`. */
  route: string;
  /** Button name as in the registry, e.g. `delete`. */
  button: string;
  /** @default 'removeIfMissing' */
  behaviour?: PermBehaviour;
  children?: ReactNode;
}

/** True when the element of this route and button shows for the current user. */
export function usePerm(route: string, button: string, behaviour: PermBehaviour = 'removeIfMissing'): boolean {
  const access = useAccess();
  return buttonShows(access, route, button, behaviour);
}

export function Perm({ route, button, behaviour = 'removeIfMissing', children }: PermProps): ReactNode {
  const shows = usePerm(route, button, behaviour);
  if (!shows) return null;
  if (isValidElement(children)) {
    const el = children as ReactElement<Record<string, unknown>>;
    if (el.props['data-perm'] === undefined) return cloneElement(el, { 'data-perm': `${route}:${button}` });
  }
  return children;
}

export interface PermAnyProps {
  /** `[route, button]` pairs; the children show when the user holds ANY of them. */
  of: readonly (readonly [route: string, button: string])[];
  children?: ReactNode;
}

/**
 * Any-of: render the children when the user holds at least one of the buttons, mirroring a server route
 * whose `config.permission` is a list (e.g. the ADAS screen's 查询 shows for the base screen's bit or its
 * own). A single child element gets `data-perm` with the pairs joined by `|`.
 */
export function PermAny({ of, children }: PermAnyProps): ReactNode {
  const access = useAccess();
  if (!of.some(([route, button]) => buttonShows(access, route, button, 'removeIfMissing'))) return null;
  if (isValidElement(children)) {
    const el = children as ReactElement<Record<string, unknown>>;
    if (el.props['data-perm'] === undefined) return cloneElement(el, { 'data-perm': of.map(([r, b]) => `${r}:${b}`).join('|') });
  }
  return children;
}
