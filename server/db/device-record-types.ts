/**
 * Issue 15: devices (terminals) apart from vehicles, unassigned devices, refused registrations.
 * Placeholder laid down with migration 22; the aggregate's owner fills the interface.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DeviceRepository {}
