/**
 * The request client (spec §7/§8). fetch-based; every call goes to one API base
 * (VITE_API_BASE, default same origin) and answers `{code, msg, data}`; success returns `data`.
 *
 * - `x-jwt` carries the token, `x-lang` the interface language; a `jwt` answer header replaces the
 *   stored token (sliding expiry).
 * - companyId injection: the selected company's id is added to GET/DELETE params or to the
 *   POST/PUT JSON body unless the payload has companyId or isExport, or `opts.noCompanyId`
 *   (or a payload `noCompanyId` flag, which is never sent). Rules: domain/request/company-id.ts.
 * - Arrays travel as repeated params (`ids=1&ids=2`). Exports ask for a binary answer and return it
 *   as is, with the file name from Content-Disposition.
 * - code ≠ 200 rejects with an `ApiError` holding the body; 401 also clears the session and goes to
 *   `/login?redirect=<current path>`; an HTTP failure without an envelope uses the status table; a
 *   network failure is code 1100 "check the network". Failures show a 2 s notification unless
 *   `opts.silent`. An aborted call (opts.signal) rejects with the AbortError and shows nothing.
 */
import { notifications } from '@mantine/notifications';
import { ErrorCode } from '../../domain/errors/catalogue.ts';
import { applyCompanyId } from '../../domain/request/company-id.ts';
import { classifyAnswer, filenameFromDisposition, networkMessage, statusMessage } from '../../domain/request/failure.ts';
import { withQuery } from '../../domain/request/query.ts';
import { currentLang } from '../i18n/index.ts';
import { companySelection } from '../session/company-selection.ts';
import { applyTokenHeader, session } from '../session/store.ts';
import { handleUnauthorized } from '../session/unauthorized.ts';

/** Spec §9: the request timeout is 100000000 ms (≈ 28 h), i.e. calls are effectively never cut off. */
export const REQUEST_TIMEOUT_MS = 100_000_000;
/** Spec §9: toasts last 2000 ms. */
export const TOAST_MS = 2000;

export const API_BASE: string = (import.meta.env.VITE_API_BASE ?? '').replace(/\/$/, '');

export interface RequestOptions {
  /** Do not add the selected company's id. */
  noCompanyId?: boolean;
  /** No notification on failure (the caller shows the error itself). */
  silent?: boolean;
  signal?: AbortSignal;
  /** Do not clear the session and redirect on 401 (the route guard handles its own restore call). */
  skipAuthRedirect?: boolean;
  /** DELETE only: send the payload as a JSON body instead of the query (the spec's `DELETE /vehicle` and alike take `{ids}` in the body). */
  jsonBody?: boolean;
}

export interface ExportOptions extends RequestOptions {
  /** GET (params in the query, default) or POST (payload as JSON body). */
  method?: 'GET' | 'POST';
}

export interface ExportResult {
  blob: Blob;
  filename: string;
}

export class ApiError extends Error {
  readonly code: number;
  readonly msg: string;
  /** The answer's parsed body (the envelope) or undefined when there was none. */
  readonly body: unknown;

