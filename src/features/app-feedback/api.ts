/** Feedback threads and app push (server/services/app-feedback/CONTEXT.md). */
import { http } from '../../api/http.ts';
import { serverExportJob } from '../../kit/export-job.ts';

export const APP_FEEDBACK_ROUTE = '/system/feedback/appfeedback';
export const PLATFORM_FEEDBACK_ROUTE = '/system/feedback/platformFeedBack';
export const APP_PUSH_ROUTE = '/operation/messageManagement/messageNotification';

export type FeedbackSource = 1 | 2;
export interface Theme {
  id: number; companyId: number; companyName: string; source: FeedbackSource; type: number; title: string; status: 0 | 1 | 2;
  authorName: string; createTime: number; updateTime: number; replyTime: number | null; messages: number; unreadForAdmin: number; unreadForAuthor: number; content: string;
}
export interface Post { id: number; side: 1 | 2; content: string; senderName: string; createTime: number; readTime: number | null }
export interface FeedbackSearch { source: FeedbackSource; type?: number; status?: number; replied?: 0 | 1; keyword?: string }

export interface AppPush {
  id: number; title: string; content: string; companyName: string; status: 0 | 1; createdByName: string; createTime: number;
  publishTime: number | null; recipients: number; delivered: number; readCount: number;
}
export interface PushRecipient { appUserId: number; username: string; realName: string; companyName: string; sendTime: number; deliveredTime: number | null; readTime: number | null; state: 'queued' | 'delivered' | 'read' }
export interface PickerCompany { companyId: number; companyName: string; users: { id: number; username: string; realName: string }[] }

type PageOf<T> = { records: T[]; total: number };
const P = '/service-priv/feedback';
const C = '/service-command/appNotice';

export const feedbackApi = {
  page: (q: FeedbackSearch & { current: number; size: number }) => http.get<PageOf<Theme>>(`${P}/page`, { ...q }),
  info: (id: number) => http.get<Theme & { posts: Post[] }>(`${P}/info`, { id }, { noCompanyId: true }),
  reply: (id: number, content: string) => http.post<Theme & { posts: Post[] }>(`${P}/addAdminTheme`, { id, content }, { silent: true, noCompanyId: true }),
  setStatus: (id: number, status: 0 | 1 | 2) => http.post<Theme>(`${P}/updateThemeType`, { id, status }, { noCompanyId: true }),
  exportJob: (q: FeedbackSearch) => serverExportJob(P, { ...q }),
};

export const appPushApi = {
  page: (q: { current: number; size: number; title?: string; status?: number }) => http.post<PageOf<AppPush>>(`${C}/page`, q),
  add: (v: { title: string; content: string }) => http.post<AppPush>(`${C}/add`, v, { silent: true, noCompanyId: true }),
  update: (id: number, v: { title: string; content: string }) => http.post<AppPush>(`${C}/update`, { id, ...v }, { silent: true, noCompanyId: true }),
  remove: (ids: number[]) => http.post<{ deleted: number }>(`${C}/delete`, { ids }, { silent: true, noCompanyId: true }),
  publish: (v: { id: number; companyIds?: number[]; appUserIds?: number[] }) => http.post<AppPush>(`${C}/publishMsg`, v, { silent: true, noCompanyId: true }),
  picker: (keyword?: string) => http.get<PickerCompany[]>(`${C}/getUsersAndCompany`, keyword ? { keyword } : {}),
  recipients: (q: { id: number; current: number; size: number }) => http.get<PageOf<PushRecipient>>(`${C}/recipients`, q, { noCompanyId: true }),
};
