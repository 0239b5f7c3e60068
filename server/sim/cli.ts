/**
 * `npm run sim -- --vehicles N --rate HZ --host H --port P --seed S [--data-dir DIR]`
 * `npm run sim -- --device-no 013800000001[,013800000002] [--plate 粤B12345[,…]] --host H --port P`
 *
 * Runs a simulated fleet against a JT/T 808 gateway and prints a stats line every 10 s. With
 * --data-dir the terminals are the provisioned vehicles of DIR/fleet.sqlite (read-only); without it,
 * device numbers are generated and the gateway must have autoRegister on. With --device-no the
 * terminals are exactly those numbers (the devices an operator entered): each one's handshake is
 * logged by number — registered, refused (with the 0x8100 result and what it means) and when it
 * tries again, authenticated — and they stay online (no never-online share, offline or blind periods).
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEVICE_NO_PATTERN } from '../../domain/fleet/limits.ts';
import { generatedTerminals, readChosenTerminals, readProvisionedTerminals, type StoredTerminal } from './fleet-source.ts';
import { startSimulator, type TerminalSpec } from './simulator.ts';
import { errorCount, type SimStats, type SimTerminalEvent } from './terminal.ts';

const USAGE = `Usage: npm run sim -- [--vehicles N] [--rate HZ] [--host H] [--port P] [--seed S] [--data-dir DIR]
       npm run sim -- --device-no 013800000001[,013800000002] [--plate …] [--host H] [--port P] [--data-dir DIR]
  --vehicles N     terminals to simulate (default 2000; with --data-dir, at most the vehicles in the database)
  --rate HZ        reports per second per vehicle with ACC on, at most 1 (default 0.1 = every 10 s)
  --parked S       report interval with ACC off, seconds (default 60)
  --host H         gateway host (default 127.0.0.1)
  --port P         gateway port (default $GATEWAY_PORT or 7611)
  --seed S         integer seed: the same seed gives the same traffic (default 1)
  --data-dir DIR   use the device numbers of the vehicles in DIR/fleet.sqlite
  --offset K       skip the first K vehicles / generated numbers (several processes sharing a fleet)
  --stats S        seconds between stats lines (default 10)

Chosen terminals (the devices entered on /information/device):
  --device-no LIST    comma list of 12-digit terminal numbers to run, e.g. 013800000001,013800000002
  --plate LIST        plates their 0x0100 carries, in the same order (default: the bound vehicle's plate
                      with --data-dir, else one made up from a city)
  --plate-color C     JT/T 415 plate colour code (default 2 yellow; the vehicle's with --data-dir)
  --maker ID          maker id (default SIMFL)      --model M   model (default FLEETSIM-808)
  --terminal-id ID    terminal id (default the number's last 7 digits; the device's with --data-dir)
  --edition E         JT/T 808 edition 2013 or 2019 (default 2013; the device's with --data-dir)
  --retry S           least seconds before a refused terminal registers again, growing with back-off
                      (default 15 with --device-no, 300 otherwise)
  With --data-dir, terminals that registered before authenticate with their stored codes. Without it they
  unregister (0x0003) when stopped, so the next run may register them again.`;

export interface CliOptions {
  vehicles: number | undefined;
  rateHz: number;
  parkedIntervalS: number;
  host: string;
  port: number;
  seed: number;
  dataDir: string | undefined;
  offset: number;
  statsS: number;
  ipc: boolean;
  /** --device-no: exactly these terminals (undefined: a fleet by --vehicles). */
  deviceNos: string[] | undefined;
  plates: string[] | undefined;
  plateColor: number | undefined;
  maker: string | undefined;
  model: string | undefined;
  terminalId: string | undefined;
  edition: 2013 | 2019 | undefined;
  retryS: number | undefined;
}

/** The 0x8100 results (JT/T 808 table 3-11) and what an operator does about each. */
export const REGISTER_REFUSALS: Readonly<Record<number, string>> = {
  1: 'the vehicle is already registered by another terminal',
  2: 'no such vehicle: the device is entered but bound to no vehicle (bind it on /information/vehicle)',
  3: 'the terminal is already registered (it must unregister with 0x0003, or an operator resets it: 重置注册 on /information/device)',
  4: 'no such terminal: enter the device on /information/device (or turn GATEWAY_AUTO_REGISTER on)',
};

const SIM_2013 = { maker: 5, model: 20, terminal: 7 } as const;
const SIM_2019 = { maker: 11, model: 30, terminal: 30 } as const;

function list(name: string, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new Error(`--${name} must be a comma list without empty items, got "${raw}"`);
  return items;
}

function ascii(name: string, raw: string | undefined, max: number): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^[\x20-\x7e]+$/.test(raw) || raw.length > max) throw new Error(`--${name} must be 1 to ${max} ASCII characters, got "${raw}"`);
  return raw;
}