  constructor(code: number, msg: string, body?: unknown) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.msg = msg;
    this.body = body;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function notify(error: ApiError, opts: RequestOptions | undefined): void {
  if (opts?.silent) return;
  notifications.show({ color: 'red', message: error.msg, autoClose: TOAST_MS, withBorder: true });
}

function signalFor(opts: RequestOptions | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  return opts?.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
}

function headersFor(json: boolean, binary: boolean): Headers {
  const h = new Headers();
  h.set('x-lang', currentLang());
  if (session.token) h.set('x-jwt', session.token);
  h.set('Accept', binary ? '*/*' : 'application/json');
  if (json) h.set('Content-Type', 'application/json');
  return h;
}

async function readJson(res: Response): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('json')) return undefined;
  try {
    return (await res.json()) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends one call; resolves to the Response after token handling, or rejects with an ApiError. */
async function send(method: Method, url: string, payload: unknown, opts: RequestOptions | undefined, binary: boolean): Promise<Response> {
  const prepared = applyCompanyId({ payload, selectedCompanyId: companySelection.companyId, noCompanyId: opts?.noCompanyId });
  const inQuery = method === 'GET' || (method === 'DELETE' && !opts?.jsonBody);
  const target = API_BASE + (inQuery ? withQuery(url, prepared as Record<string, unknown> | undefined) : url);
  const isForm = typeof FormData !== 'undefined' && prepared instanceof FormData;
  const body = inQuery || prepared === undefined ? undefined : isForm ? (prepared as FormData) : JSON.stringify(prepared);
  const lang = currentLang();
  let res: Response;
  try {
    res = await fetch(target, { method, headers: headersFor(!inQuery && !isForm && body !== undefined, binary), body, signal: signalFor(opts) });
  } catch (e) {
    if (opts?.signal?.aborted) throw e;
    const timedOut = e instanceof DOMException && e.name === 'TimeoutError';
    const err = timedOut
      ? new ApiError(ErrorCode.Timeout, statusMessage(ErrorCode.Timeout, lang))
      : new ApiError(ErrorCode.Network, networkMessage(lang));
    notify(err, opts);
    throw err;
  }
  applyTokenHeader(res.headers.get('jwt'));
  return res;
}

function fail(code: number, msg: string, body: unknown, opts: RequestOptions | undefined): never {
  const err = new ApiError(code, msg, body);
  if (code === ErrorCode.Unauthorized && !opts?.skipAuthRedirect) handleUnauthorized();
  notify(err, opts);
  throw err;
}

async function call<T>(method: Method, url: string, payload: unknown, opts?: RequestOptions): Promise<T> {
  const res = await send(method, url, payload, opts, false);
  const body = await readJson(res);
  const failure = classifyAnswer(res.status, body, currentLang());
  if (failure) fail(failure.code, failure.msg, failure.body, opts);
  return (body as { data: T }).data;
}

async function exportCall(url: string, payload: unknown, opts?: ExportOptions): Promise<ExportResult> {
  const method = opts?.method ?? 'GET';
  const res = await send(method, url, payload, opts, true);
  const type = res.headers.get('content-type') ?? '';
  // a failed export answers a JSON envelope instead of the file
  if (type.includes('application/json') || !res.ok) {
    const body = await readJson(res);
    const failure = classifyAnswer(res.status, body, currentLang());
    if (failure) fail(failure.code, failure.msg, failure.body, opts);
  }
  const blob = await res.blob();
  const fallback = url.split('/').pop() || 'export';
  return { blob, filename: filenameFromDisposition(res.headers.get('content-disposition'), fallback) };
}

/** Upload progress: bytes sent of the body's size. */
export type UploadProgress = (loaded: number, total: number) => void;

/**
 * A multipart upload with progress (fetch cannot report an upload's progress, so XMLHttpRequest): the
 * same headers, token refresh, companyId rule (added to the form unless it has one or `noCompanyId`)
 * and failure handling as every call.
 */
function uploadCall<T>(url: string, form: FormData, opts: RequestOptions & { onProgress?: UploadProgress } = {}): Promise<T> {
  const selected = companySelection.companyId;
  if (!opts.noCompanyId && selected !== null && !form.has('companyId')) form.append('companyId', String(selected));
  const lang = currentLang();
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', API_BASE + url);
    headersFor(false, false).forEach((value, key) => xhr.setRequestHeader(key, value));
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.lengthComputable ? e.total : 0);
    const failWith = (err: ApiError) => {
      notify(err, opts);
      reject(err);
    };
    xhr.onerror = () => failWith(new ApiError(ErrorCode.Network, networkMessage(lang)));
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    xhr.onload = () => {
      applyTokenHeader(xhr.getResponseHeader('jwt'));
      let body: unknown;
      try {
        body = (xhr.getResponseHeader('content-type') ?? '').includes('json') ? JSON.parse(xhr.responseText) as unknown : undefined;
      } catch {
        body = undefined;
      }
      const failure = classifyAnswer(xhr.status, body, currentLang());
      if (!failure) return resolve((body as { data: T }).data);
      try {
        fail(failure.code, failure.msg, failure.body, opts);
      } catch (err) {
        reject(err);
      }
    };
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

export const http = {
  get<T>(url: string, params?: Record<string, unknown>, opts?: RequestOptions): Promise<T> {
    return call<T>('GET', url, params, opts);
  },
  post<T>(url: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return call<T>('POST', url, body, opts);
  },
  put<T>(url: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return call<T>('PUT', url, body, opts);
  },
  delete<T>(url: string, params?: Record<string, unknown>, opts?: RequestOptions): Promise<T> {
    return call<T>('DELETE', url, params, opts);
  },
  /** POST of a multipart form (a file import) with upload progress. */
  upload<T>(url: string, form: FormData, opts?: RequestOptions & { onProgress?: UploadProgress }): Promise<T> {
    return uploadCall<T>(url, form, opts);
  },
  /** Binary export: GET with params (default) or POST with a JSON body (`opts.method`). */
  export(url: string, payload?: Record<string, unknown>, opts?: ExportOptions): Promise<ExportResult> {
    return exportCall(url, payload, opts);
  },
};

/** Saves an export result through a temporary link (the browser's download). */
export function saveBlob({ blob, filename }: ExportResult): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
