/**
 * Typed codec errors. Decoders return them inside a result (bad input is normal traffic on a
 * gateway, so it must not cost a try/catch per frame); encoders throw them on invalid arguments.
 */
export type Jt808ErrorCode =
  /** 0x7d followed by something other than 0x01/0x02. */
  | 'escape'
  /** Frame body longer than the splitter's cap. */
  | 'too-long'
  /** Fewer bytes than the header, a field or a declared length needs. */
  | 'truncated'
  /** BCC (XOR) checksum does not match. */
  | 'checksum'
  /** Body length in the header properties differs from the bytes received. */
  | 'length'
  /** Reserved property bit set, or 2019 flag with protocol version 0. */
  | 'version'
  /** A field holds an impossible value (bad BCD digit, sub-package index 0, ...). */
  | 'field'
  /** Body is RSA-encrypted; the codec has no key. */
  | 'encrypted'
  /** Encoder got a value that does not fit the wire format. */
  | 'encode';

export class Jt808Error extends Error {
  override readonly name = 'Jt808Error';
  readonly code: Jt808ErrorCode;

  constructor(code: Jt808ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function isJt808Error(value: unknown): value is Jt808Error {
  return value instanceof Jt808Error;
}
