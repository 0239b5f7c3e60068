/**
 * Machine affairs (issue 15): the limits and rules of vehicles, devices, drivers, installation records
 * and lines that the server's schemas, its import checks and the console's forms share, so a form
 * refuses exactly what the server would. One rule, one place.
 */

/** JT/T 808 editions a device may speak (the 2011 edition has no version flag; 2019 sets it). */
export const DEVICE_EDITIONS = [2011, 2013, 2019] as const;
export type DeviceEdition = (typeof DEVICE_EDITIONS)[number];

/**
 * Plate colours (JT/T 808 / JT/T 697.7 plate colour codes; 5 green: new-energy plates, 2019 table).
 * 0: not entered / the vehicle is not on a plate (the code a terminal sends for "no plate").
 */
export const PLATE_COLORS = [0, 1, 2, 3, 4, 5, 9] as const;
export type PlateColor = (typeof PLATE_COLORS)[number];
export const PLATE_COLOR_NAMES: Readonly<Record<PlateColor, readonly [zh: string, en: string]>> = {
  0: ['未上牌', 'No plate'], 1: ['蓝色', 'Blue'], 2: ['黄色', 'Yellow'], 3: ['黑色', 'Black'], 4: ['白色', 'White'], 5: ['绿色', 'Green'], 9: ['其他', 'Other'],
};

/** Vehicle types an operator picks (GA 802 classes as fleet consoles group them); stored as the code. */
export const VEHICLE_TYPES = ['bus', 'coach', 'taxi', 'truck', 'tractor', 'dangerous', 'sanitation', 'muck', 'car', 'special', 'other'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
export const VEHICLE_TYPE_NAMES: Readonly<Record<VehicleType, readonly [zh: string, en: string]>> = {
  bus: ['公交车', 'City bus'], coach: ['客运大巴', 'Coach'], taxi: ['出租车', 'Taxi'], truck: ['货车', 'Truck'], tractor: ['牵引车', 'Tractor unit'],
  dangerous: ['危险品运输车', 'Hazardous goods vehicle'], sanitation: ['环卫车', 'Sanitation vehicle'], muck: ['渣土车', 'Muck truck'],
  car: ['小型客车', 'Passenger car'], special: ['专用作业车', 'Special-purpose vehicle'], other: ['其他', 'Other'],
};

/** Driving licence classes (GB/T 公安部令 第162号 准驾车型). */
export const LICENCE_CLASSES = ['A1', 'A2', 'A3', 'B1', 'B2', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'D', 'E', 'F', 'M', 'N', 'P'] as const;
export type LicenceClass = (typeof LICENCE_CLASSES)[number];

export const VEHICLE_LIMITS = {
  /** Plate (or the vehicle's name without a plate): a Chinese plate is 7–8 characters; room for special plates and names. */
  plateMax: 16,
  vinLength: 17,
  remarkMax: 200,
  /** Rows of one vehicle import file (spec/issue 15: up to 10,000 in one file). */
  importRowsMax: 10_000,
  /** Vehicles moved to another company in one call (spec §5: 500 at once). */
  moveMax: 500,
  /** Days before an insurance or inspection expiry that the list starts to warn. */
  expiryWarnDays: 30,
} as const;

export const DEVICE_LIMITS = {
  /** The terminal phone (SIM) number: 12 digits, leading zeros kept (the JT/T 808 header's BCD[6]). */
  deviceNoLength: 12,
  /** Terminal id: 2013 BYTE[7], 2019 BYTE[30]. */
  terminalIdMax: 30,
  modelMax: 30,
  makerMax: 64,
  /** SIM ICCID: 19–20 characters (digits, last may be a letter); up to 20. */
  iccidMax: 20,
  /** JT/T 1076 logical channels 1–37 (table 2). */
  channelCountMax: 37,
  remarkMax: 200,
  importRowsMax: 10_000,
} as const;

export const DRIVER_LIMITS = {
  nameMax: 32,
  /** Licence number: the holder's 18-character identity number, or a foreign licence number. */
  licenceNoMax: 20,
  /** Qualification certificate (从业资格证) number as 0x0702 reports it: 2013 STRING[20]. */
  certNoMax: 20,
  certAuthorityMax: 64,
  phoneMax: 20,
  remarkMax: 200,
  /** A driver photo (the face warehouse reads it later): JPEG or PNG, at most 2 MiB. */
  photoMaxBytes: 2 * 1024 * 1024,
  photoTypes: ['image/jpeg', 'image/png'] as readonly string[],
  /** Vehicles one driver may be bound to (spec §5: 500 at once). */
  vehiclesMax: 500,
  importRowsMax: 10_000,
} as const;

export const INSTALLATION_LIMITS = {
  installerMax: 32,
  remarkMax: 200,
  /** Photos of one record, each a JPEG or PNG of at most 2 MiB (spec §5: one file at a time per upload). */
  photosMax: 9,
  photoMaxBytes: 2 * 1024 * 1024,
  photoTypes: ['image/jpeg', 'image/png'] as readonly string[],
} as const;

export const LINE_LIMITS = {
  nameMax: 32,
  codeMax: 16,
  remarkMax: 200,
  /** Stations of one direction. */
  stationsMax: 200,
  stationNameMax: 32,
} as const;

/** A 12-digit terminal number (digits only). */
export const DEVICE_NO_PATTERN = '^[0-9]{12}$';
/** An ICCID: digits with an optional trailing letter, or empty. */
export const ICCID_PATTERN = '^([0-9]{18,19}[0-9A-Za-z])?$';
/** A phone: digits, '+', '-' and spaces. */
export const PHONE_PATTERN = '^[0-9+\\- ]*$';

/** The China day (GMT+8) an epoch-ms date falls on, as days since the epoch: expiry compares whole days. */
export function chinaDay(ms: number): number {
  return Math.floor((ms + 8 * 3_600_000) / 86_400_000);
}

export type ExpiryState = 'none' | 'ok' | 'soon' | 'expired';

/** Whether a dated document (insurance, inspection, licence) has expired, expires within `warnDays`, or is fine. */
export function expiryState(expire: number | null | undefined, now: number, warnDays: number = VEHICLE_LIMITS.expiryWarnDays): ExpiryState {
  if (expire === null || expire === undefined) return 'none';
  const left = chinaDay(expire) - chinaDay(now);
  if (left < 0) return 'expired';
  return left <= warnDays ? 'soon' : 'ok';
}
