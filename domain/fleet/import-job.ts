/**
 * The large .xlsx import (issue 15: `vehicle/v3/batchimp` + `vehicle/batch/status`, the same for
 * devices and drivers): the limits and the status answer the server's import job and the console's
 * import dialog share. One file up to 8 MiB and the resource's row cap (10,000); every row is checked
 * and nothing is written unless every row passes; a refusal lists up to 200 problems by row and column.
 */

export const IMPORT_JOB_LIMITS = {
  /** The uploaded .xlsx (multipart field `file`). */
  fileMaxBytes: 8 * 1024 * 1024,
  /** Problems listed in one refusal (the count says how many there were in all). */
  problemsListed: 200,
  /** A finished task answers its status this long, then it is forgotten. */
  keepMinutes: 30,
  /** Import tasks of one user running at once; a further start is refused with 429 until one ends. */
  runningPerUser: 1,
  /** Import tasks running at once on the server (each holds a parsed sheet in memory). */
  runningMax: 4,
  /** Finished tasks kept per user (the oldest is forgotten first). */
  keptPerUser: 10,
  /** Rows checked between two yields to the event loop (the gateway shares the process). */
  rowsPerChunk: 500,
} as const;

/**
 * reading: the sheet is being read (done = rows read);
 * checking: every row against the schema and the resource's rules (done of total); writing: the one
 * transaction; done: `imported` rows written; refused: nothing written, `problems` say why;
 * failed: the server could not finish (nothing written).
 */
export const IMPORT_PHASES = ['reading', 'checking', 'writing', 'done', 'refused', 'failed'] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];

/** One problem of a refused file: the sheet's row (the header is row 1) and column header (caller's language) when known. */
export interface ImportProblemView {
  readonly row?: number;
  readonly column?: string;
  readonly msg: string;
}

/** The status call's answer. */
export interface ImportJobState {
  readonly taskId: string;
  readonly phase: ImportPhase;
  /** Rows read (reading), checked (checking) or written (writing, done). */
  readonly done: number;
  /** Data rows in the file (0 while still reading). */
  readonly total: number;
  readonly imported?: number;
  /** refused: up to `problemsListed` problems, in row order. */
  readonly problems?: readonly ImportProblemView[];
  /** refused: how many problems there were in all (more than listed when past the cap). */
  readonly problemCount?: number;
  /** refused / failed: one sentence for the whole outcome. */
  readonly msg?: string;
}

/** Whether a phase is final (polling stops). */
export function importFinished(phase: ImportPhase): boolean {
  return phase === 'done' || phase === 'refused' || phase === 'failed';
}

/**
 * The progress bar's value (0–100) for a server phase: reading counts as the first 10 %, checking up
 * to 80 %, writing the rest (the transaction is one step: its rows cannot be counted while it holds).
 */
export function importProgress(state: Pick<ImportJobState, 'phase' | 'done' | 'total'>): number {
  const part = state.total > 0 ? Math.min(1, state.done / state.total) : 0;
  switch (state.phase) {
    case 'reading': return 5;
    case 'checking': return 10 + 70 * part;
    case 'writing': return 80 + 20 * part;
    default: return 100;
  }
}
