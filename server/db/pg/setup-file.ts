/**
 * Per-file set-up of the `server-pg` project: a database of its own for the file, named in DATABASE_URL,
 * so the existing server tests listed in the project (vitest.config.ts) run their `startServer()` (which
 * opens storage through `openStorage`) on PostgreSQL unchanged. The first server of the file creates and
 * seeds the schema; a second one in the same file finds it made and keeps what the first wrote.
 */
import { afterAll } from 'vitest';
import { createTestDatabase, pgSkipReason } from './test-db.ts';

if (!pgSkipReason()) {
  const tdb = await createTestDatabase();
  process.env.DATABASE_URL = tdb.url;
  afterAll(async () => {
    delete process.env.DATABASE_URL;
    await tdb.drop();
  });
}
