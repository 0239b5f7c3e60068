/**
 * Display credentials (issue 14): a wall's own key, so a wall that runs for weeks is never signed out
 * when user tokens expire, and a stolen wall key reads one company's wall data and nothing else.
 *
 * - Form `wd.<id>.<secret>` (secret: 32 random bytes, base64url). It travels where a user token
 *   travels (`x-jwt`, or `?token=` on the push websocket), so every redaction of tokens applies.
 * - Stored as SHA-256 of the secret (256 bits of entropy: no slow hash needed), compared in constant time.
 * - Revocable (`revoked_time`), scoped to one company's subtree, no expiry.
 * - Read-only by construction: the auth hook accepts one only on a GET route that declares
 *   `config.display` (the walls' data calls, the preset read and the push stream). Everywhere else it
 *   is not a token at all (401). A display request never gets `request.authContext`, so a handler that
 *   asks for a user (`auth(request)`) refuses it too.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SqliteDb } from '../db/sqlite.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import type { Storage } from '../db/repositories.ts';
import { scopeCondition, subtreeScope, type Scope } from '../db/scope.ts';
import { fail } from '../http/envelope.ts';
import { Messages } from '../http/messages.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A display credential may call this route (GET and websocket only; read-only wall data). */
    display?: boolean;
  }
  interface FastifyRequest {
    /** Set when a display credential authenticated the request (then `authContext` is absent). */
    displayContext?: DisplayContext;
  }
}

export interface DisplayContext {
  readonly credentialId: number;
  readonly name: string;
  readonly companyId: number;
  /** The credential's company subtree. */
  readonly scope: Scope;
}

export const DISPLAY_PREFIX = 'wd.';
const SECRET_BYTES = 32;
/** `last_seen` is written at most once a minute per credential: a wall polls every few seconds. */
const SEEN_WRITE_MS = 60_000;

/** Whether a token is shaped like a display credential (the auth hook's switch; not a check). */
export function isDisplayToken(token: string): boolean {
  return token.startsWith(DISPLAY_PREFIX);
}

export function parseDisplayToken(token: string): { id: number; secret: string } | null {
  const m = /^wd\.([1-9][0-9]{0,14})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  return { id: Number(m[1]), secret: m[2]! };
}

const hashOf = (secret: string): Buffer => createHash('sha256').update(secret).digest();

export interface DisplayCredentialRow {
  readonly id: number;
  readonly name: string;
  readonly companyId: number;
  readonly companyName: string;
  readonly createdByName: string;
  readonly createTime: number;
  readonly lastSeen: number | null;
  readonly lastIp: string | null;
  readonly revokedTime: number | null;
  readonly revokedByName: string | null;
}

interface Row {
  id: number; name: string; company_id: number; company_name: string | null; secret_hash: Buffer; created_by_name: string;
  create_time: number; last_seen: number | null; last_ip: string | null; revoked_time: number | null; revoked_by_name: string | null;
}

const toRow = (r: Row): DisplayCredentialRow => ({
  id: r.id, name: r.name, companyId: r.company_id, companyName: r.company_name ?? '', createdByName: r.created_by_name, createTime: r.create_time,
  lastSeen: r.last_seen, lastIp: r.last_ip, revokedTime: r.revoked_time, revokedByName: r.revoked_by_name,
});

/** The `display_credential` table (migration 21). */
/** What revoking needs of an open push socket. */
export interface ClosableSocket {
  close(code: number, reason: string): void;
  once(event: 'close', listener: () => void): unknown;
}

/** Close code a wall's push socket gets when its key is revoked (the 4xxx range is the application's). */
export const REVOKED_CLOSE_CODE = 4001;

export class DisplayCredentials {
  private readonly seenWritten = new Map<number, number>();
  /** Open push sockets per key: revoking closes them at once (a socket is checked only at its upgrade). */
  private readonly sockets = new Map<number, Set<ClosableSocket>>();
  constructor(private readonly db: SqliteDb) {}

  /** Remembers a push socket opened with key `id` until it closes. */
  trackSocket(id: number, socket: ClosableSocket): void {
    let set = this.sockets.get(id);
    if (!set) this.sockets.set(id, (set = new Set()));
    set.add(socket);
    socket.once('close', () => {
      set.delete(socket);
      if (set.size === 0 && this.sockets.get(id) === set) this.sockets.delete(id);
    });
  }

  /** Creates a credential and answers its key (shown once; only the hash is kept). */
  create(input: { name: string; companyId: number; createdBy: number; createdByName: string }, now: number): { id: number; key: string } {
    const secret = randomBytes(SECRET_BYTES).toString('base64url');
    const r = this.db
      .prepare('INSERT INTO display_credential (name, company_id, secret_hash, created_by, created_by_name, create_time) VALUES (?, ?, ?, ?, ?, ?)')
      .run(input.name, input.companyId, hashOf(secret), input.createdBy, input.createdByName, now);
    const id = Number(r.lastInsertRowid);
    return { id, key: `${DISPLAY_PREFIX}${id}.${secret}` };
  }

