/** The safety board calls (server/API.md "Safety board"; the spec's path spelling `saftyBoard`). */
import type { BoardAction, BoardState } from '../../../domain/alarms/board.ts';
import { http } from '../../api/http.ts';
import type { Alarm } from '../alarms/api.ts';

const BASE = '/service-safe/saftyBoard';
/** The page's route: URL, permission route of its buttons, and the prefix of its query keys. */
export const BOARD_ROUTE = '/safeManagement/safetyBoardPage';

export interface BoardItem {
  id: number; vehicleId: number; vehiidno: string; devidno: string; companyId: number; companyName: string; state: BoardState; stateName: string;
  riskLevel: 'high' | 'medium'; alarmCount: number; firstAlarmTime: number; lastAlarmTime: number; lastAlarmType: number; lastAlarmName: string;
  note: string; nextFollowTime: number | null; overdue: boolean; followCount: number; reportTime: number | null; closeTime: number | null;
  muteUntil: number | null; handlerUserId: number | null; handlerName: string; createTime: number; updateTime: number; actions: BoardAction[];
}

export interface BoardPage { records: BoardItem[]; total: number; current: number; size: number }

export interface BoardStat {
  pending: number; following: number; reported: number; overdue: number; resolved: number; unpushed: number; open: number; high: number; medium: number;
  since: number; now: number;
}

export interface BoardLogEntry {
  id: number; itemId: number; userId: number | null; username: string; action: string; actionName: string; fromState: BoardState | null; toState: BoardState;
  note: string; nextFollowTime: number | null; alarmId: number | null; alarmType: number | null; alarmName: string | null; createTime: number;
}

export interface BoardDetail { item: BoardItem; alarms: Alarm[]; log: BoardLogEntry[] }

export interface BoardQuery {
  current: number; size: number; states?: BoardState[]; riskLevels?: string[]; vehicleIds?: number[]; overdue?: boolean;
  /** A company picked on the page; absent: the console's selected company (added by the request client). */
  companyId?: number;
}

export const fetchBoard = (q: BoardQuery, signal?: AbortSignal) => http.get<BoardPage>(`${BASE}/get`, { ...q }, { signal });

export const fetchBoardStat = (companyId?: number) => http.get<BoardStat>(`${BASE}/stat`, companyId === undefined ? {} : { companyId }, { silent: true });

export const fetchBoardDetail = (id: number) => http.get<BoardDetail>(`${BASE}/detail`, { id }, { noCompanyId: true });

/** Each action's call (the spec's paths). */
export const ACTION_PATH: Readonly<Record<BoardAction, string>> = {
  follow: `${BASE}/follow`,
  continueFollow: `${BASE}/continuefollow`,
  cancelFollow: `${BASE}/cancelFollow`,
  report: `${BASE}/report`,
  resolve: `${BASE}/resolved`,
  unpush: `${BASE}/unpush`,
};

export interface ActionInput { note?: string; nextFollowTime?: number; muteMinutes?: number }

/** Runs an action; failures reject with the server's message (the caller shows it). */
export const runBoardAction = (action: BoardAction, id: number, input: ActionInput) =>
  http.get<BoardItem & { closedAlarms: number }>(ACTION_PATH[action], { id, ...input }, { noCompanyId: true, silent: true });

export interface CompanyOption { companyId: number; name: string }

/** Companies matching a keyword (the company tree's search, a session call). */
export async function searchCompanies(keyword: string): Promise<CompanyOption[]> {
  const found = await http.get<{ node: { id: string; name: string; nodeType: string } }[]>(
    '/service-priv/company/treeSearch', { keyword, limit: 20 }, { noCompanyId: true, silent: true },
  );
  return found.filter((f) => f.node.nodeType === 'C').map((f) => ({ companyId: Number(f.node.id.replace(/^C_/, '')), name: f.node.name }));
}
