/**
 * The console's one layer order (z-index scale). Every `zIndex` in src/ comes from here, so a new
 * panel or overlay lands in a known place instead of a guessed number:
 *
 *   map canvas < map controls < panels over the map < menus over the map < shell (header, nav,
 *   docked alarm pop-up) < drawers and dialogs (with their overlay) < dialogs opened from the pop-up <
 *   dropdowns and tooltips < notifications.
 *
 * The map's canvases and maplibre's controls live in an isolated stacking context (MapView), so
 * deck.gl's canvas (a maplibre control, z-index 2 inside it) cannot paint over a panel. The alarm
 * pop-up is docked in the shell's aside column: it reserves its own space instead of floating over
 * page controls.
 *
 * Drawers and dialogs beside the docked pop-up (issue 13): every Drawer and Modal (the theme applies
 * `BESIDE_DOCK`, src/app/App.tsx) lays its overlay and its window out in the viewport *left of* the
 * aside column (`--app-shell-aside-offset`, 0 while nothing is docked). So a right-hand drawer opens
 * against the pop-up's left edge and a dialog centres in the free part; the pop-up stays bright and
 * clickable beside them, never under an overlay, and neither covers the other's controls. We chose
 * "drawers open to the left of the docked aside" over moving the pop-up left: the pop-up keeps one
 * place whatever opens, and a drawer never has to share its width with it. On narrow screens (below
 * Mantine's `sm`) the aside is full width with offset 0, and dialogs cover it as before.
 * The pop-up's aside carries `data-beside-dialogs`: e2e/layout-checks.ts keeps checking its controls
 * while a dialog is open.
 */
export const LAYERS = {
  /** The map's own stacking context: basemap, deck.gl canvas and maplibre controls inside it. */
  map: 0,
  /** Panels over the map: info card, box-select result, toolbars, lists. */
  mapPanel: 10,
  /** Menus and drawing surfaces over the map panels (right-click menu, box-select surface). */
  mapMenu: 20,
  /** A dropdown inside a page panel (search results under a search box). */
  panelDropdown: 30,
  /** Mantine AppShell (header, navigation, the docked alarm pop-up); Mantine's default `app` layer. */
  shell: 100,
  /** Inside a scrolling table: a pinned (sticky) column over the cells that scroll under it. */
  tablePinned: 1,
  /** Inside a scrolling table: the sticky header row over cells and the pinned column. */
  tableHeader: 2,
  /** A loading veil over one table: above its cells, below everything else. */
  tableOverlay: 5,
  /** Drawers and dialogs (Mantine's default `modal` layer); their overlay dims everything below. */
  dialog: 200,
  /**
   * A dialog opened from the docked alarm pop-up (handle, details, TTS …): the operator opened it last,
   * so it lies above a drawer or dialog the page already has open beside the pop-up.
   */
  popupDialog: 210,
  /** Dropdowns, menus and tooltips (Mantine's default `popover` layer): above dialogs that open them. */
  popover: 300,
  /** Notifications and page-wide banners (spec §9: overlays at 3000): above everything. */
  notification: 3000,
} as const;

/** Right edge of drawers, dialogs and their overlays: the docked alarm pop-up's left edge (0 when none). */
const DOCK_EDGE = 'var(--app-shell-aside-offset, 0px)';

/**
 * Mantine `styles` for Drawer and Modal (theme defaults): the window and the overlay stop at the
 * docked pop-up. The inner box clips, so a drawer's slide-in never passes over the pop-up either.
 */
export const BESIDE_DOCK = {
  inner: { left: 0, right: DOCK_EDGE, width: 'auto', overflow: 'hidden' },
  overlay: { right: DOCK_EDGE },
} as const;

/** Widths of the docked alarm pop-up (px): the compact one on the live map, the full one elsewhere. */
export const DOCK_WIDTH = {
  compact: 272,
  full: { base: 340, xl: 420 },
} as const;

/** How the alarm pop-up docks: not at all, compact (live map) or full. */
export type DockMode = 'off' | 'compact' | 'full';
