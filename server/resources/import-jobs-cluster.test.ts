/**
 * Import status across API nodes (issue 20, server/cluster-jobs.md): behind a balancer the console's status
 * polls reach any API node, not only the one that took the upload. Two apps on one database (the same data
 * dir: one SQLite file here, one PostgreSQL database on server-on-pg): a file uploaded to A is followed to its
 * end through B, refusals in the caller's language included; someone else's task stays 404 on B. A task whose
 * node died reads running only until IMPORT_STALE_MS past its last write, then failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_JOB_LIMITS, importFinished, type ImportJobState } from '../../domain/fleet/import-job.ts';
import type { AppError } from '../http/envelope.ts';
import type { App } from '../http/route.ts';
import { startServer, type TestServer } from '../test/harness.ts';
import { createUserWithRole } from '../test/users.ts';
import { ImportJobs } from './import-jobs.ts';
import { IMPORT_STALE_MS, ImportJobStore } from './import-jobs-store.ts';
import { BASE, bits, jobDeclaration, uploadForm, xlsx } from './import-jobs-test-kit.ts';
import { registerResource } from './resource.ts';

const header = ['Type name', 'Protocol', 'Maker ID', 'Model', 'Remark'];
const withJobs = (app: unknown) => registerResource(app as App, (app as App).storage, jobDeclaration('deviceTypeJobA', 'a'));

describe('import status read from another API node on the same database', () => {
  let a: TestServer;
  let b: TestServer;
  let admin: string;

  beforeAll(async () => {
    a = await startServer({ seedVehicles: 2, seedFleetsPerBranch: 1 }, withJobs);
    b = await startServer({ seedVehicles: 2, seedFleetsPerBranch: 1, dataDir: a.config.dataDir }, withJobs);
    admin = await a.login('admin', 'admin123');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const statusOn = (s: TestServer, token: string, taskId: string, lang: 'zh' | 'en' = 'en') =>
    s.call<ImportJobState>('GET', `${BASE}/a/batch/status?taskId=${encodeURIComponent(taskId)}`, { token, lang });

  async function followOn(s: TestServer, taskId: string, lang: 'zh' | 'en' = 'en'): Promise<ImportJobState[]> {
    const seen: ImportJobState[] = [];
    for (let i = 0; i < 3000; i++) {
      const r = await statusOn(s, admin, taskId, lang);
      expect(r.status, r.msg).toBe(200);
      seen.push(r.data);
      if (importFinished(r.data.phase)) return seen;
      await new Promise((res) => setTimeout(res, 10));
    }
    throw new Error('the import did not end');
  }

  it('follows an import uploaded to A to its end through B: progress, the outcome, a refusal in the caller’s language', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => [`Node row ${i}`, 2019, 'NODE', `N-${i}`, '']);
    const started = await uploadForm(a.url, `${BASE}/a/batchimp`, admin, { file: await xlsx([header, ...rows]) });
    expect(started.status).toBe(200);
    const { taskId } = started.data as { taskId: string };
    const seen = await followOn(b, taskId);
    // B saw it running (its progress), not only its end.
    expect(importFinished(seen[0]!.phase)).toBe(false);
    expect(seen.at(-1)).toMatchObject({ taskId, phase: 'done', imported: 3000, done: 3000, total: 3000 });
    // A status on A and on B say the same.
    expect((await statusOn(a, admin, taskId)).data).toEqual((await statusOn(b, admin, taskId)).data);

    const bad = await uploadForm(a.url, `${BASE}/a/batchimp`, admin, { file: await xlsx([header, ['Fine', 2019, '', '', ''], ['Bad protocol', 2015, '', '', '']]) });
    const refusedId = (bad.data as { taskId: string }).taskId;
    const refused = (await followOn(b, refusedId, 'zh')).at(-1)!;
    expect(refused).toMatchObject({ phase: 'refused', problemCount: 1, msg: '共 1 处错误，未导入任何数据' });
    expect(refused.problems).toEqual([{ row: 3, column: '协议版本', msg: expect.any(String) }]);
    expect((await statusOn(b, admin, refusedId, 'en')).data.problems![0]!.column).toBe('Protocol');

    // Scoped as on the node that ran it: someone else's task is missing on B too.
    const other = await createUserWithRole(b, 'job_other_node', 1, bits('create'));
    const foreign = await statusOn(b, other, taskId);
    expect(foreign.status).toBe(404);
    expect(foreign.msg).toBe('The import task does not exist or has expired');
  });

  it('the limits count every node’s running tasks: a second import of the user on B is 429 while A runs the first; a dead node’s stale task does not block', async () => {
    const adminId = (await a.app.storage.users.findByUsername('admin'))!.id;
    const rows = Array.from({ length: 4000 }, (_, i) => [`Limit row ${i}`, 2019, 'LIMIT', `L-${i}`, '']);
    const first = await uploadForm(a.url, `${BASE}/a/batchimp`, admin, { file: await xlsx([header, ...rows]) });
    expect(first.status).toBe(200);
    const firstId = (first.data as { taskId: string }).taskId;
    const small = await xlsx([header, ['Limit second', 2019, '', '', '']]);
    const second = await uploadForm(b.url, `${BASE}/a/batchimp`, admin, { file: small });
    // Still running on A when B refused (else the refusal would prove nothing).
    const meanwhile = (await statusOn(b, admin, firstId)).data;
    expect(importFinished(meanwhile.phase), 'the first import ended before the second was sent').toBe(false);
    expect(second.status).toBe(429);
    expect(second.msg).toBe('An import of yours is still running; wait until it ends');
    // The server-wide maximum also counts A's task: a node allowing one task in all refuses another user's.
    const oneInAll = new ImportJobs({ ...IMPORT_JOB_LIMITS, runningMax: 1 }, Date.now, new ImportJobStore(b.app.storage), true);
    const busy = (await oneInAll.begin(adminId + 1000, 'deviceTypeJobA').catch((err: unknown) => err)) as AppError;
    expect(busy.code).toBe(429);
    expect(busy.detail?.('en')).toBe('The server is busy with other imports; try again shortly');
    expect((await followOn(b, firstId)).at(-1)).toMatchObject({ phase: 'done', imported: 4000 });

    // A node that died mid-import left its row unfinished; once stale it no longer counts.
    const stale = Date.now() - IMPORT_STALE_MS - 1;
    new ImportJobStore(a.app.storage).save({
      id: 'limit-dead-node', userId: adminId, resource: 'deviceTypeJobA', phase: 'writing', done: 0, total: 10, imported: null, problemCount: null, problems: null,
      message: null, createTime: stale, updateTime: stale, finishTime: null,
    });
    const third = await uploadForm(b.url, `${BASE}/a/batchimp`, admin, { file: small });
    expect(third.status, third.msg).toBe(200);
    expect((await followOn(a, (third.data as { taskId: string }).taskId)).at(-1)).toMatchObject({ phase: 'done', imported: 1 });
  });

  it('a task whose node died reads running until IMPORT_STALE_MS after its last write, then failed; expired finished tasks are 404', () => {
    let now = Date.now();
    const store = new ImportJobStore(a.app.storage);
    const t0 = now;
    store.save({
      id: 'dead-node-task', userId: 1, resource: 'deviceTypeJobA', phase: 'checking', done: 500, total: 2000, imported: null, problemCount: null, problems: null,
      message: null, createTime: t0, updateTime: t0, finishTime: null,
    });
    const onAnotherNode = new ImportJobs(IMPORT_JOB_LIMITS, () => now, new ImportJobStore(b.app.storage), true);
    expect(onAnotherNode.status(1, 'deviceTypeJobA', 'dead-node-task', 'en')).toMatchObject({ phase: 'checking', done: 500, total: 2000 });
    now = t0 + IMPORT_STALE_MS + 1;
    expect(onAnotherNode.status(1, 'deviceTypeJobA', 'dead-node-task', 'en')).toMatchObject({ phase: 'failed', msg: 'The import failed and nothing was written; please try again' });
    // One process alone on its database, started after the task's last write: it was its previous run's, failed at once.
    now = t0 + 1;
    const alone = new ImportJobs(IMPORT_JOB_LIMITS, () => now, new ImportJobStore(b.app.storage), false);
    expect(alone.status(1, 'deviceTypeJobA', 'dead-node-task', 'en')).toMatchObject({ phase: 'failed' });

    store.save({
      id: 'finished-task', userId: 1, resource: 'deviceTypeJobA', phase: 'done', done: 3, total: 3, imported: 3, problemCount: null, problems: null,
      message: null, createTime: t0, updateTime: t0, finishTime: t0,
    });
    expect(onAnotherNode.status(1, 'deviceTypeJobA', 'finished-task', 'en')).toMatchObject({ phase: 'done', imported: 3 });
    now = t0 + IMPORT_JOB_LIMITS.keepMinutes * 60_000 + 1;
    expect(() => onAnotherNode.status(1, 'deviceTypeJobA', 'finished-task', 'en')).toThrow(expect.objectContaining({ code: 404 }));
  });
});
