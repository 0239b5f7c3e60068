/**
 * The large import (issue 15): the multipart job (start → taskId at once, status with the phase and
 * rows done), every bad row and cell named (≤ 200, column in the caller's language), nothing written
 * unless every row passes (rows of one file that clash included), its bits, its 400s with nothing
 * written, someone else's task 404, and the JSON import's full problem list. Driven on a declaration
 * over device types (a committed resource with a rule inside the transaction: a name unique per company).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_JOB_LIMITS, type ImportJobState } from '../../domain/fleet/import-job.ts';
import type { DeviceType } from '../db/device-type-types.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { changedTables, fingerprint } from '../test/db-fingerprint.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { createUserWithRole } from '../test/users.ts';
import type { App } from '../http/route.ts';
import { ImportJobs } from './import-jobs.ts';
import { BASE, bits, jobDeclaration, uploadForm, xlsx, type Sent, type UploadParts } from './import-jobs-test-kit.ts';
import { registerResource } from './resource.ts';

let server: TestServer;
let admin: string;

/** A multipart upload to this file's server. */
const upload = (path: string, token: string, parts: UploadParts, lang = 'en') => uploadForm(server.url, path, token, parts, lang);

async function status(suffix: string, token: string, taskId: string, lang: 'zh' | 'en' = 'en') {
  return server.call<ImportJobState>('GET', `${BASE}/${suffix}/batch/status?taskId=${encodeURIComponent(taskId)}`, { token, lang });
}