function num(name: string, raw: string | undefined, fallback: number, check: (n: number) => boolean, what: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new Error(`--${name} must be ${what}, got "${raw}"`);
  return n;
}

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      vehicles: { type: 'string' },
      rate: { type: 'string' },
      parked: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      seed: { type: 'string' },
      'data-dir': { type: 'string' },
      offset: { type: 'string' },
      stats: { type: 'string' },
      ipc: { type: 'boolean' },
      'device-no': { type: 'string' },
      plate: { type: 'string' },
      'plate-color': { type: 'string' },
      maker: { type: 'string' },
      model: { type: 'string' },
      'terminal-id': { type: 'string' },
      edition: { type: 'string' },
      retry: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) throw new HelpRequested();
  const int = (n: number) => Number.isInteger(n);
  const deviceNos = list('device-no', values['device-no']);
  const bad = deviceNos?.find((d) => !new RegExp(DEVICE_NO_PATTERN).test(d));
  if (bad !== undefined) throw new Error(`--device-no takes 12-digit terminal numbers (leading zeros kept), got "${bad}"`);
  if (deviceNos && new Set(deviceNos).size !== deviceNos.length) throw new Error('--device-no names a number twice');
  if (deviceNos && deviceNos.length > 1000) throw new Error('--device-no takes at most 1000 numbers (use --vehicles for a fleet)');
  if (deviceNos && values.vehicles !== undefined) throw new Error('--device-no and --vehicles exclude each other');
  const plates = list('plate', values.plate);
  if (plates && (!deviceNos || plates.length !== deviceNos.length)) throw new Error('--plate needs --device-no and one plate per number, in the same order');
  const chosenOnly = ['plate-color', 'maker', 'model', 'terminal-id', 'edition'] as const;
  const stray = chosenOnly.find((k) => values[k] !== undefined && !deviceNos);
  if (stray) throw new Error(`--${stray} applies to --device-no terminals only`);
  const edition = values.edition === undefined ? undefined : num('edition', values.edition, 2013, (n) => n === 2013 || n === 2019, '2013 or 2019') as 2013 | 2019;
  const widths = edition === 2019 ? SIM_2019 : SIM_2013;
  return {
    vehicles: values.vehicles === undefined ? undefined : num('vehicles', values.vehicles, 0, (n) => int(n) && n >= 1 && n <= 200_000, 'an integer from 1 to 200000'),
    rateHz: num('rate', values.rate, 0.1, (n) => n > 0 && n <= 1, 'a number of reports per second above 0 and at most 1'),
    parkedIntervalS: num('parked', values.parked, 60, (n) => int(n) && n >= 1 && n <= 300, 'an integer from 1 to 300 seconds'),
    host: values.host ?? '127.0.0.1',
    port: num('port', values.port ?? env.GATEWAY_PORT, 7611, (n) => int(n) && n >= 1 && n <= 65535, 'an integer from 1 to 65535'),
    seed: num('seed', values.seed, 1, (n) => int(n) && n >= 0 && n <= 0xffffffff, 'a non-negative 32-bit integer'),
    dataDir: values['data-dir'],
    offset: num('offset', values.offset, 0, (n) => int(n) && n >= 0 && n <= 10_000_000, 'a non-negative integer'),
    statsS: num('stats', values.stats, 10, (n) => n > 0 && n <= 3600, 'a number of seconds from 1 to 3600'),
    ipc: values.ipc ?? false,
    deviceNos,
    plates,
    plateColor: values['plate-color'] === undefined ? undefined : num('plate-color', values['plate-color'], 2, (n) => int(n) && n >= 0 && n <= 255, 'a JT/T 415 colour code from 0 to 255'),
    maker: ascii('maker', values.maker, widths.maker),
    model: ascii('model', values.model, widths.model),
    terminalId: ascii('terminal-id', values['terminal-id'], widths.terminal),
    edition,
    retryS: values.retry === undefined ? undefined : num('retry', values.retry, 15, (n) => int(n) && n >= 1 && n <= 3600, 'an integer from 1 to 3600 seconds'),
  };
}

/**
 * The --device-no terminals: numbers and registration fields from the options, filled in from the data dir
 * when given (the bound vehicle's plate and colour, the device's terminal id and edition, the stored auth
 * code). One edition for all: --edition, else 2019 when every device found says 2019, else 2013.
 */
export function chosenTerminals(opts: CliOptions): { terminals: TerminalSpec[]; edition: 2013 | 2019 } {
  const numbers = opts.deviceNos ?? [];
  const known = opts.dataDir ? readChosenTerminals(opts.dataDir, numbers) : new Map<string, StoredTerminal>();
  const protocols = [...known.values()].map((t) => t.protocol);
  const edition = opts.edition ?? (protocols.length > 0 && protocols.every((p) => p === 2019) ? 2019 : 2013);
  const terminals = numbers.map((deviceNo, i): TerminalSpec => {
    const stored = known.get(deviceNo);
    return {
      deviceNo,
      plate: opts.plates?.[i] ?? stored?.plate ?? undefined,
      authCode: stored?.authCode ?? null,
      registration: {
        makerId: opts.maker,
        model: opts.model,
        terminalId: opts.terminalId ?? (stored?.terminalId || undefined),
        plateColor: opts.plateColor ?? (stored?.plateColor || undefined),
      },
    };
  });
  return { terminals, edition };
}

