import { describe, expect, it } from 'vitest';
import { Commands, PushEncoder } from '../../../proto/codec.ts';
import { jsonEnvelope } from '../../../proto/json.ts';
import type { WorkerMessage } from './protocol.ts';
import { StreamWorker } from './stream-worker.ts';

function worker() {
  const posted: WorkerMessage[] = [];
  const w = new StreamWorker({
    post: (m) => posted.push(m),
    now: () => 0,
    nextFrame: () => undefined,
    createSocket: () => {
      throw new Error('no socket in this test');
    },
  });
  return { w, notices: () => posted.filter((m) => m.type === 'noticeUnread') };
}

describe('the stream worker and the unread notice count (issue 19)', () => {
  it('posts the pushed count to the main thread, binary or JSON, and counts a malformed one as an error', () => {
    const { w, notices } = worker();
    w.core.handleMessage(new PushEncoder().json(Commands.noticeUnread, { data: { unread: 3, noticeId: 17 } }), 0);
    w.core.handleMessage(jsonEnvelope(Commands.noticeUnread, { unread: 2, noticeId: null }), 0);
    expect(notices()).toEqual([
      { type: 'noticeUnread', unread: 3, noticeId: 17 },
      { type: 'noticeUnread', unread: 2, noticeId: null },
    ]);
    const errors = w.core.errors;
    w.core.handleMessage(jsonEnvelope(Commands.noticeUnread, { unread: 'many' }), 0);
    expect(notices()).toHaveLength(2);
    expect(w.core.errors).toBe(errors + 1);
  });
});
