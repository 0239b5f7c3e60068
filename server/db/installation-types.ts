/**
 * Issue 15: installation records (bind, remove, replace a device) with photos.
 * Placeholder laid down with migration 22; the aggregate's owner fills the interface.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface InstallationRepository {}
