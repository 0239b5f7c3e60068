/**
 * Browser APIs jsdom lacks, for component tests of Mantine and mantine-datatable screens.
 * - matchMedia answers `matches: true`: mantine-datatable renders a row's cells only where the
 *   column's media query matches;
 * - ResizeObserver: Mantine's ScrollArea and the table's pinned columns observe sizes;
 * - document.fonts: the autosizing Textarea listens for web-font loads;
 * - Element.scrollTo: the table scrolls back to the top when its page changes.
 */
export function stubBrowserApis(): void {
  window.matchMedia = ((q: string) => ({
    matches: true, media: q, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  Element.prototype.scrollTo ??= function scrollTo() {};
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });
}

/**
 * jsdom lays nothing out: gives every element a client and offset height of `px`, so the kit's
 * virtualised tables (RowsTable) render rows. Answers the undo for `afterAll`.
 */
export function stubLayoutHeight(px = 600): () => void {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => px });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => px });
  return () => {
    delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
    delete (HTMLElement.prototype as { offsetHeight?: number }).offsetHeight;
  };
}
