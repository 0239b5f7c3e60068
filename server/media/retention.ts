/**
 * Media retention: photos (MEDIA_DIR/photos, default DATA_DIR/media/photos, `media_item`) received more than MEDIA_RETENTION_DAYS
 * ago (server time: a terminal's reset clock must not get its photos deleted) and recordings pulled to the server (MEDIA_DIR/recordings/<task>, `recording_upload`) whose
 * task ended that long ago are deleted, files first, then their rows. Without it the data directory
 * only grows: a 2,000-vehicle fleet with an alarm photo per vehicle a day stores ≈ 100 MB a day.
 *
 * - 0 days keeps everything. Unfinished upload tasks are never touched.
 * - The app's retention scheduler (server/retention/scheduler.ts) runs the sweep at start and then
 *   hourly, with the other retention sweeps; a sweep works in batches of SWEEP_BATCH (bounded work per turn).
 * - A file that cannot be removed (other than already missing) keeps its row, so the next sweep tries
 *   again and nothing points at a file that is gone.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '../db/repositories.ts';
import type { RetentionTask } from '../retention/scheduler.ts';

/** Items removed per batch; the sweep yields to the event loop between batches. */
export const SWEEP_BATCH = 500;

export interface RetentionOptions {
  readonly storage: Storage;
  /** MEDIA_DIR (default DATA_DIR/media): `media_item.path` is relative to it, recordings live in `recordings/<task id>`. */
  readonly mediaDir: string;
  readonly days: number;
  readonly clock: () => number;
  readonly log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface SweepResult {
  photos: number;
  recordings: number;
  /** Bytes of the removed photos (recording sizes are in their file rows, gone with the task). */
  photoBytes: number;
  /** Files that could not be removed (their rows stay for the next sweep). */
  failed: number;
}

export class MediaRetention implements RetentionTask {
  readonly name = 'media';
  private running: Promise<SweepResult> | undefined;

  constructor(private readonly options: RetentionOptions) {}

  /** One sweep (a second call while one runs joins it). */
  sweep(): Promise<SweepResult> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<SweepResult> {
    const { storage, mediaDir, days, clock, log } = this.options;
    const result: SweepResult = { photos: 0, recordings: 0, photoBytes: 0, failed: 0 };
    if (days <= 0) return result;
    const before = clock() - days * 86_400_000;
    try {
      // Cursors, not "the oldest again": items whose files cannot be removed keep their rows and are
      // stepped over, so a stuck batch never blocks the newer ones.
      let after: { receivedTime: number; id: number } | undefined;
      for (;;) {
        const items = await storage.media.expired(before, SWEEP_BATCH, after);
        const removed: number[] = [];
        for (const item of items) {
          if (await this.remove(path.join(mediaDir, item.path), false)) {
            removed.push(item.id);
            result.photoBytes += item.size;
          } else result.failed++;
        }
        await storage.media.delete(removed);
        result.photos += removed.length;
        const last = items.at(-1);
        if (!last || items.length < SWEEP_BATCH) break;
        after = { receivedTime: last.receivedTime, id: last.id };
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      let afterId = 0;
      for (;;) {
        const tasks = await storage.recordingUploads.finishedBefore(before, SWEEP_BATCH, afterId);
        const removed: number[] = [];
        for (const id of tasks) {
          if (await this.remove(path.join(mediaDir, 'recordings', String(id)), true)) removed.push(id);
          else result.failed++;
        }
        await storage.recordingUploads.delete(removed);
        result.recordings += removed.length;
        if (tasks.length < SWEEP_BATCH) break;
        afterId = tasks.at(-1)!;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      log?.warn({ err }, 'media retention sweep failed');
    }
    if (result.photos + result.recordings + result.failed > 0) log?.info({ ...result, days }, 'media retention sweep');
    return result;
  }

  /** Removes a file (or a task's directory); true when it is gone, including when it was already missing. */
  private async remove(target: string, directory: boolean): Promise<boolean> {
    try {
      await rm(target, { force: true, recursive: directory });
      return true;
    } catch (err) {
      this.options.log?.warn({ err, target }, 'media retention could not remove a file');
      return false;
    }
  }
}
