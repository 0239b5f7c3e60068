/**
 * The error catalogue (spec §8) with its messages in both interface languages.
 *
 * The server answers `{code, msg, data}`; `code` 200 is success. HTTP-like codes reuse the status
 * numbers; business failures use four-digit codes so the console can react to a code instead of
 * parsing text. The server writes `msg` in the caller's language (`x-lang`, then Accept-Language);
 * the console may also localise by code with `messageFor`.
 */
export type Lang = 'zh' | 'en';

export const OK = 200;

export const ErrorCode = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Timeout: 408,
  Conflict: 409,
  TooManyRequests: 429,
  Internal: 500,
  NotImplemented: 501,
  BadGateway: 502,
  Unavailable: 503,
  GatewayTimeout: 504,
  HttpVersion: 505,
  /** Login: user name or password error. */
  BadCredentials: 1001,
  /** Login: account expired, contact the administrator. */
  AccountExpired: 1002,
  /** Login: account invalid (disabled or deleted), log in again. */
  AccountInvalid: 1003,
  /** Login: the caller's address is outside the account's allowed ranges. */
  LocationLimited: 1004,
  /** Login: too many failures in a short time; wait before trying again. */
  LoginThrottled: 1005,
  /** Passwordless login: the ticket is unknown, used or expired. */
  TicketInvalid: 1006,
  /** The client could not reach the server at all (never sent by the server). */
  Network: 1100,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const MESSAGES: Record<number, readonly [zh: string, en: string]> = {
  400: ['请求错误', 'Request error'],
  401: ['未授权，请登录', 'Unauthorized, please log in'],
  403: ['拒绝访问', 'Access denied'],
  404: ['请求地址出错', 'Request address error'],
  408: ['请求超时', 'Request timeout'],
  409: ['数据冲突', 'Conflicting data'],
  429: ['请求过于频繁，请稍后再试', 'Too many requests, try again later'],
  500: ['服务器内部错误', 'Internal server error'],
  501: ['服务未实现', 'Service not implemented'],
  502: ['网关错误', 'Gateway error'],
  503: ['服务不可用', 'Service unavailable'],
  504: ['网关超时', 'Gateway timeout'],
  505: ['HTTP版本不受支持', 'HTTP version not supported'],
  1001: ['用户名或密码错误', 'Wrong user name or password'],
  1002: ['账号已过期，请联系管理员', 'Account expired. Contact your administrator.'],
  1003: ['账号无效，请重新登录', 'This account is disabled. Contact your administrator.'],
  1004: ['登录地点受限，请联系管理员', 'Sign-in is not allowed from this location. Contact your administrator.'],
  1005: ['登录失败次数过多，请稍后再试', 'Too many failed sign-ins. Try again later.'],
  1006: ['登录凭证无效或已过期', 'This sign-in link is invalid or has expired'],
  1100: ['网络异常，请检查网络', 'Network error, check the network'],
};

/** The catalogue message for a code, or undefined when the code has none. */
export function messageFor(code: number, lang: Lang): string | undefined {
  const pair = MESSAGES[code];
  return pair ? pair[lang === 'zh' ? 0 : 1] : undefined;
}

/** The message for "no permission for this page" on dashboard-style navigation (spec §6). */
export const NO_PERMISSION_WARNING: Record<Lang, string> = { zh: '暂无该权限！', en: 'No permission for this page!' };

/** Validation messages that name the offending field (code 400). */
export const FieldMessage = {
  required: (field: string, lang: Lang) => (lang === 'zh' ? `字段 ${field} 不能为空` : `Field ${field} is required`),
  invalid: (field: string, detail: string, lang: Lang) =>
    lang === 'zh' ? `字段 ${field} 不合法：${detail}` : `Field ${field} is invalid: ${detail}`,
  unknown: (field: string, lang: Lang) => (lang === 'zh' ? `不允许的字段 ${field}` : `Field ${field} is not allowed`),
  malformedBody: (lang: Lang) => (lang === 'zh' ? '请求体不是合法的 JSON' : 'The request body is not valid JSON'),
} as const;
