/** The notice, message-log and favourites calls (server/services/notices/api.md). */
import { http } from '../../api/http.ts';

export const NOTICE_MGM_ROUTE = '/system/message/messageMgm';
export const NOTICE_LIST_ROUTE = '/system/message/messageList';
/** TanStack Query key of everything the bell and "my notices" read (refetched on a push `noticeUnread`). */
export const MY_NOTICES_KEY = 'my-notices';
export const FAVOURITES_KEY = 'usermenu-favourites';

export type NoticeLevel = 1 | 2 | 3;
export type NoticeTarget = { companyId: number; companyName: string; includeSub: boolean } | { userId: number; username: string; realName: string };
export interface Notice {
  id: number; title: string; content: string; level: NoticeLevel; companyId: number; companyName: string; status: 0 | 1 | 2;
  createdByName: string; createTime: number; updateTime: number; publishTime: number | null; withdrawTime: number | null;
  recipients: number; readCount: number; targets: NoticeTarget[];
}
export interface MyNotice { id: number; title: string; content: string; level: NoticeLevel; senderName: string; publishTime: number; readTime: number | null }
export interface MsgLogRow {
  noticeId: number; title: string; level: NoticeLevel; status: number; senderName: string; userId: number; username: string; realName: string;
  companyName: string; sendTime: number; deliveredTime: number | null; readTime: number | null;
}
export interface Recipient { id: number; username: string; realName: string; companyName: string }
export interface NoticeInput { title: string; content: string; level: NoticeLevel }
export interface PublishInput { id: number; companyIds?: number[]; includeSub?: boolean; userIds?: number[] }
export interface Favourite { routeKey: string; createTime: number }

const P = '/service-priv';
type PageOf<T> = { records: T[]; total: number };

export const noticeApi = {
  page: (q: { current: number; size: number; title?: string; status?: number; companyId?: number }) => http.post<PageOf<Notice>>(`${P}/notice/page`, q),
  add: (v: NoticeInput) => http.post<Notice>(`${P}/notice/add`, v, { silent: true, noCompanyId: true }),
  update: (id: number, v: NoticeInput) => http.post<Notice>(`${P}/notice/update`, { id, ...v }, { silent: true, noCompanyId: true }),
  publish: (v: PublishInput) => http.post<Notice>(`${P}/notice/publish`, v, { silent: true, noCompanyId: true }),
  withdraw: (id: number) => http.post<Notice>(`${P}/notice/withdraw`, { id }, { noCompanyId: true }),
  remove: (ids: number[]) => http.post<number>(`${P}/notice/delete`, { ids }, { silent: true, noCompanyId: true }),
  recipients: (q: { current: number; size: number; keyword?: string }) => http.post<PageOf<Recipient>>(`${P}/notice/recipients`, q, { noCompanyId: true }),
  log: (q: { current: number; size: number; noticeId?: number; read?: 0 | 1; keyword?: string }) => http.get<PageOf<MsgLogRow>>(`${P}/msgLog/page`, q),
  mine: (q: { current: number; size: number; read?: 0 | 1; title?: string }) => http.post<PageOf<MyNotice> & { unread: number }>(`${P}/notice/user/page`, q, { noCompanyId: true }),
  latest: () => http.post<{ unread: number; records: MyNotice[] }>(`${P}/notice/user/list`, {}, { noCompanyId: true, silent: true }),
  open: (id: number) => http.post<MyNotice & { unread: number }>(`${P}/notice/user/info`, { id }, { noCompanyId: true }),
  read: (v: { ids?: number[]; all?: boolean }) => http.post<{ changed: number; unread: number }>(`${P}/notice/user/read`, v, { noCompanyId: true }),
};

export const favouriteApi = {
  mine: () => http.get<Favourite[]>(`${P}/usermenu/mycollection`, undefined, { noCompanyId: true, silent: true }),
  collect: (routeKey: string) => http.post<Favourite[]>(`${P}/usermenu/collect`, { routeKey }, { noCompanyId: true }),
  cancel: (routeKey: string) => http.post<Favourite[]>(`${P}/usermenu/cancel`, { routeKey }, { noCompanyId: true }),
};
