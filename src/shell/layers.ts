/**
 * The console's one layer order (z-index scale). Every `zIndex` in src/ comes from here, so a new
 * panel or overlay lands in a known place instead of a guessed number:
 *
 *   map canvas < map controls < panels over the map < menus over the map < shell (header, nav,
 *   docked alarm pop-up) < drawers and dialogs (with their overlay) < dropdowns and tooltips <
 *   notifications.
 *
 * The map's canvases and maplibre's controls live in an isolated stacking context (MapView), so
 * deck.gl's canvas (a maplibre control, z-index 2 inside it) cannot paint over a panel. The alarm
 * pop-up is docked in the shell's aside column: it reserves its own space instead of floating over
 * page controls, and an open drawer or dialog (and its overlay) sits above it, never under it.
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
  /** Dropdowns, menus and tooltips (Mantine's default `popover` layer): above dialogs that open them. */
  popover: 300,
  /** Notifications and page-wide banners (spec §9: overlays at 3000): above everything. */
  notification: 3000,
} as const;
