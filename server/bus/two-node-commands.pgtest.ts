/**
 * Issue 20 scale-out, commands from an API node to a terminal on a gateway node (server/bus/commands.ts):
 * `server/main.ts` processes on one PostgreSQL database and one NATS server (`nats-server -js`, started
 * here). Node A and node C run only the gateway (ROLES=gateway), node B only the API and push
 * (ROLES=api,push), so B holds no terminal connection. A console on B calls the real TTS call
 * (`/service-command/command/startTts`); the terminal on A receives the 0x8300 and its 0x0001 decides
 * B's answer and the command record, as on one node: success, a refusal, and offline (409, no record).
 * B's online flag follows the terminal; a terminal that authenticates again on C is released by A (last
 * authentication wins across nodes), so its commands reach C only. A terminal upgrade pushed from B: the package
 * uploaded to B (MEDIA_DIR/upgrade-packages: one shared directory, mounted at another path on B) reaches the
 * terminal on A as 0x8108 sub-packages with exactly its bytes, read from A's own mount, and the terminal's answers
 * settle the task on B.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../gateway/jt808/index.ts';
import { UPGRADE_MSG, type UpgradePackage } from '../gateway/jt808/upgrade.ts';
import { TestTerminal } from '../gateway/terminal-client.ts';
import { startCrashServer, stopClean, type CrashServer } from '../ops/crash-harness.ts';
import { PgSyncDb } from '../db/pg/sync-db.ts';
import { createTestDatabase, pgSkipReason, type TestDatabase } from '../db/pg/test-db.ts';
import { natsSkipReason, startNats, type TestNats } from './test-nats.ts';
import { adminToken, api, seeded, until } from './test-nodes.ts';

const skip = pgSkipReason() || natsSkipReason();
if (skip) console.warn(`two-node-commands.pgtest: skipped: ${skip}`);

interface RecordRow { state: string; result: number | null; content: string; msg_id: number; fun: string; user_name: string }

describe.skipIf(skip !== '')('commands from an API node to a terminal on a gateway node, over NATS', () => {
  let tdb: TestDatabase;
  let nats: TestNats;
  const dirs: string[] = [];
  const children = new Set<ChildProcess>();
  let nodeA: CrashServer;
  let nodeB: CrashServer;
  let nodeC: CrashServer;
  let vehicle: { id: number; deviceNo: string };
  let terminal: TestTerminal;
  let token: string;
  /** B's MEDIA_DIR: another path to the shared directory. */
  let bMedia: string;

  const records = (): RecordRow[] => {
    const db = new PgSyncDb(tdb.url);
    try {
      return db.prepare("SELECT state, result, content, msg_id, fun, user_name FROM command_record WHERE vehicle_id = ? AND fun = 'tts' ORDER BY id").all(vehicle.id) as RecordRow[];
    } finally {
      db.close();
    }
  };
  const tts = (text: string) => api<{ result: number; resultText: string }>(nodeB.apiUrl, 'POST', '/service-command/command/startTts', { vehicleId: vehicle.id, text, types: ['tts', 'display'] }, token);
  const online = async () => (await api<{ online: boolean }>(nodeB.apiUrl, 'GET', `/service-priv/vehicle/device?id=${vehicle.id}`, undefined, token)).data.online;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    nats = await startNats();
    dirs.push(...['gw-a', 'api-b', 'gw-c', 'media'].map((n) => mkdtempSync(path.join(tmpdir(), `fleet-${n}-`))));
    // The shared directory (MEDIA_DIR): the gateways mount it at its own path, B at another (a link to it).
    bMedia = path.join(dirs[1]!, 'mount');
    symlinkSync(dirs[3]!, bMedia);
    const env = { DATABASE_URL: tdb.url, SEED_VEHICLES: '5', NATS_URL: nats.url, MEDIA_DIR: dirs[3]! };
    // One after the other: the later nodes find the schema the first made.
    nodeA = await startCrashServer(dirs[0]!, children, { env: { ...env, ROLES: 'gateway' } });
    nodeB = await startCrashServer(dirs[1]!, children, { env: { ...env, ROLES: 'api,push', MEDIA_DIR: bMedia } });
    nodeC = await startCrashServer(dirs[2]!, children, { env: { ...env, ROLES: 'gateway' } });
    ({ vehicle } = seeded(tdb.url));
    token = await adminToken(nodeB.apiUrl);
    terminal = await TestTerminal.connect(nodeA.gatewayPort, vehicle.deviceNo);
    await terminal.login();
  }, 300_000);

  afterAll(async () => {
    await terminal?.close().catch(() => undefined);
    for (const n of [nodeA, nodeB, nodeC]) if (n) await stopClean(n).catch(() => undefined);
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await nats?.stop();
    await tdb?.drop();
  });

  it('B holds no terminal, yet shows the terminal on A online', { timeout: 30_000 }, async () => {
    expect(nodeB.gatewayPort).toBe(0);
    await until(online, 10_000, 'the vehicle online on B');
  });

  it('a TTS from a console on B reaches the terminal on A; its 0x0001 OK answers B and settles the record ok', { timeout: 30_000 }, async () => {
    terminal.commandResult = 0;
    const text = '前方路段施工，请减速慢行 (bus test)';
    const before = terminal.commands.length;
    const started = Date.now();
    const answer = await tts(text);
    const tookMs = Date.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.data.result).toBe(0);
    const got = terminal.commands.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.message).toMatchObject({ msgId: MSG.TEXT, text });
    const rows = records();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'ok', result: 0, msg_id: MSG.TEXT, fun: 'tts' });
    expect(JSON.parse(rows[0]!.content)).toMatchObject({ text });
    console.info(`two-node-commands: TTS B → A → terminal → B answered in ${tookMs} ms`);
  });

  it('a refusal (0x0001 result 2) answers B as on one node: 200 with the result, the record failed', { timeout: 30_000 }, async () => {
    terminal.commandResult = 2;
    try {
      const answer = await tts('refused text');
      expect(answer.status).toBe(200);
      expect(answer.data.result).toBe(2);
      expect(answer.data.resultText).not.toBe('');
    } finally {
      terminal.commandResult = 0;
    }
    expect(records().at(-1)).toMatchObject({ state: 'failed', result: 2 });
  });

  it('an upgrade pushed from B reaches the terminal on A with the uploaded bytes; its answers settle the task on B (success, a refusal)', { timeout: 60_000 }, async () => {
    // 5 sub-packages of ≤ 1023 bytes; the console's calls (services/terminal-upgrade/api.md).
    const bytes = randomBytes(4500);
    const form = new FormData();
    for (const [k, v] of Object.entries({ name: 'bus firmware', version: 'V9.9-bus', upgradeType: '0', makerId: 'SIM01' })) form.append(k, v);
    form.append('file', new Blob([bytes]), 'fw.bin');
    const uploaded = await fetch(new URL('/service-command/upgrade/package', nodeB.apiUrl), { method: 'POST', headers: { 'x-jwt': token, 'x-lang': 'en' }, body: form });
    const pkg = (await uploaded.json()) as { code: number; msg: string; data: { id: number } };
    expect(pkg.code, pkg.msg).toBe(200);
    // B's path to the package exists only on B's machine: the gateway must read it from its own mount.
    rmSync(bMedia);
    type Task = { id: number; vehicles: { state: string; result: number | null }[] };
    const push = async () => {
      const created = await api<Task>(nodeB.apiUrl, 'POST', '/service-command/upgrade/task', { packageId: pkg.data.id, vehicleIds: [vehicle.id] }, token);
      expect(created.code, created.msg).toBe(200);
      return created.data.id;
    };
    const settled = (id: number) => until(async () => {
      const v = (await api<Task>(nodeB.apiUrl, 'GET', `/service-command/upgrade/task?id=${id}`, undefined, token)).data.vehicles[0]!;
      return v.state !== 'queued' && v.state !== 'sent' && v;
    }, 20_000, 'the upgrade settled on B');
    const upgrades = () => terminal.commands.filter((c) => c.message.msgId === UPGRADE_MSG.ISSUE).map((c) => c.message as UpgradePackage);

    terminal.commandResult = 0;
    terminal.reassembles = true;
    const before = upgrades().length;
    const ok = await push();
    const got = await until(async () => upgrades()[before], 20_000, 'the 0x8108 on the terminal');
    expect(got).toMatchObject({ upgradeType: 0, makerId: 'SIM01', version: 'V9.9-bus' });
    expect(Buffer.from(got.data).equals(bytes)).toBe(true);
    // Installed: the terminal's 0x0108 (through A) settles the task B answers.
    terminal.send({ msgId: UPGRADE_MSG.RESULT, upgradeType: 0, result: 0 });
    expect(await settled(ok)).toMatchObject({ state: 'ok', result: 0 });

    terminal.commandResult = 2;
    try {
      const refused = await push();
      expect(await settled(refused)).toMatchObject({ state: 'failed', result: 2 });
    } finally {
      terminal.commandResult = 0;
    }
    expect(upgrades()).toHaveLength(before + 2);
  });

  it('a terminal that authenticates again on gateway C is released by A: its next TTS reaches C only', { timeout: 60_000 }, async () => {
    const moved = await TestTerminal.connect(nodeC.gatewayPort, vehicle.deviceNo);
    const old = terminal;
    terminal = moved; // what the next test disconnects
    try {
      await moved.login();
      // With its stored code: C re-read the code A's registration wrote (C cached the device before it).
      expect(moved.replies.filter((r) => r.msgId === MSG.REGISTER_RESPONSE)).toEqual([]);
      // The old connection on A stays open (a half-open link as A sees it) and would still answer.
      expect(old.socket.destroyed).toBe(false);
      await new Promise((r) => setTimeout(r, 500));
      const before = old.commands.length;
      const answer = await tts('via gateway C');
      expect(answer.status).toBe(200);
      expect(answer.data.result).toBe(0);
      // (C also asked it for its audio/video attributes, 0x9003, as any gateway does at authentication.)
      expect(moved.commands.map((c) => c.message).filter((m) => m.msgId === MSG.TEXT)).toEqual([expect.objectContaining({ msgId: MSG.TEXT, text: 'via gateway C' })]);
      expect(old.commands.slice(before).map((c) => c.message.msgId)).toEqual([]);
    } finally {
      await old.close();
    }
  });

  it('the terminal (now on C) disconnected: B answers the offline error (409, same message) and keeps no record of the refused TTS', { timeout: 30_000 }, async () => {
    const kept = records().length;
    await terminal.close();
    await until(async () => !(await online()), 10_000, 'the vehicle offline on B');
    const answer = await tts('nobody listens');
    expect(answer.status).toBe(409);
    expect(answer.msg).toBe('The device is offline');
    expect(records()).toHaveLength(kept);
  });
});
