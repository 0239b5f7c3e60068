/**
 * Feedback threads and app push (issue 19): the rules the server enforces and the console shows
 * (server/services/app-feedback/CONTEXT.md). Pure: no DOM, no Node.
 */

/** Where a thread was raised: 1 the drivers' app (/system/feedback/appfeedback), 2 the console (platformFeedBack). */
export const FeedbackSource = { app: 1, platform: 2 } as const;
export type FeedbackSourceId = (typeof FeedbackSource)[keyof typeof FeedbackSource];

/** Thread types; labels come from the i18n (zh default). */
export const FEEDBACK_TYPES = [1, 2, 3, 4] as const; // suggestion, fault, complaint, other
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** 0 open (waiting for an administrator), 1 replied, 2 closed. */
export const FeedbackStatus = { open: 0, replied: 1, closed: 2 } as const;
export type FeedbackStatusId = (typeof FeedbackStatus)[keyof typeof FeedbackStatus];
export const FEEDBACK_STATUSES = [0, 1, 2] as const;

export const FEEDBACK_TITLE_MAX = 100;
/** One post: a long paragraph, still one screen on a phone. */
export const FEEDBACK_CONTENT_MAX = 2000;
/** Posts one thread may hold: past this it is a chat, not feedback; the admin closes it. */
export const FEEDBACK_MESSAGES_MAX = 200;
/** Rows one export writes. */
export const FEEDBACK_EXPORT_CAP = 10_000;

/** The status after a post: the author's follow-up reopens a replied thread, an administrator's reply marks it replied. */
export function statusAfterPost(side: 'author' | 'admin'): FeedbackStatusId {
  return side === 'admin' ? FeedbackStatus.replied : FeedbackStatus.open;
}

/** Whether a post may be added: a closed thread takes none (the author raises a new one). */
export function acceptsPosts(status: FeedbackStatusId): boolean {
  return status !== FeedbackStatus.closed;
}

// ------------------------------------------------------------------ app push

export const APP_NOTICE_TITLE_MAX = 50;
/** A push shows on a phone's lock screen and in the app's message list: 500 characters is plenty. */
export const APP_NOTICE_CONTENT_MAX = 500;
/** Companies or app users one publication may name. */
export const APP_NOTICE_TARGETS_MAX = 500;

/** Delivery state of one recipient, as the console shows it. */
export type DeliveryState = 'queued' | 'delivered' | 'read';
export function deliveryState(r: { deliveredTime: number | null; readTime: number | null }): DeliveryState {
  return r.readTime !== null ? 'read' : r.deliveredTime !== null ? 'delivered' : 'queued';
}

/** App sign-in tokens live 30 days; a new sign-in makes a new one (one per phone). */
export const APP_TOKEN_TTL_MS = 30 * 24 * 3_600_000;
/** Tokens one app user may hold at once: the oldest goes beyond (a lost phone's token ends soon). */
export const APP_TOKENS_PER_USER = 5;
