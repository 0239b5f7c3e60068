/**
 * A vehicle's JT/T 808 terminal registration as the console shows it (GET /service-priv/device/registration):
 * one shape for the server's answer and the console's card.
 */
export interface TerminalRegistrationView {
  readonly vehicleId: number;
  readonly deviceNo: string;
  /** True while the terminal holds a valid auth code: a new 0x0100 for it is refused with result 3. */
  readonly registered: boolean;
  /** Epoch ms; null when the terminal never registered. */
  readonly registerTime: number | null;
  readonly authTime: number | null;
  readonly unregisterTime: number | null;
  /** Who ended the last registration: the terminal's own 0x0003 or an operator's reset. */
  readonly unregisterBy: 'terminal' | 'operator' | null;
  readonly resetUserId: number | null;
  /** Refused re-registrations (someone sent 0x0100 for the registered terminal), the last one's time and address. */
  readonly refusedCount: number;
  readonly refusedTime: number | null;
  readonly refusedAddress: string | null;
  /** The terminal is authenticated on an open connection now. */
  readonly online: boolean;
}
