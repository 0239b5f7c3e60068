/**
 * Server configuration from the environment. Every knob a test needs is here, so an integration test
 * builds an isolated server with `loadConfig({...})` instead of touching globals.
 */
import path from 'node:path';
import { COMPANY_LIMITS } from '../domain/management/limits.ts';

/**
 * Roles of one server process (issue 20 scale-out): `gateway` (JT/T 808 terminal port), `api` (console
 * HTTP routes and the built console), `push` (the console websocket), `media` (JT/T 1078 media, playback
 * and FTP ports). A process runs all of them unless ROLES names fewer. Every node keeps /health and /metrics.
 */
export const ROLES = ['gateway', 'api', 'push', 'media'] as const;
export type Role = (typeof ROLES)[number];

export interface Config {
  /** What this process serves (ROLES, a comma list; unset = all, the single-node server). */
  readonly roles: ReadonlySet<Role>;
  /**
   * NATS server(s) of the scale-out bus (NATS_URL, comma list of nats:// or tls:// URLs). Unset: no bus,
   * the single-node server. Set: a gateway publishes positions to JetStream, a push node follows them (server/bus).
   */
  readonly natsUrl?: string | undefined;
  readonly port: number;
  readonly host: string;
  /** Directory holding the SQLite database and the JWT secret. */
  readonly dataDir: string;
  /**
   * Where media files go (MEDIA_DIR, an absolute path): photos (`photos/`), recordings pulled over FTP
   * (`recordings/`) and terminal upgrade packages (`upgrade-packages/`). Unset: photos and recordings in
   * `DATA_DIR/media`, upgrade packages in `DATA_DIR/upgrade-packages`, as before it existed (`mediaDirOf`,
   * `upgradePackagesDirOf`). In scale-out every node mounts one shared directory (NFS or the like) at this
   * same path: a photo a gateway node stores is served by any API node, a package an API node stores is
   * read by the gateway node sending it.
   */
  readonly mediaDir?: string | undefined;
  /** The built console (vite output, base /bcmp-web/). */
  readonly consoleDir: string;
  /** Token lifetime; a token past half of it is replaced through the `jwt` response header. */
  readonly tokenTtlSeconds: number;
  /**
   * Login back-off (domain/session/backoff.ts): failures within the window are counted per user name
   * and per address; past the free failures each one makes the caller wait `throttleBaseMs`, doubling
   * up to `throttleMaxMs`. The address allows more free failures: one office NAT carries many operators.
   */
  readonly throttleWindowMs: number;
  readonly throttleMaxFailures: number;
  readonly throttleAddressMaxFailures: number;
  readonly throttleBaseMs: number;
  readonly throttleMaxMs: number;
  /** Demo data created on a new database only. */
  readonly seedVehicles: number;
  readonly seedFleetsPerBranch: number;
  /** Skip the demo seed entirely (an empty database: the permission records and the first administrator only). */
  readonly seedEnabled: boolean;
  /**
   * The first administrator of a database without users (server/db/open.ts, SEED=0): user `admin`, with
   * this password (ADMIN_PASSWORD, 6–64 characters) when set, else a random one printed once at that start.
   */
  readonly adminPassword: string | undefined;
  /** The root company created with the first administrator when the database has no company (ROOT_COMPANY_NAME). */
  readonly rootCompanyName: string;
  readonly logLevel: string;
  /** Honour X-Forwarded-For (behind a reverse proxy) for the allowed-address check and throttling. */
  readonly trustProxy: boolean;
  /** JT/T 808 gateway TCP port (main.ts listens on it; tests call `app.gateway.listen(0)`). */
  readonly gatewayPort: number;
  readonly gatewayHost: string;
  /** A terminal connection silent for this long is closed. */
  readonly gatewayIdleSeconds: number;
  /**
   * Accept unknown terminals at register as unassigned devices (of `autoRegisterCompanyId`, else the first
   * root company). Any TCP client that knows nothing but a free number could create devices, so the default
   * is off: undefined means main.ts turns it on only for a demo database (the seed's `database_flag`,
   * migration 14); buildApp (tests) leaves it off. The gateway logs a warning at start while it is on.
   */
  readonly autoRegister: boolean | undefined;
  readonly autoRegisterCompanyId: number | undefined;
  /**
   * SQLite `synchronous` with WAL (SQLITE_SYNCHRONOUS, issue 20). `normal` (default): a committed
   * transaction survives a killed process, and an OS crash or power loss may roll back the commits
   * since the last checkpoint (never corrupts). `full`: commits survive power loss too, at one fsync
   * per commit (≈7 ms on this machine's disk, on the event loop), README "Deployment notes".
   */
  readonly sqliteSynchronous: 'normal' | 'full';
  /**
   * Position history: flush every this many ms or this many queued rows, whichever comes first. A
   * report's ack waits for its flush (group commit), so this bounds the ack delay; 100 ms costs ≤ 10
   * commits a second at low load, and under load `historyBatchRows` fills first.
   */
  readonly historyFlushMs: number;
  readonly historyBatchRows: number;
  /**
   * Simulated terminals main.ts runs against its own gateway (the first N vehicles of the database).
   * Undefined: 2,000 with demo data (SEED on), else none. 0 turns the simulator off.
   */
  readonly simVehicles: number | undefined;
  /** JT/T 1078 media port (TCP) terminals stream to after 0x9101 (main.ts listens; tests listen on 0). */
  readonly mediaPort: number;
  /** Address sent to terminals in 0x9101: what a terminal on the road can reach (a public IP or name). */
  readonly mediaPublicHost: string;
  /** JT/T 1078 playback port (TCP): recordings played back after 0x9201 stream here, apart from live streams (a free port when MEDIA_PORT is 0). */
  readonly mediaPlaybackPort: number;
  /**
   * Media and playback connections are bound only when they come from the address of the terminal's
   * authenticated JT/T 808 connection (MEDIA_ADDRESS_CHECK, on). Off for carrier NAT that gives one
   * terminal several public addresses.
   */
  readonly mediaAddressCheck: boolean;
  /** A media / playback connection that sends no valid packet of an awaited channel within this is closed (MEDIA_FIRST_PACKET_MS). */
  readonly mediaFirstPacketMs: number;
  /** Live-video connections a user may open per China day, unless set per user (spec §8). */
  readonly videoDailyLimit: number;
  /** Photos and pulled recordings older than this many days are deleted (server/media/retention.ts); 0 keeps all. */
  readonly mediaRetentionDays: number;
  /**
   * Retention of history by kind, in days (0 keeps all), swept at start and hourly by server/retention/:
   * positions and their track blocks (POSITION_RETENTION_DAYS), alarms with their deal log and closed
   * board items (ALARM_RETENTION_DAYS), raw logs — live-video connection log, login sessions
   * (LOG_RETENTION_DAYS) — and the positioning reports' daily rollups (REPORT_RETENTION_DAYS).
   */
  readonly positionRetentionDays: number;
  readonly alarmRetentionDays: number;
  readonly logRetentionDays: number;
  readonly reportRetentionDays: number;
  /** A finished export file (and its job) is kept this long after it finished (EXPORT_RETENTION_MINUTES). */
  readonly exportRetentionMinutes: number;
  /** Issue 17: days of gateway frames kept in DATA_DIR/frames (FRAME_LOG_DAYS, whole days; 0 turns the communication log off). */
  readonly frameLogDays: number;
  /** Issue 17: the night window of routes' section night speed limit, China time (ROUTE_NIGHT_WINDOW "22:00-06:00", the default). */
  readonly routeNightWindow: { readonly startTime: string; readonly endTime: string };
  /** FTP receiver for recordings terminals upload after 0x9206 (a free port when PORT is 0, as in tests). */
  readonly ftpPort: number;
  /** Address sent to terminals in 0x9206 and in PASV answers (an IPv4 address: PASV carries no names). */
  readonly ftpPublicHost: string;
  /** Passive data ports [min, max] (FTP_PASV_PORTS "7630-7679"; "0" = any free port). */
  readonly ftpPassivePorts: readonly [number, number];
  /** Largest file one upload may store (FTP_MAX_FILE_MB). */
  readonly ftpMaxFileBytes: number;
  /**
   * Origins of the map tile and style servers the console may load from (MAP_SOURCE_ORIGINS, comma
   * list of CSP sources such as `https://tiles.example.com` or `https://*.example.com`), allowed in the
   * Content-Security-Policy's img-src and connect-src. Undefined (unset): any http(s) origin, because
   * each user adds map sources in their own browser (server/http/security-headers.ts).
   */
  readonly mapSourceOrigins: readonly string[] | undefined;
  /**
   * Street-map archives (TILES_DIR): `*.pmtiles` files served by server/services/tiles with range
   * requests. Unset: `DATA_DIR/tiles`, so an operator drops an extract into the data directory.
   */
  readonly tilesDir: string | undefined;
  /**
   * The dashboard's weather source (WEATHER_URL): an http(s) address answering JSON `{text, temperature, city?}`.
   * Unset: the dashboard hides its weather slot (nothing is invented).
   */
  readonly weatherUrl?: string | undefined;
  /** Passive data ports one login (upload task) may hold at once, over all its connections (FTP_PASV_PER_LOGIN). */
  readonly ftpPassivePerLogin: number;
  /** Passive data ports one remote address may hold at once (FTP_PASV_PER_ADDRESS). */
  readonly ftpPassivePerAddress: number;
  /**
   * Bearer token a Prometheus scraper sends to GET /metrics (METRICS_TOKEN, 16–256 characters). Unset:
   * only a loopback peer without forwarding headers may scrape (server/ops/access.ts).
   */
  readonly metricsToken?: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const REPO_ROOT = path.resolve(import.meta.dirname, '..');

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
}

