/**
 * Migration 58 (issue 20 scale-out): the status of the resources' large .xlsx imports
 * (server/resources/import-jobs.ts), readable from any API node of a cluster. The node running an import writes
 * its row at the start, on progress (at most once a second, outside any transaction) and at the end with the
 * outcome: the problems of a refusal listed in both languages (`problems`: {"zh": [...], "en": [...]}) and the
 * outcome sentence (`message`: [zh, en]). A row whose `update_time` has not moved for IMPORT_STALE_MS while
 * unfinished reads failed (its node died). Finished rows are deleted when the node forgets the task (30 min,
 * ten per user), and by any node's next import start once past that.
 */
export const IMPORT_JOBS_MIGRATION = {
  version: 58,
  name: 'import job status',
  sql: `
    CREATE TABLE import_job (
      id TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL,
      resource TEXT NOT NULL,
      phase TEXT NOT NULL,
      done INTEGER NOT NULL,
      total INTEGER NOT NULL,
      imported INTEGER,
      problem_count INTEGER,
      problems TEXT,
      message TEXT,
      create_time INTEGER NOT NULL,
      update_time INTEGER NOT NULL,
      finish_time INTEGER
    );
    CREATE INDEX import_job_update ON import_job(update_time);
  `,
};
