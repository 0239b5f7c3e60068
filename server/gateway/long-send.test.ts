/**
 * A platform message over one body (0x8108) sent to a scripted terminal over real TCP: its sub-packages
 * are built from the package file by offset; the terminal's 0x0005 (终端补传分包请求) gets exactly the
 * listed sub-packages again with their original serials and bytes; a request for a message it was not
 * sent (unknown serial, an id out of range, another terminal's connection) is result 1 and sends nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveServer, type LiveTestServer } from '../live/test-harness.ts';
import { decodeFrame, FrameSplitter, MSG, RESULT } from './jt808/index.ts';
import { UPGRADE_MSG } from './jt808/upgrade.ts';
import { TestTerminal } from './terminal-client.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: LiveTestServer;
let vehicles: { vehicleId: number; deviceNo: string }[];
const opened: TestTerminal[] = [];

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 4 });
  vehicles = (await server.app.storage.terminals.allVehicles()).map((v) => ({ vehicleId: v.vehicleId, deviceNo: v.deviceNo }));
});
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
  await server.close();
});

interface Part { serial: number; index: number; total: number; body: string }

/** A logged-in terminal that also records every sub-package frame it receives. */
async function terminal(deviceNo: string): Promise<{ t: TestTerminal; parts: Part[] }> {
  const t = await TestTerminal.connect(server.gatewayPort, deviceNo);
  opened.push(t);
  await t.login();
  const parts: Part[] = [];
  const splitter = new FrameSplitter();
  t.socket.on('data', (chunk: Buffer) => splitter.push(chunk, (frame) => {
    const r = decodeFrame(frame);
    if (r.kind === 'fragment') parts.push({ serial: r.header.serial, index: r.header.packageIndex, total: r.header.packageTotal, body: Buffer.from(r.body).toString('hex') });
  }));
  return { t, parts };
}

describe('long platform messages and 0x0005', () => {
  it('sends the package from its file in sub-packages and resends exactly the ones asked for, with their serials', async () => {
    const v = vehicles[0]!;
    const { t, parts } = await terminal(v.deviceNo);
    const data = new Uint8Array(3000).map((_, i) => (i * 7 + 1) & 0xff);
    const file = path.join(server.config.dataDir, 'long-send-test.bin');
    fs.writeFileSync(file, data);
    // The terminal never answers sub-packages (the test client ignores them): the command times out, which is fine here.
    void server.app.live.gateway.sendCommand(v.vehicleId, { msgId: UPGRADE_MSG.ISSUE, upgradeType: 0, makerId: 'SIM01', version: 'V9', data: new Uint8Array(0), file: { path: file, size: data.length } }, 500);
    const deadline = Date.now() + 5000;
    while (parts.length < 3 && Date.now() < deadline) await sleep(10);
    // 13 bytes of fields + 3000 package bytes = 3013: packages of 1023, 1023 and 967 bytes.
    expect(parts.map((p) => [p.index, p.total, p.body.length / 2])).toEqual([[1, 3, 1023], [2, 3, 1023], [3, 3, 967]]);
    expect(parts[1]!.serial).toBe((parts[0]!.serial + 1) & 0xffff);
    const sent = Buffer.concat(parts.map((p) => Buffer.from(p.body, 'hex')));
    expect(sent.subarray(13).equals(Buffer.from(data))).toBe(true);

    const before = server.app.live.gateway.stats.subpackagesResent;
    const ok = await t.request({ msgId: MSG.TERMINAL_RESEND_REQUEST, firstSerial: parts[0]!.serial, packageIds: [2] });
    expect(ok).toMatchObject({ replyId: MSG.TERMINAL_RESEND_REQUEST, result: RESULT.OK });
    await sleep(200);
    expect(parts.slice(3)).toEqual([parts[1]]);
    expect(server.app.live.gateway.stats.subpackagesResent - before).toBe(1);

    // Not a message sent to this terminal, or a package it does not have: result 1, nothing sent.
    expect((await t.request({ msgId: MSG.TERMINAL_RESEND_REQUEST, firstSerial: (parts[0]!.serial + 100) & 0xffff, packageIds: [1] })).result).toBe(RESULT.FAIL);
    expect((await t.request({ msgId: MSG.TERMINAL_RESEND_REQUEST, firstSerial: parts[0]!.serial, packageIds: [4] })).result).toBe(RESULT.FAIL);
    const other = await terminal(vehicles[1]!.deviceNo);
    expect((await other.t.request({ msgId: MSG.TERMINAL_RESEND_REQUEST, firstSerial: parts[0]!.serial, packageIds: [1] })).result).toBe(RESULT.FAIL);
    await sleep(200);
    expect(parts).toHaveLength(4);
    expect(other.parts).toHaveLength(0);
    fs.rmSync(file);
  });
});