function optionalBool(env: Env, name: string): boolean | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : bool(env, name, false);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

/** "min-max" or "0" (any free port). */
/** "HH:mm-HH:mm" (China time; an end before the start runs over midnight). */
function timeWindow(env: Env, name: string, fallback: { startTime: string; endTime: string }): { startTime: string; endTime: string } {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const m = /^((?:[01]\d|2[0-3]):[0-5]\d)-((?:[01]\d|2[0-3]):[0-5]\d)$/.exec(raw);
  if (!m || m[1] === m[2]) throw new Error(`${name} must be "HH:mm-HH:mm" with two different times, got "${raw}"`);
  return { startTime: m[1]!, endTime: m[2]! };
}

function portRange(env: Env, name: string, fallback: readonly [number, number]): readonly [number, number] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw.trim() === '0') return [0, 0];
  const m = /^(\d+)-(\d+)$/.exec(raw.trim());
  const min = Number(m?.[1]);
  const max = Number(m?.[2]);
  if (!m || min < 1 || max > 65535 || min > max) throw new Error(`${name} must be "min-max" (1..65535) or 0, got "${raw}"`);
  return [min, max];
}

/** A comma list of CSP host sources (`https://host[:port]`, `https://*.host`); unset → undefined. */
function originList(env: Env, name: string): readonly string[] | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((s) => !/^https?:\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/.test(s));
  if (bad !== undefined) throw new Error(`${name} must be a comma list of http(s) origins such as https://tiles.example.com or https://*.example.com, got "${bad}"`);
  return list;
}

