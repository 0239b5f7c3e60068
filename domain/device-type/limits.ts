/**
 * Device types (/information/deviceType): the limits the server's schemas and the console's forms share,
 * so a form refuses exactly what the server would.
 *
 * A device type names a terminal model as the terminal reports it in its registration (0x0100):
 * maker id and model, whose field widths the protocol edition fixes (JT/T 808-2013: 5 and 20 bytes,
 * JT/T 808-2019: 11 and 30 bytes, both space/NUL padded ASCII in practice).
 */

/** Protocol editions a terminal may speak (the header's version flag tells 2019 from 2013). */
export const DEVICE_PROTOCOLS = [2013, 2019] as const;
export type DeviceProtocol = (typeof DEVICE_PROTOCOLS)[number];

export const DEVICE_TYPE_LIMITS = {
  /** The name shown in pickers (the spec's `devTypeName`). */
  nameMax: 32,
  /** Widest maker id of any edition (2019: 11 bytes). */
  makerIdMax: 11,
  /** Widest model of any edition (2019: 30 bytes). */
  modelMax: 30,
  remarkMax: 200,
  /** Rows one import may carry: a device-type catalogue is small, and the whole file is one transaction. */
  importRowsMax: 500,
} as const;

/** Maker id and model widths per edition (JT/T 808 table 8: terminal registration). */
export const REGISTRATION_WIDTHS: Readonly<Record<DeviceProtocol, { makerId: number; model: number }>> = {
  2013: { makerId: 5, model: 20 },
  2019: { makerId: 11, model: 30 },
};

/** Maker id / model wider than the edition's registration field (the terminal could never report it), or undefined. */
export function registrationFieldTooWide(protocol: DeviceProtocol, field: 'makerId' | 'model', value: string): number | undefined {
  const max = REGISTRATION_WIDTHS[protocol][field];
  return value.length > max ? max : undefined;
}
