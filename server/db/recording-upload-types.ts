/** Recording upload tasks and their received files (issue 6, migration 9): the repository interface. */
import type { RecordingSelection } from '../../domain/video/playback.ts';
import type { UploadState } from '../../domain/video/recording-upload.ts';

/** Who asked which terminal for which recordings (a new task). */
export interface UploadRequest extends Readonly<RecordingSelection> {
  readonly userId: number;
  readonly vehicleId: number;
  readonly deviceNo: string;
}

export interface UploadTask extends UploadRequest {
  readonly id: number;
  readonly state: UploadState;
  /** An UploadProblem key when failed, else ''. */
  readonly failReason: string;
  /** Platform serial of the 0x9206; null before it was sent. */
  readonly serial: number | null;
  /** The terminal's 0x1206 result (0 success, 1 failure); null until it arrives. */
  readonly result: number | null;
  readonly ftpUser: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly finishedAt: number | null;
}

export interface UploadFile {
  readonly id: number;
  readonly taskId: number;
  readonly name: string;
  readonly size: number;
  readonly receivedAt: number;
}

export type NewUploadTask = Omit<UploadTask, 'id' | 'state' | 'failReason' | 'serial' | 'result' | 'updatedAt' | 'finishedAt'> & {
  /** The node whose FTP receiver holds the task's credentials (server/ops/presence.ts; '' when unknown). */
  readonly node?: string;
};

export type UploadTaskPatch = Partial<Pick<UploadTask, 'state' | 'failReason' | 'serial' | 'result' | 'finishedAt'>>;

export interface RecordingUploadRepository {
  create(task: NewUploadTask): Promise<number>;
  get(id: number): Promise<UploadTask | undefined>;
  /** Applies `patch` (updatedAt = at) unless the task is already in one of `unlessIn`; answers whether it changed. */
  update(id: number, patch: UploadTaskPatch, at: number, unlessIn?: readonly UploadState[]): Promise<boolean>;
  /** Newest first; `userId` null = every user's. */
  page(filter: { userId: number | null; vehicleId?: number; states?: readonly UploadState[]; offset: number; limit: number }): Promise<{ total: number; records: UploadTask[] }>;
  /** Unfinished tasks of a vehicle, oldest first. */
  activeForVehicle(vehicleId: number): Promise<UploadTask[]>;
  /** Records a received file (a re-upload of one name replaces its size and time). */
  addFile(taskId: number, name: string, size: number, at: number): Promise<number>;
  files(taskIds: readonly number[]): Promise<UploadFile[]>;
  getFile(id: number): Promise<UploadFile | undefined>;
  /** Marks every unfinished task failed with `reason` (the server restarted: credentials are gone). */
  failUnfinished(reason: string, at: number): Promise<number>;
  /**
   * Scale-out: marks failed the unfinished tasks of nodes not checked in (`node_presence`) since `presentSince`,
   * the credentials died with their node; forgets presence rows older than `forgetBefore`. Answers the ids failed.
   */
  failOrphaned(reason: string, at: number, presentSince: number, forgetBefore: number): Promise<number[]>;
  /** Finished tasks (done, failed, cancelled) that ended before `before`, by id above `afterId` (at most `limit`). */
  finishedBefore(before: number, limit: number, afterId?: number): Promise<number[]>;
  /** Deletes tasks and their file rows. */
  delete(ids: readonly number[]): Promise<void>;
}
