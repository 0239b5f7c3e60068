import { describe, expect, it } from 'vitest';
import { checkUploadRange, controlTarget, isFinal, isUploadProblem, uploadMessage, UPLOAD_STATES } from './recording-upload.ts';

describe('recording upload rules', () => {
  it('allows pause while waiting or uploading, resume only when paused, cancel until the task is final', () => {
    const table = UPLOAD_STATES.map((s) => [s, controlTarget(s, 'pause'), controlTarget(s, 'resume'), controlTarget(s, 'cancel')]);
    expect(table).toEqual([
      ['requested', 'paused', null, 'cancelled'],
      ['uploading', 'paused', null, 'cancelled'],
      ['paused', null, 'uploading', 'cancelled'],
      ['done', null, null, null],
      ['failed', null, null, null],
      ['cancelled', null, null, null],
    ]);
    expect(UPLOAD_STATES.filter(isFinal)).toEqual(['done', 'failed', 'cancelled']);
  });

  it('checks the period: ordered, not starting in the future, at most 24 hours', () => {
    const now = 1_000_000_000_000;
    expect(checkUploadRange(now - 3_600_000, now, now)).toBeNull();
    expect(checkUploadRange(now, now, now)).toBe('startAfterEnd');
    expect(checkUploadRange(now + 1, now + 60_000, now)).toBe('future');
    expect(checkUploadRange(now - 24 * 3_600_000, now, now)).toBeNull();
    expect(checkUploadRange(now - 24 * 3_600_000 - 1000, now, now)).toBe('tooLong');
    expect(checkUploadRange(Number.NaN, now, now)).toBe('startAfterEnd');
  });

  it('words the spec\'s messages in both languages', () => {
    expect(uploadMessage('uploadFailed', 'zh')).toBe('上传失败');
    expect(uploadMessage('uploadFailed', 'en')).toBe('Upload failed');
    expect(uploadMessage('vehicleOffline', 'zh')).toBe('车辆不在线');
    expect(uploadMessage('deviceOffline', 'en')).toBe('The device is offline');
    expect(isUploadProblem('nothingReceived')).toBe(true);
    expect(isUploadProblem('toString')).toBe(false);
  });
});
