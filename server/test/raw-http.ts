/**
 * HTTP/1.1 over a plain TCP socket, for tests that must send a request line exactly as written:
 * fetch (WHATWG URL) resolves `/./` and `/../`, and cannot send an absolute-form target
 * (`GET http://host/path HTTP/1.1`) or a websocket upgrade.
 */
import net from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface RawRequest {
  readonly method: string;
  /** The request target exactly as it goes on the request line. */
  readonly target: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Ask for a websocket upgrade; the answer resolves at the end of its head (a 101 keeps the socket open). */
  readonly upgrade?: boolean;
}

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

/** Sends one request on a fresh connection (`Connection: close`) and reads the whole answer. */
export function rawRequest(port: number, req: RawRequest, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) return reject(err);
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP answer to ${req.method} ${req.target}: ${JSON.stringify(text.slice(0, 200))}`));
      resolve({ ...parseHead(text.slice(0, end)), body: text.slice(end + 4) });
    };
    const timer = setTimeout(() => finish(new Error(`timeout: ${req.method} ${req.target}`)), timeoutMs);
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...req.headers };
    if (req.upgrade) {
      Object.assign(headers, { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' });
    } else {
      headers.connection = 'close';
    }
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    if (body) headers['content-length'] = String(body.length);
    const head = `${req.method} ${req.target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
    socket.on('connect', () => socket.write(body ? Buffer.concat([Buffer.from(head), body]) : head));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // An upgrade's answer is judged by its head: a 101 would keep the socket open.
      if (req.upgrade && Buffer.concat(chunks).includes('\r\n\r\n')) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (err) => finish(err));
  });
}
