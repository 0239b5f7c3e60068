/**
 * Typed codec errors. Decoders and the splitter return or report them (bad input is normal traffic
 * on a media port, so it must not cost a try/catch per packet); encoders throw them on invalid
 * arguments.
 */
export type Jt1078ErrorCode =
  /** Fewer bytes than the header or the declared body length needs. */
  | 'truncated'
  /** Frame header 0x30316364 missing where a packet must start. */
  | 'magic'
  /** RTP version is not 2, or the data type / sub-package mark is outside the standard's table. */
  | 'header'
  /** Declared body length above the cap (950 bytes by the standard). */
  | 'too-long'
  /** A field holds an impossible value (non-BCD SIM digit). */
  | 'field'
  /** Encoder got a value that does not fit the wire format. */
  | 'encode';

export class Jt1078Error extends Error {
  override readonly name = 'Jt1078Error';
  readonly code: Jt1078ErrorCode;

  constructor(code: Jt1078ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function isJt1078Error(value: unknown): value is Jt1078Error {
  return value instanceof Jt1078Error;
}