/** One line per handshake step of a chosen terminal. */
export function formatEvent(deviceNo: string, e: SimTerminalEvent, time = new Date()): string {
  const at = `[sim ${time.toISOString().slice(11, 19)}] ${deviceNo}`;
  switch (e.kind) {
    case 'registered':
      return `${at} registered (0x8100 result 0): authenticating`;
    case 'authenticated':
      return `${at} authenticated: online, reporting positions`;
    case 'registerRefused':
      return `${at} REFUSED at register: 0x8100 result ${e.result} — ${REGISTER_REFUSALS[e.result] ?? 'refused by the platform'}; registering again in ${Math.round(e.retryInMs / 1000)} s`;
    case 'authRefused':
      return `${at} authentication refused (0x8001 result ${e.result}): the stored code is void; registering afresh`;
    case 'dropped':
      return `${at} connection closed by the platform or the network; reconnecting with back-off`;
  }
}

class HelpRequested extends Error {}

export function formatStats(s: SimStats, previous: SimStats | null, seconds: number): string {
  const rate = previous ? ((s.reportsSent - previous.reportsSent) / seconds).toFixed(1) : '-';
  const time = new Date().toISOString().slice(11, 19);
  return (
    `[sim ${time}] terminals ${s.terminals} (never online ${s.neverOnline}) connected ${s.connected} authenticated ${s.authenticated} ` +
    `reports ${s.reportsSent} (${rate}/s) re-uploaded ${s.batchItemsSent} in ${s.batchesSent} heartbeats ${s.heartbeatsSent} ` +
    `acks ${s.acks} errors ${errorCount(s)} (nacks ${s.nacks}, refused ${s.registerFailures + s.authFailures}, connect ${s.connectErrors}, drops ${s.drops})`
  );
}

async function main(): Promise<void> {
  let opts: CliOptions;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    process.exit(2);
  }
  const chosen = opts.deviceNos !== undefined;
  const wanted = opts.vehicles ?? 2000;
  const picked = chosen ? chosenTerminals(opts) : undefined;
  const terminals = picked
    ? picked.terminals
    : opts.dataDir ? readProvisionedTerminals(opts.dataDir, wanted, opts.offset) : generatedTerminals(wanted, opts.offset);
  if (terminals.length === 0) throw new Error(`the database in ${opts.dataDir} has no vehicles`);
  if (!chosen && opts.dataDir && terminals.length < wanted && opts.vehicles !== undefined) {
    process.stderr.write(`[sim] ${opts.dataDir} has ${terminals.length} vehicles; simulating those\n`);
  }
  const sim = startSimulator({
    host: opts.host, port: opts.port, terminals, rateHz: opts.rateHz, parkedIntervalS: opts.parkedIntervalS, seed: opts.seed,
    // Generated numbers keep no codes between runs: they unregister (0x0003) when stopped, so the next
    // run may register them again (the gateway refuses a registered terminal's 0x0100 with result 3).
    unregisterOnStop: !opts.dataDir,
    // Chosen terminals are the ones someone watches: every one connects and stays up.
    ...(chosen ? {
      rates: { neverOnlineShare: 0, offlinePerDay: 0, blindPerDrivingDay: 0 },
      edition2019Share: picked?.edition === 2019 ? 1 : 0,
      onEvent: (deviceNo: string, e: SimTerminalEvent) => process.stdout.write(`${formatEvent(deviceNo, e)}\n`),
    } : {}),
    refusedRetryS: opts.retryS ?? (chosen ? 15 : undefined),
  });
  process.stdout.write(
    `[sim] ${terminals.length} terminals → ${opts.host}:${opts.port}, ${opts.rateHz} Hz with ACC on, seed ${opts.seed}` +
      `${chosen ? `: ${sim.terminals.map((t) => `${t.program.deviceNo} (${t.program.plate}, ${t.program.edition})`).join(', ')}` : opts.dataDir ? `, vehicles of ${opts.dataDir}` : ', generated device numbers (gateway needs autoRegister)'}\n`,
  );
  let previous: SimStats | null = null;
  const statsTimer = setInterval(() => {
    process.stdout.write(`${formatStats(sim.stats, previous, opts.statsS)}\n`);
    previous = { ...sim.stats };
  }, opts.statsS * 1000);
  // Under spawnSimulatorProcess: the parent reads counters over IPC.
  const ipcTimer = opts.ipc && process.send ? setInterval(() => process.send?.({ type: 'stats', stats: sim.stats }), 500) : undefined;
  if (opts.ipc) process.send?.({ type: 'ready', stats: sim.stats });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(statsTimer);
    if (ipcTimer) clearInterval(ipcTimer);
    await sim.stop();
    process.stdout.write(`${formatStats(sim.stats, null, opts.statsS)}\n[sim] stopped\n`);
    if (opts.ipc) process.send?.({ type: 'stats', stats: sim.stats });
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
}

// Run only as the entry point (tests import parseCli).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`[sim] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