/** A text setting with bounded length (surrounding blanks trimmed unless `trim` is false); unset or blank → undefined. */
function text(env: Env, name: string, min: number, max: number, trim = true): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = trim ? raw.trim() : raw;
  const length = [...value].length;
  if (length < min || length > max) throw new Error(`${name} must be ${min} to ${max} characters, got ${length}`);
  return value;
}

function synchronousMode(raw: string | undefined): 'normal' | 'full' {
  if (raw === undefined || raw.trim() === '') return 'normal';
  const v = raw.trim().toLowerCase();
  if (v === 'normal' || v === 'full') return v;
  throw new Error(`SQLITE_SYNCHRONOUS must be normal or full, got "${raw}"`);
}

/** ROLES: a comma list of ROLES (at least one); unset or blank = all. */
function roleSet(raw: string | undefined): ReadonlySet<Role> {
  if (raw === undefined || raw.trim() === '') return new Set(ROLES);
  const names = raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const bad = names.find((n) => !(ROLES as readonly string[]).includes(n));
  if (bad !== undefined || names.length === 0) throw new Error(`ROLES must be a comma list of ${ROLES.join(', ')}, got "${bad ?? raw}"`);
  return new Set(names as Role[]);
}

/** NATS_URL: comma list of nats:// or tls:// URLs (host and port); unset or blank = no bus. */
function natsUrls(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((s) => !/^(nats|tls):\/\/([^\s/@]+@)?[A-Za-z0-9.\-[\]:]+(:\d{1,5})?\/?$/.test(s));
  if (bad !== undefined) throw new Error(`NATS_URL must be a comma list of nats://host:port or tls://host:port URLs, got "${bad.replace(/\/\/[^@/]*@/, '//…@')}"`);
  return list.join(',');
}

