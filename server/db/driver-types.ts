/**
 * Issue 15: drivers, their photos, vehicles driven and 0x0702 sign-ins.
 * Placeholder laid down with migration 22; the aggregate's owner fills the interface.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DriverRepository {}