/** Polls until the task ends; answers every state seen. */
async function follow(suffix: string, token: string, taskId: string, lang: 'zh' | 'en' = 'en'): Promise<ImportJobState[]> {
  const seen: ImportJobState[] = [];
  for (let i = 0; i < 2000; i++) {
    const s = await status(suffix, token, taskId, lang);
    expect(s.status).toBe(200);
    seen.push(s.data);
    if (['done', 'refused', 'failed'].includes(s.data.phase)) return seen;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the import did not end');
}

const count = () => server.count('device_type');
const totalChanges = () => ((server.app.storage as SqliteStorage).db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
const header = ['Type name', 'Protocol', 'Maker ID', 'Model', 'Remark'];

beforeAll(async () => {
  server = await startServer({ seedVehicles: 2, seedFleetsPerBranch: 1 }, (app) => {
    registerResource(app as unknown as App, app.storage, jobDeclaration('deviceTypeJobA', 'a'));
    registerResource(app as unknown as App, app.storage, jobDeclaration('deviceTypeJobB', 'b'));
  });
  admin = await server.login('admin', 'admin123');
});
afterAll(() => server.close());

describe('the import job', () => {
  it('answers a task id at once, reports progress while the event loop keeps serving, and writes every row in one go', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`Job row ${i}`, i % 2 ? 2013 : '2019', 'JOB', `M-${i}`, '']);
    const before = count();
    const started = await upload(`${BASE}/a/batchimp`, admin, { file: await xlsx([header, ...rows]) });
    expect(started.status).toBe(200);
    const { taskId } = started.data as { taskId: string };
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    const seen = await follow('a', admin, taskId);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ phase: 'done', imported: 5000, done: 5000, total: 5000 });
    expect(count()).toBe(before + 5000);
    // Status calls were answered while the file was read and checked: the job yields between slices.
    expect(seen.some((s) => (s.phase === 'reading' || s.phase === 'checking') && s.done < 5000)).toBe(true);
    const found = await server.call<{ records: DeviceType[]; total: number }>('GET', '/service-priv/devtype/search?keyword=Job%20row%204999', { token: admin });
    expect(found.data.records.map((d) => [d.devTypeName, d.protocol, d.model])).toEqual([['Job row 4999', 2013, 'M-4999']]);
  });

  it('refuses a file with bad rows: every bad cell and broken rule named by row and column, in the caller language, nothing written', async () => {
    const file = await xlsx([
      header,
      ['Fine 1', 2019, 'OK', 'A', ''],
      ['Bad protocol', 2015, 'OK', 'A', ''],
      ['Fine 2', 2013, 'OK', 'A', ''],
      ['x'.repeat(40), 'abc', 'OK', 'A', ''],
      ['FLEETSIM-808 (2019)', 2019, 'OK', 'A', ''], // taken: the rule inside the transaction, found by the dry run
      ['Wide maker', 2013, 'MAKERIDTOOLONG', 'A', ''], // longer than the column allows
    ]);
    const before = fingerprint(server.app);
    const started = await upload(`${BASE}/a/batchimp`, admin, { file });
    const { taskId } = started.data as { taskId: string };
    const last = (await follow('a', admin, taskId)).at(-1)!;
    expect(last.phase).toBe('refused');
    expect(last.problemCount).toBe(5);
    expect(last.msg).toBe('5 problems found; nothing was imported');
    expect(last.problems!.map((p) => [p.row, p.column])).toEqual([[3, 'Protocol'], [5, 'Type name'], [5, 'Protocol'], [6, 'Type name'], [7, 'Maker ID']]);
    expect(last.problems![1]!.msg).toBe('must have at most 32 characters');
    expect(last.problems![3]!.msg).toBe('The device type "FLEETSIM-808 (2019)" already exists');
    expect(last.problems![4]!.msg).toMatch(/^must have at most \d+ characters$/);
    // Nothing but the task's own status row (any API node answers the status from it: issue 20).
    expect(changedTables(before, fingerprint(server.app))).toEqual(['import_job']);
    // The same task read in Chinese: the column headers and messages in the caller's language.
    const zh = await status('a', admin, taskId, 'zh');
    expect(zh.data.problems!.map((p) => p.column)).toEqual(['协议版本', '设备类型名称', '协议版本', '设备类型名称', '制造商ID']);
    expect(zh.data.problems![1]!.msg).toBe('长度不能超过 32');
    expect(zh.data.msg).toBe('共 5 处错误，未导入任何数据');
  });

  it('finds rows of the same file that clash only when written, and still writes nothing', async () => {
    const before = fingerprint(server.app);
    const file = await xlsx([header, ['Twin', 2019, '', '', ''], ['Single', 2019, '', '', ''], ['Twin', 2013, '', '', '']]);
    const { taskId } = (await upload(`${BASE}/a/batchimp`, admin, { file })).data as { taskId: string };
    const last = (await follow('a', admin, taskId)).at(-1)!;
    expect(last).toMatchObject({ phase: 'refused', problemCount: 1 });
    expect(last.problems).toEqual([{ row: 4, column: 'Type name', msg: 'The device type "Twin" already exists' }]);
    expect(changedTables(before, fingerprint(server.app))).toEqual(['import_job']);
  });

  it('lists 200 problems at most and counts them all', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => [`Over ${i}`, 1999, '', '', '']);
    const { taskId } = (await upload(`${BASE}/a/batchimp`, admin, { file: await xlsx([header, ...rows]) })).data as { taskId: string };
    const last = (await follow('a', admin, taskId)).at(-1)!;
    expect(last.phase).toBe('refused');
    expect(last.problemCount).toBe(250);
    expect(last.problems).toHaveLength(IMPORT_JOB_LIMITS.problemsListed);
    expect(last.problems![0]!.row).toBe(2);
    expect(last.problems![199]!.row).toBe(201);
  });

  it('refuses a whole-file problem as the task outcome (not an .xlsx, unknown header, too many rows)', async () => {
    const notXlsx = (await upload(`${BASE}/a/batchimp`, admin, { file: 'hello, world' })).data as { taskId: string };
    expect((await follow('a', admin, notXlsx.taskId)).at(-1)).toMatchObject({ phase: 'refused', problems: [{ msg: 'The file is not a valid .xlsx workbook' }] });
    const odd = (await upload(`${BASE}/a/batchimp`, admin, { file: await xlsx([['Type name', 'Protocol', 'Colour'], ['Z', 2013, 'red']]) })).data as { taskId: string };
    expect((await follow('a', admin, odd.taskId)).at(-1)!.problems).toEqual([{ msg: 'The header row has an unknown column "Colour"' }]);
    const rows = Array.from({ length: 10_001 }, (_, i) => [`Many ${i}`, 2019]);
    const many = (await upload(`${BASE}/a/batchimp`, admin, { file: await xlsx([['Type name', 'Protocol'], ...rows]) })).data as { taskId: string };
    expect((await follow('a', admin, many.taskId)).at(-1)!.problems).toEqual([{ msg: 'At most 10000 rows can be imported at once' }]);
  });

  it('imports into the company the form names, which must be in the caller subtree', async () => {
    const companies = (await server.call<{ id: number; name: string }[]>('GET', '/service-priv/company/tree', { token: admin })).data;
    const east = companies.find((c) => c.name === '华东分公司')!;
    const south = companies.find((c) => c.name === '华南分公司')!;
    const eastUser = await createUserWithRole(server, 'job_east', east.id, bits('create'));
    const before = fingerprint(server.app);
    const foreign = await upload(`${BASE}/a/batchimp`, eastUser, { file: await xlsx([header, ['South type', 2019, '', '', '']]), companyId: String(south.id) });
    expect(foreign.status).toBe(403);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
    const own = await upload(`${BASE}/a/batchimp`, eastUser, { file: await xlsx([header, ['East type', 2019, '', '', '']]), companyId: String(east.id) });
    expect((await follow('a', eastUser, (own.data as { taskId: string }).taskId)).at(-1)).toMatchObject({ phase: 'done', imported: 1 });
    const seen = await server.call<{ records: DeviceType[] }>('GET', '/service-priv/devtype/search?keyword=East%20type', { token: admin });
    expect(seen.data.records.map((d) => d.companyId)).toEqual([east.id]);
  });
});