  /** Credentials of companies inside the scope, newest first (revoked ones included, marked). */
  list(scope: Scope, offset: number, limit: number, keyword = ''): { total: number; records: DisplayCredentialRow[] } {
    const scoped = scopeCondition(scope, 'c');
    // A keyword matches the key's name or its company's name (LIKE with the wildcards escaped).
    const like = `%${keyword.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const where = keyword ? `${scoped.sql} AND (d.name LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\')` : scoped.sql;
    const args = keyword ? [...scoped.params, like, like] : scoped.params;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM display_credential d LEFT JOIN company c ON c.id = d.company_id WHERE ${where}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT d.*, c.name AS company_name FROM display_credential d LEFT JOIN company c ON c.id = d.company_id WHERE ${where} ORDER BY d.id DESC LIMIT ? OFFSET ?`)
      .all(...args, limit, offset) as Row[];
    return { total, records: rows.map(toRow) };
  }

  get(id: number): (DisplayCredentialRow & { companyPath: string | null }) | undefined {
    const r = this.db.prepare('SELECT d.*, c.name AS company_name, c.path AS company_path FROM display_credential d LEFT JOIN company c ON c.id = d.company_id WHERE d.id = ?').get(id) as
      | (Row & { company_path: string | null })
      | undefined;
    return r ? { ...toRow(r), companyPath: r.company_path } : undefined;
  }

  /** Marks it revoked; answers false when it already was. */
  revoke(id: number, byName: string, now: number): boolean {
    const changed = this.db.prepare('UPDATE display_credential SET revoked_time = ?, revoked_by_name = ? WHERE id = ? AND revoked_time IS NULL').run(now, byName, id).changes > 0;
    // Its walls' open streams end now, not at their next reconnect.
    for (const socket of this.sockets.get(id) ?? []) socket.close(REVOKED_CLOSE_CODE, 'display key revoked');
    return changed;
  }

  /** The context of a valid, unrevoked key whose company still exists; undefined otherwise. */
  verify(token: string, ip: string, now: number): DisplayContext | undefined {
    const parsed = parseDisplayToken(token);
    if (!parsed) return undefined;
    const r = this.db
      .prepare('SELECT d.id, d.name, d.company_id, d.secret_hash, d.revoked_time, c.path AS company_path FROM display_credential d LEFT JOIN company c ON c.id = d.company_id WHERE d.id = ?')
      .get(parsed.id) as { id: number; name: string; company_id: number; secret_hash: Buffer; revoked_time: number | null; company_path: string | null } | undefined;
    if (!r || r.revoked_time !== null || r.company_path === null) return undefined;
    const given = hashOf(parsed.secret);
    if (given.length !== r.secret_hash.length || !timingSafeEqual(given, r.secret_hash)) return undefined;
    if (now - (this.seenWritten.get(r.id) ?? -Infinity) >= SEEN_WRITE_MS) {
      this.seenWritten.set(r.id, now);
      this.db.prepare('UPDATE display_credential SET last_seen = ?, last_ip = ? WHERE id = ?').run(now, ip, r.id);
    }
    return { credentialId: r.id, name: r.name, companyId: r.company_id, scope: subtreeScope(r.company_id, r.company_path) };
  }
}

const perStorage = new WeakMap<object, DisplayCredentials>();

/** The credentials table of a storage (one instance per storage: prepared statements, the last-seen throttle). */
export function displayCredentials(storage: Storage): DisplayCredentials {
  let d = perStorage.get(storage);
  if (!d) {
    d = new DisplayCredentials((storage as SqliteStorage).db);
    perStorage.set(storage, d);
  }
  return d;
}

/**
 * The auth hook's branch for a display-shaped token: a GET (or push upgrade) of a route that declares
 * `display`, with a valid unrevoked key. Anything else is 401, exactly like a bad user token.
 */
export function authenticateDisplay(request: FastifyRequest, storage: Storage, token: string): void {
  const config = request.routeOptions.config;
  if (config.display !== true || request.method !== 'GET') throw fail.unauthorized();
  const ctx = displayCredentials(storage).verify(token, request.ip, Date.now());
  if (!ctx) throw fail.unauthorized();
  request.displayContext = ctx;
}

/** Who reads wall data: a display credential or a signed-in user; `scope` is what they may read. */
export function isDisplayRequest(request: FastifyRequest): boolean {
  return request.displayContext !== undefined;
}

/**
 * The scope a display request reads: the credential's subtree, narrowed to `companyId` when given
 * (a company outside the credential's subtree answers 403, as for users).
 */
export async function displayScope(storage: Storage, ctx: DisplayContext, companyId: number | undefined): Promise<Scope> {
  if (companyId === undefined) return ctx.scope;
  const company = await storage.companies.get(ctx.scope, companyId);
  if (!company) throw fail.forbidden(Messages.companyOutOfScope);
  return subtreeScope(company.id, company.path);
}
