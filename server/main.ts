/**
 * Entry point: `node --import tsx server/main.ts`. Opens (and on first start creates and seeds) the
 * database in DATA_DIR, serves the API and the console, and shuts down cleanly on SIGINT/SIGTERM.
 */
import { buildApp } from './app.ts';
import { warmGeocoder } from './services/track/geocoder.ts';
import { loadConfig, ROLES } from './config.ts';
import { PUSH_PATH } from './push/index.ts';
import { openStorage } from './db/open.ts';
import { backfillHistory, DEFAULT_HISTORY_TIERS, type BackfillResult } from './seed/history.ts';
import { DEMO_ACCOUNTS } from './seed/seed.ts';
import { parseTiers } from './sim/history.ts';
import { readProvisionedTerminals, startSimulator, type RunningSimulator, type TerminalSpec } from './sim/index.ts';
import { startAppUsers, type RunningAppUsers } from './sim/app-users.ts';
import { DEMO_APP_PASSWORD } from './seed/app-users.ts';
import { startAccidentOfficer, type RunningOfficer } from './sim/accident-officer.ts';
import { startDutyOperator, type RunningDutyOperator } from './sim/duty-operator.ts';
import type { SqliteStorage } from './db/sqlite/storage.ts';

async function main(): Promise<void> {
  const loaded = loadConfig();
  const { storage, created, demo, file, firstAdmin } = await openStorage(loaded);
  // Only a demo database lets unknown terminals provision themselves by default (any TCP client could
  // create vehicles); a production database needs GATEWAY_AUTO_REGISTER=1. The gateway warns while it is on.
  const config = { ...loaded, autoRegister: loaded.autoRegister ?? demo };
  const simVehicles = config.simVehicles ?? (config.seedEnabled ? 2000 : 0);
  // The first N vehicles of the database, so the gateway knows every terminal without autoRegister.
  let terminals: TerminalSpec[] = simVehicles > 0 ? readProvisionedTerminals(config.dataDir, simVehicles) : [];
  // Demo history: a fresh seeded database gets the simulated vehicles' last days before the store loads.
  let backfill: BackfillResult | undefined;
  const tiers = parseTiers(process.env.SEED_HISTORY_VEHICLES, process.env.SEED_HISTORY_DAYS, DEFAULT_HISTORY_TIERS);
  if (created && config.seedEnabled && terminals.length > 0 && tiers.length > 0) {
    backfill = await backfillHistory(storage, terminals, tiers, Date.now());
    const programs = backfill.programs;
    terminals = terminals.map((t) => ({ ...t, program: programs.get(t.deviceNo.padStart(12, '0')) }));
  }
  const app = await buildApp(config, { storage });

  let closing = false;
  let simulator: RunningSimulator | undefined;
  let appUsers: RunningAppUsers | undefined;
  let dutyOperator: RunningDutyOperator | undefined;
  let accidentOfficer: RunningOfficer | undefined;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      dutyOperator?.stop();
      accidentOfficer?.stop();
      appUsers?.stop();
      await simulator?.stop();
      await app.close();
    } finally {
      storage.close();
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // The first stop/trip report or alarm sheet after a restart would otherwise load the offline geocoder (~300 ms).
  if (config.roles.has('api')) setImmediate(warmGeocoder);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Issue 20: a node opens only its roles' ports (ROLES; all by default). The simulated fleet needs a gateway here.
  const roles = config.roles;
  const gatewayPort = roles.has('gateway') ? await app.live.gateway.listen(config.gatewayPort, config.gatewayHost) : undefined;
  const mediaPort = roles.has('media') ? await app.media.listen(config.mediaPort, config.gatewayHost) : undefined;
  if (gatewayPort === undefined) terminals = [];
  let simulated = 0;
  if (terminals.length > 0 && gatewayPort !== undefined) {
    simulated = terminals.length;
    simulator = startSimulator({ host: config.gatewayHost, port: gatewayPort, terminals });
    // Issue 19: the seeded drivers'-app accounts act through the app API (feedback, push delivery and read).
    // Demo databases only (their seeded app accounts share DEMO_APP_PASSWORD); SIM_APP_USERS=0 turns them off.
    if (config.seedEnabled && demo && process.env.SIM_APP_USERS !== '0') {
      const accounts = ((storage as SqliteStorage).db.prepare('SELECT username FROM app_user WHERE status = 1 ORDER BY id LIMIT 20').all() as { username: string }[])
        .map((a) => ({ username: a.username, password: DEMO_APP_PASSWORD }));
      // SIM_APP_POLL_MS / SIM_APP_FEEDBACK_CHANCE / SIM_APP_READ_DELAY_MS: faster app users for the e2e.
      const env = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
      if (accounts.length > 0) {
        appUsers = startAppUsers({
          baseUrl: `http://127.0.0.1:${port}`, accounts,
          pollMs: env('SIM_APP_POLL_MS'), feedbackChance: env('SIM_APP_FEEDBACK_CHANCE'), readDelayMs: env('SIM_APP_READ_DELAY_MS'),
        });
      }
    }
    // The demo's safety officer files a collision alarm of the simulated fleet as an accident through the API.
    if (config.seedEnabled && demo && process.env.SIM_ACCIDENT_OFFICER !== '0') {
      const apiHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      accidentOfficer = startAccidentOfficer({ apiUrl: `http://${apiHost.includes(':') ? `[${apiHost}]` : apiHost}:${port}`, username: 'safety', password: 'safety123', log: (line) => app.log.info(line) });
    }
  }
  // Issue 19 (ops check): on a demo database the safety officer handles 华东分公司's alarms, and nobody
  // handles the other branches', so the ops check report shows one company meeting its targets and others missing them.
  // Only beside the simulated fleet, and SIM_DUTY_OPERATOR=0 turns it off (the e2e harness does: a test that
  // raises an alarm and handles it itself must not find it handled by the duty operator first).
  const dutyOn = terminals.length > 0 && process.env.SIM_DUTY_OPERATOR !== '0';
  const east = config.seedEnabled && demo && dutyOn
    ? ((storage as SqliteStorage).db.prepare("SELECT id FROM company WHERE name = '华东分公司'").get() as { id: number } | undefined)
    : undefined;
  if (east) {
    dutyOperator = startDutyOperator({
      baseUrl: `http://127.0.0.1:${port}`, username: 'safety', password: 'safety123', companyId: east.id, log: (m) => app.log.warn(m),
    });
  }
  const lines = [''];
  if (roles.size < ROLES.length) lines.push(`Roles: ${[...roles].join(', ')} (ROLES; /health and /metrics on every node)`);
  lines.push(roles.has('api') ? `Fleet console: http://${config.host}:${port}/bcmp-web/` : `HTTP (health and metrics only): http://${config.host}:${port}/`);
  if (roles.has('push')) lines.push(`Console push websocket: ws://${config.host}:${port}${PUSH_PATH}`);
  if (gatewayPort !== undefined) lines.push(`JT/T 808 gateway: tcp://${config.gatewayHost}:${gatewayPort}${config.autoRegister ? ' (unknown terminals are registered automatically)' : ''}`);
  if (mediaPort !== undefined) {
    lines.push(
      `JT/T 1078 media port: tcp://${config.gatewayHost}:${mediaPort} (terminals are told to stream to ${config.mediaPublicHost})`,
      `JT/T 1078 playback port: tcp://${config.gatewayHost}:${app.media.playback.boundPort()} (recordings played back after 0x9201)`,
    );
  }
  if (config.natsUrl) lines.push(`Bus: NATS JetStream at ${config.natsUrl.replace(/\/\/[^@/]*@/g, '//…@')}${roles.has('gateway') ? ' (publishing positions)' : ''}${roles.has('push') ? ' (following positions)' : ''}`);
  lines.push(
    `Simulated fleet: ${simulator ? `${simulated} terminals (SIM_VEHICLES=0 turns it off)` : 'off'}`,
    `Database: ${file}${created ? (config.seedEnabled ? ' (new, seeded with demo data)' : ' (new, empty)') : ''}`,
  );
  if (backfill) lines.push(`Track history backfilled: ${backfill.summary} (SEED_HISTORY_VEHICLES / SEED_HISTORY_DAYS, 0 = off)`);
  if (firstAdmin) {
    // Printed at this start only: the next start finds a user and creates (and prints) nothing.
    lines.push(
      firstAdmin.generatedPassword === undefined
        ? `first administrator: ${firstAdmin.username} / (the password in ADMIN_PASSWORD) — change it`
        : `first administrator: ${firstAdmin.username} / ${firstAdmin.generatedPassword} — change it`,
      `  created in company "${firstAdmin.companyName}"${firstAdmin.companyCreated ? ' (new root company, ROOT_COMPANY_NAME)' : ''}; ` +
        'this password is not shown again: change it under 系统管理 › 用户 (/system/user)',
    );
  }
  if (config.seedEnabled && demo) {
    lines.push('Demo accounts (user name / password):');
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.username.padEnd(9)} / ${a.password.padEnd(12)} ${a.description}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`Server failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
