/**
 * Migration 57 (issue 20 scale-out): which node holds work that lives in its memory.
 *
 * - `node_presence`: each node of a cluster on one PostgreSQL database checks in every PRESENCE_CHECKIN_MS
 *   (server/ops/presence.ts). A node whose row has not moved for PRESENCE_STALE_MS is taken as gone. The
 *   pattern of a clustered job scheduler's check-in table: the survivors recover what the dead one held.
 *   On the embedded database nobody writes here (one process: what it held died with it).
 * - `recording_upload.node`: the node whose FTP receiver holds the task's one-time credentials (in memory).
 *   A task of a node that is gone can never finish: the leader fails it. '' for tasks made before.
 */
export const NODE_PRESENCE_MIGRATION = {
  version: 57,
  name: 'node presence, recording upload owner node',
  sql: `
    CREATE TABLE node_presence (
      node TEXT PRIMARY KEY,
      started_at INTEGER NOT NULL,
      seen_at INTEGER NOT NULL
    );
    ALTER TABLE recording_upload ADD COLUMN node TEXT NOT NULL DEFAULT '';
  `,
};