describe('the job routes refuse', () => {
  it('without the bit (403), and someone else\'s or another resource\'s task as missing (404)', async () => {
    const viewer = await createUserWithRole(server, 'job_viewer', 1, bits());
    const file = await xlsx([header, ['Bit check', 2019, '', '', '']]);
    expect((await upload(`${BASE}/a/batchimp`, viewer, { file })).status).toBe(403);
    const { taskId } = (await upload(`${BASE}/a/batchimp`, admin, { file })).data as { taskId: string };
    await follow('a', admin, taskId);
    expect((await status('a', viewer, taskId)).status).toBe(403);
    const other = await createUserWithRole(server, 'job_other', 1, bits('create'));
    const foreign = await status('a', other, taskId);
    expect(foreign.status).toBe(404);
    expect(foreign.msg).toBe('The import task does not exist or has expired');
    expect((await status('b', admin, taskId)).status).toBe(404);
    expect((await status('a', admin, 'no-such-task')).status).toBe(404);
  });

  it('an upload that is not one .xlsx in the field "file" with 400, nothing written and no task', async () => {
    const file = await xlsx([header, ['Never', 2019, '', '', '']]);
    const before = fingerprint(server.app);
    const cases: [string, Promise<Sent>, string][] = [
      ['json body', server.call('POST', `${BASE}/a/batchimp`, { token: admin, lang: 'en', body: { file: file.toString('base64') } }) as Promise<Sent>, 'Upload the .xlsx file as multipart/form-data (field "file")'],
      ['no file', upload(`${BASE}/a/batchimp`, admin, { companyId: '1' }), 'No file was received (field "file")'],
      ['another field name', upload(`${BASE}/a/batchimp`, admin, { file, fileField: 'upload' }), 'Unknown upload field "upload"'],
      ['an unknown text field', upload(`${BASE}/a/batchimp`, admin, { file, extra: ['colour', 'red'] }), 'Unknown upload field "colour"'],
      ['companyId not a number', upload(`${BASE}/a/batchimp`, admin, { file, companyId: '1; drop table' }), 'Field companyId is invalid: must be a positive integer'],
      ['larger than 8 MiB', upload(`${BASE}/a/batchimp`, admin, { file: Buffer.alloc(IMPORT_JOB_LIMITS.fileMaxBytes + 1, 1) }), 'The file is larger than 8 MB; split it and import the parts'],
      ['query companyId out of bounds', upload(`${BASE}/a/batchimp?companyId=0`, admin, { file }), ''],
    ];
    for (const [label, sent, msg] of cases) {
      const r = await sent;
      expect(r.status, label).toBe(400);
      if (msg) expect(r.msg, label).toBe(msg);
    }
    const bad = await upload(`${BASE}/a/batchimp`, admin, { file, companyId: 'x1' });
    expect(bad.status).toBe(400);
    expect(changedTables(before, fingerprint(server.app))).toEqual([]);
  });

  it('a second import of the same user while one runs (429)', async () => {
    const rows = Array.from({ length: 4000 }, (_, i) => [`Busy ${i}`, 2019]);
    const file = await xlsx([['Type name', 'Protocol'], ...rows]);
    const first = await upload(`${BASE}/a/batchimp`, admin, { file });
    const second = await upload(`${BASE}/b/batchimp`, admin, { file: await xlsx([header, ['Later', 2019, '', '', '']]) });
    const firstState = (await status('a', admin, (first.data as { taskId: string }).taskId)).data;
    // Only meaningful while the first still runs (it reads 4,000 rows: far longer than one upload).
    if (!['done', 'refused', 'failed'].includes(firstState.phase) || second.status === 429) {
      expect(second.status).toBe(429);
      expect(second.msg).toBe('An import of yours is still running; wait until it ends');
    }
    await follow('a', admin, (first.data as { taskId: string }).taskId);
  });
});