/** MEDIA_DIR: an absolute path (normalised); unset or blank = undefined. */
function absoluteDir(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!path.isAbsolute(raw)) throw new Error(`${name} must be an absolute path (in scale-out every node mounts the shared directory at the same path), got "${raw}"`);
  return path.normalize(raw).replace(/(.)\/+$/, '$1');
}

/** Photos and recordings: MEDIA_DIR, else DATA_DIR/media (`media_item.path` is relative to it). */
export function mediaDirOf(config: Pick<Config, 'mediaDir' | 'dataDir'>): string {
  return config.mediaDir ?? path.join(config.dataDir, 'media');
}

/**
 * A folder of files every node must read, whichever node wrote them (upgrade packages, export files, accident
 * evidence, audio resources): MEDIA_DIR/<name> (the shared mount in scale-out), else DATA_DIR/<name> (where they
 * always were on one node).
 */
export function sharedFilesDirOf(config: Pick<Config, 'mediaDir' | 'dataDir'>, name: 'upgrade-packages' | 'exports' | 'accident-files' | 'audio-resources'): string {
  return path.join(config.mediaDir ?? config.dataDir, name);
}

/** Terminal upgrade packages: MEDIA_DIR/upgrade-packages, else DATA_DIR/upgrade-packages (where they always were). */
export function upgradePackagesDirOf(config: Pick<Config, 'mediaDir' | 'dataDir'>): string {
  return sharedFilesDirOf(config, 'upgrade-packages');
}

