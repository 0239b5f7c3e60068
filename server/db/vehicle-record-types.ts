/**
 * Issue 15 (migration 22): vehicles as master data (/information/vehicle, /service-priv/vehicle).
 * Placeholder laid down with migration 22; the aggregate's owner fills the interface.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface VehicleRepository {}
