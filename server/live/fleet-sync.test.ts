/**
 * FleetSync.vehiclesChanged: the live store follows vehicles created, moved to another company (who
 * sees them live) and deleted (forgotten: no longer found, in no branch's scope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathInScope, subtreeScope } from '../db/scope.ts';
import type { SqliteStorage } from '../db/sqlite/storage.ts';
import { createFleetSync } from './fleet-sync.ts';
import { startLiveServer, type LiveTestServer } from './test-harness.ts';

let server: LiveTestServer;
const db = () => (server.app.storage as SqliteStorage).db;

beforeAll(async () => {
  server = await startLiveServer({ seedVehicles: 6 });
});
afterAll(() => server.close());

describe('vehiclesChanged', () => {
  it('adds a new vehicle without a device, follows a move to another company, forgets a deleted vehicle', async () => {
    const store = server.app.live.store;
    const sync = createFleetSync(server.app.storage, server.app.live);
    const branches = db().prepare('SELECT id, path FROM company WHERE pid = 1 ORDER BY id LIMIT 2').all() as { id: number; path: string }[];
    const [east, south] = branches as [{ id: number; path: string }, { id: number; path: string }];
    const now = Date.now();
    const id = Number(db().prepare('INSERT INTO vehicle (vehiidno, company_id, create_time, update_time) VALUES (?, ?, ?, ?)').run('沪A0SYNC', east.id, now, now).lastInsertRowid);
    expect(store.slotOf(id)).toBe(-1);
    await sync.vehiclesChanged([id]);
    const slot = store.slotOf(id);
    expect(slot).toBeGreaterThanOrEqual(0);
    expect(store.companyPathOf(slot)).toBe(east.path);

    db().prepare('UPDATE vehicle SET company_id = ? WHERE id = ?').run(south.id, id);
    await sync.vehiclesChanged([id]);
    expect(store.companyPathOf(slot)).toBe(south.path);
    expect(pathInScope(subtreeScope(east.id, east.path), store.companyPathOf(slot))).toBe(false);

    db().prepare('DELETE FROM vehicle WHERE id = ?').run(id);
    await sync.vehiclesChanged([id]);
    expect(store.slotOf(id)).toBe(-1);
    expect(pathInScope(subtreeScope(south.id, south.path), store.companyPathOf(slot))).toBe(false);
    store.touch(id);
    expect(Number.isNaN(store.columns.lastContact[slot]!)).toBe(true);
  });
});