/** Reads the configuration; `overrides` win over the environment (tests use them). */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const config: Config = {
    roles: roleSet(env.ROLES),
    natsUrl: natsUrls(env.NATS_URL),
    port: int(env, 'PORT', 8080, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || path.join(REPO_ROOT, 'data')),
    mediaDir: absoluteDir(env, 'MEDIA_DIR'),
    consoleDir: path.resolve(env.CONSOLE_DIR || path.join(REPO_ROOT, 'dist', 'console')),
    tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 8 * 3600, 2, 30 * 24 * 3600),
    throttleWindowMs: int(env, 'THROTTLE_WINDOW_MS', 3600_000, 1000, 24 * 3600_000),
    throttleMaxFailures: int(env, 'THROTTLE_MAX_FAILURES', 5, 1, 1000),
    throttleAddressMaxFailures: int(env, 'THROTTLE_ADDRESS_MAX_FAILURES', 20, 1, 100_000),
    throttleBaseMs: int(env, 'THROTTLE_BASE_MS', 30_000, 1, 24 * 3600_000),
    throttleMaxMs: int(env, 'THROTTLE_MAX_MS', 15 * 60_000, 1, 24 * 3600_000),
    seedVehicles: int(env, 'SEED_VEHICLES', 2000, 0, 1_000_000),
    seedFleetsPerBranch: int(env, 'SEED_FLEETS_PER_BRANCH', 4, 1, 1000),
    seedEnabled: bool(env, 'SEED', true),
    adminPassword: text(env, 'ADMIN_PASSWORD', 6, 64, false),
    rootCompanyName: text(env, 'ROOT_COMPANY_NAME', 1, COMPANY_LIMITS.name) ?? '我的公司',
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: bool(env, 'TRUST_PROXY', false),
    gatewayPort: int(env, 'GATEWAY_PORT', 7611, 0, 65535),
    gatewayHost: env.GATEWAY_HOST || env.HOST || '127.0.0.1',
    gatewayIdleSeconds: int(env, 'GATEWAY_IDLE_SECONDS', 300, 1, 24 * 3600),
    autoRegister: optionalBool(env, 'GATEWAY_AUTO_REGISTER'),
    autoRegisterCompanyId: env.AUTO_REGISTER_COMPANY_ID ? int(env, 'AUTO_REGISTER_COMPANY_ID', 1, 1, Number.MAX_SAFE_INTEGER) : undefined,
    sqliteSynchronous: synchronousMode(env.SQLITE_SYNCHRONOUS),
    historyFlushMs: int(env, 'HISTORY_FLUSH_MS', 100, 1, 60_000),
    historyBatchRows: int(env, 'HISTORY_BATCH_ROWS', 5000, 1, 1_000_000),
    simVehicles: env.SIM_VEHICLES ? int(env, 'SIM_VEHICLES', 0, 0, 1_000_000) : undefined,
    mediaPort: int(env, 'MEDIA_PORT', 7612, 0, 65535),
    mediaPublicHost: env.MEDIA_PUBLIC_HOST || env.GATEWAY_HOST || env.HOST || '127.0.0.1',
    mediaPlaybackPort: int(env, 'MEDIA_PLAYBACK_PORT', 7613, 0, 65535),
    mediaAddressCheck: bool(env, 'MEDIA_ADDRESS_CHECK', true),
    mediaFirstPacketMs: int(env, 'MEDIA_FIRST_PACKET_MS', 5000, 100, 120_000),
    videoDailyLimit: int(env, 'VIDEO_DAILY_LIMIT', 200, 0, 1_000_000),
    mediaRetentionDays: int(env, 'MEDIA_RETENTION_DAYS', 180, 0, 36_500),
    positionRetentionDays: int(env, 'POSITION_RETENTION_DAYS', 180, 0, 36_500),
    alarmRetentionDays: int(env, 'ALARM_RETENTION_DAYS', 1095, 0, 36_500),
    logRetentionDays: int(env, 'LOG_RETENTION_DAYS', 180, 0, 36_500),
    reportRetentionDays: int(env, 'REPORT_RETENTION_DAYS', 1095, 0, 36_500),
    exportRetentionMinutes: int(env, 'EXPORT_RETENTION_MINUTES', 30, 1, 7 * 24 * 60),
    frameLogDays: int(env, 'FRAME_LOG_DAYS', 7, 0, 366),
    routeNightWindow: timeWindow(env, 'ROUTE_NIGHT_WINDOW', { startTime: '22:00', endTime: '06:00' }),
    ftpPort: int(env, 'FTP_PORT', 7621, 0, 65535),
    ftpPublicHost: env.FTP_PUBLIC_HOST || env.MEDIA_PUBLIC_HOST || env.GATEWAY_HOST || env.HOST || '127.0.0.1',
    ftpPassivePorts: portRange(env, 'FTP_PASV_PORTS', [7630, 7679]),
    ftpMaxFileBytes: int(env, 'FTP_MAX_FILE_MB', 1024, 1, 1_000_000) * 1024 * 1024,
    mapSourceOrigins: originList(env, 'MAP_SOURCE_ORIGINS'),
    tilesDir: env.TILES_DIR ? path.resolve(env.TILES_DIR) : undefined,
    weatherUrl: env.WEATHER_URL || undefined,
    ftpPassivePerLogin: int(env, 'FTP_PASV_PER_LOGIN', 2, 1, 1000),
    ftpPassivePerAddress: int(env, 'FTP_PASV_PER_ADDRESS', 10, 1, 1000),
    metricsToken: text(env, 'METRICS_TOKEN', 16, 256),
  };
  return { ...config, ...overrides };
}
