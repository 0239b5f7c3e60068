/**
 * Entry point: `node --import tsx server/main.ts`. Opens (and on first start creates and seeds) the
 * database in DATA_DIR, serves the API and the console, and shuts down cleanly on SIGINT/SIGTERM.
 */
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openStorage } from './db/open.ts';
import { DEMO_ACCOUNTS } from './seed/seed.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const { storage, created, file } = await openStorage(config);
  const app = await buildApp(config, { storage });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
    } finally {
      storage.close();
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const lines = [
    '',
    `Fleet console: http://${config.host}:${port}/bcmp-web/`,
    `Database: ${file}${created ? (config.seedEnabled ? ' (new, seeded with demo data)' : ' (new, empty)') : ''}`,
  ];
  if (config.seedEnabled) {
    lines.push('Demo accounts (user name / password):');
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.username.padEnd(9)} / ${a.password.padEnd(12)} ${a.description}`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`Server failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
