/**
 * Layout checks for any screen (issue 13, "the kit"): run inside the page, they report what an
 * operator would hit, so a test can assert an empty list.
 *
 * - coveredControls: every visible, enabled control (buttons, links, inputs, tabs, map zoom
 *   buttons) must be what `document.elementFromPoint` finds at its centre and at its corners (inset
 *   3 px, more on rounded controls), or inside it. Parts scrolled out of a scroll container, or under
 *   its own overlay scrollbar, are left out (reachable by scrolling, not covered). While a drawer or dialog is open, only the controls in dialogs, menus
 *   and notifications count (and what is marked `data-beside-dialogs`, the docked alarm pop-up): the
 *   overlay is meant to cover the page under it, not those. Likewise an open menu, option list or
 *   tooltip covers what lies under it until it closes: that is not counted.
 * - narrowColumns: a table header cell with `data-min-width` narrower than that width.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export interface CoveredControl {
  /** Short description of the control: tag, test id or text. */
  control: string;
  /** The viewport point that missed it. */
  at: [number, number];
  /** What is on top there instead. */
  hit: string;
}

export interface NarrowColumn {
  column: string;
  width: number;
  minWidth: number;
}

/** Controls covered by something else (empty when every control takes its own clicks). */
export function coveredControls(page: Page): Promise<CoveredControl[]> {
  return page.evaluate(() => {
    const SELECTOR = 'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=tab], [role=menuitem], [role=checkbox]';
    const describe = (el: Element | null): string => {
      if (!el) return 'nothing';
      const id = el.getAttribute('data-testid') ?? el.closest('[data-testid]')?.getAttribute('data-testid');
      const text = (el.textContent ?? '').trim().slice(0, 24);
      return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''}${id ? `[${id}]` : ''}${text ? ` "${text}"` : ''}`;
    };
    const visibleBox = (el: Element): DOMRect | null => {
      const r = el.getBoundingClientRect();
      let left = Math.max(r.left, 0);
      let top = Math.max(r.top, 0);
      let right = Math.min(r.right, window.innerWidth);
      let bottom = Math.min(r.bottom, window.innerHeight);
      // clip by every scrolling or clipping ancestor: a part scrolled away is not "covered"
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
          const c = p.getBoundingClientRect();
          left = Math.max(left, c.left);
          top = Math.max(top, c.top);
          right = Math.min(right, c.right);
          bottom = Math.min(bottom, c.bottom);
        }
      }
      return right - left >= 4 && bottom - top >= 4 ? new DOMRect(left, top, right - left, bottom - top) : null;
    };
    const shown = (el: Element): boolean => {
      const s = getComputedStyle(el);
      if (s.visibility === 'hidden' || s.display === 'none' || s.pointerEvents === 'none' || Number(s.opacity) === 0) return false;
      if (el.closest('[aria-hidden=true], [inert], [hidden]')) return false;
      for (let p: Element | null = el; p; p = p.parentElement) if (Number(getComputedStyle(p).opacity) === 0) return false;
      return true;
    };
    const enabled = (el: Element) => !(el as HTMLButtonElement).disabled && el.getAttribute('aria-disabled') !== 'true' && !el.closest('fieldset:disabled');
    const dialogs = [...document.querySelectorAll('[role=dialog][aria-modal=true]')].filter((d) => visibleBox(d) !== null);
    // Parts that stay usable beside an open dialog (the docked alarm pop-up, `data-beside-dialogs`,
    // src/shell/layers.ts) keep being checked: an overlay over them would take their clicks.
    const inScope = (el: Element) =>
      dialogs.length === 0 || dialogs.some((d) => d.contains(el)) || el.closest('[role=menu], [role=listbox], .mantine-Notifications-root, [data-beside-dialogs]') !== null;
    const owns = (control: Element, hit: Element | null): boolean => {
      if (!hit) return false;
      if (control === hit || control.contains(hit)) return true;
      // a menu, option list or tooltip the user opened covers what lies under it until it closes, as a dialog does
      const popup = hit.closest('[role=menu], [role=listbox], [role=tooltip]');
      if (popup && !popup.contains(control)) return true;
      // the overlay scrollbar of the scroll area holding the control is that area's edge: the part
      // under it is reached by scrolling (a wide list's half-shown last row), like a part scrolled away
      const bar = hit.closest('[class*="scrollbar"][data-orientation]');
      if (bar?.parentElement?.contains(control)) return true;
      // an input's own sections (clear button, chevron) sit inside its Mantine wrapper, over its edge
      const wrapper = control.closest('.mantine-Input-wrapper');
      if (control.matches('input, textarea, select') && wrapper?.contains(hit)) return true;
      // a label forwards its clicks to its control
      const label = hit.closest('label');
      return label !== null && (label.contains(control) || (control.id !== '' && label.htmlFor === control.id));
    };
    const out: { control: string; at: [number, number]; hit: string }[] = [];
    for (const el of document.querySelectorAll(SELECTOR)) {
      if (!inScope(el) || !enabled(el) || !shown(el)) continue;
      const box = visibleBox(el);
      if (!box) continue;
      // Corners inset by 3 px, and further on rounded controls: a round button's box corner is not
      // part of it (hit testing follows border-radius); 0.3 × radius lies inside the curve.
      const r = getComputedStyle(el).borderTopLeftRadius;
      const radius = r.endsWith('%') ? (parseFloat(r) / 100) * Math.min(box.width, box.height) : parseFloat(r) || 0;
      const inset = Math.min(Math.max(3, 0.3 * radius), box.width / 2, box.height / 2);
      const points: [number, number][] = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + inset, box.top + inset],
        [box.right - inset, box.top + inset],
        [box.left + inset, box.bottom - inset],
        [box.right - inset, box.bottom - inset],
      ];
      for (const [x, y] of points) {
        const hit = document.elementFromPoint(x, y);
        if (!owns(el, hit)) {
          out.push({ control: describe(el), at: [Math.round(x), Math.round(y)], hit: describe(hit) });
          break;
        }
      }
    }
    return out;
  });
}

/** Header cells narrower than their `data-min-width` (empty when every column keeps its minimum). */
export function narrowColumns(page: Page): Promise<NarrowColumn[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('th[data-min-width]')]
      .filter((th) => th.getBoundingClientRect().height > 0)
      .map((th) => ({
        column: (th.textContent ?? '').trim() || (th.getAttribute('data-testid') ?? '?'),
        width: Math.round(th.getBoundingClientRect().width * 10) / 10,
        minWidth: Number(th.getAttribute('data-min-width')),
      }))
      .filter((c) => c.width + 0.5 < c.minWidth),
  );
}

/**
 * Waits (at most 10 s) until no CSS transition is running. The shell's main area slides its right padding
 * open when the alarm pop-up docks (Mantine AppShell, 200 ms); with a 4K map painted in software on a
 * loaded machine the browser produced no frame for seconds, so a check read the page mid-slide and
 * reported the dashboard's header buttons under the pop-up they were moving away from (CI, stop 14).
 * Endless CSS animations (a spinner) are not transitions and are not waited for.
 */
async function transitionsDone(page: Page): Promise<void> {
  await page
    .waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'), null, { timeout: 10_000, polling: 100 })
    .catch(() => undefined); // still sliding after 10 s: check anyway, the report shows what was where
}

/** Both checks; a test asserts `{ covered: [], narrow: [] }` and sees every offender when it fails. */
export async function layoutProblems(page: Page): Promise<{ covered: CoveredControl[]; narrow: NarrowColumn[] }> {
  await transitionsDone(page);
  return { covered: await coveredControls(page), narrow: await narrowColumns(page) };
}

/**
 * A toast (a Mantine notification: 抓拍完成… after a snapshot) lies over the header for its two seconds by
 * design; that is not a layout defect. But one under the resting mouse pauses its auto-close and stays, so
 * park the mouse in the bottom-left corner and give shown toasts up to 5 s to leave. One that stays longer
 * (autoClose off) is still reported by the check.
 */
async function letToastsGo(page: Page): Promise<void> {
  const toasts = page.locator('.mantine-Notifications-notification');
  if ((await toasts.count()) === 0) return;
  const size = page.viewportSize();
  if (size) await page.mouse.move(1, size.height - 1);
  await expect.poll(() => toasts.count(), { timeout: 5_000 }).toBe(0).catch(() => undefined);
}

/**
 * Asserts both checks are empty at a stop of a scene, naming the stop in the failure. Waits first for
 * transitions (a drawer sliding in, the aside docking, a map resize) to settle: positions read mid-way
 * would report controls that are about to move.
 */
export async function expectCleanLayout(page: Page, where: string): Promise<void> {
  await letToastsGo(page);
  await page.waitForTimeout(400);
  expect({ where, ...(await layoutProblems(page)) }).toEqual({ where, covered: [], narrow: [] });
}