describe('random multipart bodies', () => {
  it('never answer 5xx, and a refusal writes nothing', async () => {
    let seed = 20261125;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const good = await xlsx([header, ['Fuzz', 2019, '', '', '']]);
    const failures: string[] = [];
    for (let i = 0; i < 60; i++) {
      const boundary = `----b${Math.floor(rnd() * 1e9)}`;
      const pieces: string[] = [];
      const n = Math.floor(rnd() * 4);
      for (let k = 0; k < n; k++) {
        const name = ['file', 'companyId', 'x', '', 'file"; filename="a.xlsx'][Math.floor(rnd() * 5)];
        const value = ['1', '-1', '', 'é'.repeat(50), good.subarray(0, Math.floor(rnd() * good.length)).toString('latin1')][Math.floor(rnd() * 5)];
        pieces.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${rnd() < 0.5 ? '; filename="f.xlsx"' : ''}\r\n\r\n${value}\r\n`);
      }
      const tail = rnd() < 0.7 ? `--${boundary}--\r\n` : '';
      const type = rnd() < 0.9 ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data';
      const changes = totalChanges();
      const before = fingerprint(server.app);
      const res = await fetch(`${server.url}${BASE}/b/batchimp`, { method: 'POST', headers: { 'x-jwt': admin, 'content-type': type }, body: Buffer.from(pieces.join('') + tail, 'latin1') });
      const body = await res.text();
      if (res.status >= 500) failures.push(`#${i} → ${res.status} ${body.slice(0, 200)}`);
      // The change counter only says something may have been written (the audit trail's batched rows count
      // too, and a refusal is audited): the table fingerprints, which leave the audit tables out, decide.
      if (res.status >= 400 && totalChanges() !== changes) {
        const changed = changedTables(before, fingerprint(server.app));
        if (changed.length > 0) failures.push(`#${i} → ${res.status} but wrote ${changed.join(', ')}`);
      }
      if (res.status === 200) await follow('b', admin, (JSON.parse(body) as { data: { taskId: string } }).data.taskId);
    }
    expect(failures).toEqual([]);
  });
});

describe('the JSON import', () => {
  it('names every bad row: msg the first as before, data.problems all of them', async () => {
    const file = (await xlsx([header, ['J1', 2019, '', '', ''], ['J2', 2015, '', '', ''], ['J3', 2013, '', '', ''], ['J4', 'x', '', '', '']])).toString('base64');
    const before = count();
    const r = await server.call<{ problems: { row: number; column: string; msg: string }[]; problemCount: number }>('POST', `${BASE}/a/import`, { token: admin, lang: 'en', body: { file } });
    expect(r.status).toBe(400);
    expect(r.msg).toMatch(/^Row 3, column "Protocol": Field protocol is invalid/);
    expect(r.data.problemCount).toBe(2);
    expect(r.data.problems.map((p) => [p.row, p.column])).toEqual([[3, 'Protocol'], [5, 'Protocol']]);
    expect(count()).toBe(before);
  });
});

describe('the task store', () => {
  it('one running task per user, four on the server, finished tasks kept 30 minutes and ten per user', async () => {
    let now = 0;
    const jobs = new ImportJobs(IMPORT_JOB_LIMITS, () => now);
    const a = await jobs.begin(1, 'vehicle');
    await expect(jobs.begin(1, 'driver')).rejects.toMatchObject({ code: 429 });
    const others = await Promise.all([2, 3, 4].map((u) => jobs.begin(u, 'vehicle')));
    await expect(jobs.begin(5, 'vehicle')).rejects.toMatchObject({ code: 429 });
    jobs.finish(a, 'done', { imported: 1 });
    for (const j of others) jobs.finish(j, 'done');
    expect(jobs.own(1, 'vehicle', a.id)).toBe(a);
    expect(() => jobs.own(2, 'vehicle', a.id)).toThrow(expect.objectContaining({ code: 404 }));
    expect(() => jobs.own(1, 'driver', a.id)).toThrow(expect.objectContaining({ code: 404 }));
    now += 30 * 60_000;
    expect(jobs.own(1, 'vehicle', a.id)).toBe(a);
    now += 1;
    expect(() => jobs.own(1, 'vehicle', a.id)).toThrow(expect.objectContaining({ code: 404 }));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const j = await jobs.begin(9, 'vehicle');
      jobs.finish(j, 'done');
      ids.push(j.id);
      now += 1;
    }
    const kept = ids.filter((id) => {
      try {
        jobs.own(9, 'vehicle', id);
        return true;
      } catch {
        return false;
      }
    });
    expect(kept).toEqual(ids.slice(-IMPORT_JOB_LIMITS.keptPerUser));
  });
});
