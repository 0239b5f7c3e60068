/**
 * The number a terminal is told to call back (JT/T 808 0x8400, STRING[20]): digits with an optional
 * leading +, 3–20 characters in all. One rule for the pop-up's form and the server's check.
 */
const CALLBACK_PHONE = /^(?:\+[0-9]{3,19}|[0-9]{3,20})$/;

export function isCallbackPhone(phone: string): boolean {
  return CALLBACK_PHONE.test(phone);
}
