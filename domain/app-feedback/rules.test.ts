import { describe, expect, it } from 'vitest';
import { acceptsPosts, deliveryState, FeedbackStatus, statusAfterPost } from './rules.ts';

describe('feedback and push rules', () => {
  it('an administrator\'s reply marks a thread replied; the author\'s follow-up opens it again; a closed one takes no posts', () => {
    expect(statusAfterPost('admin')).toBe(FeedbackStatus.replied);
    expect(statusAfterPost('author')).toBe(FeedbackStatus.open);
    expect(acceptsPosts(FeedbackStatus.closed)).toBe(false);
    expect(acceptsPosts(FeedbackStatus.replied)).toBe(true);
  });

  it('a recipient is queued until the app fetches the push, delivered until it acknowledges, then read', () => {
    expect(deliveryState({ deliveredTime: null, readTime: null })).toBe('queued');
    expect(deliveryState({ deliveredTime: 1, readTime: null })).toBe('delivered');
    // An acknowledgement without a recorded fetch still counts as read.
    expect(deliveryState({ deliveredTime: null, readTime: 2 })).toBe('read');
  });
});
