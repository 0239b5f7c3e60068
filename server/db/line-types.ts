/**
 * Issue 15: lines with their stations in order (/information/lineManagement).
 * Placeholder laid down with migration 22; the aggregate's owner fills the interface.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LineRepository {}
