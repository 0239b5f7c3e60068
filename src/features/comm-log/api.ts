/** Communication log calls (server/services/comm-log/api.md). */
import { http } from '../../api/http.ts';

export const DEVICE_LOG_ROUTE = '/monitor/deviceLog';
export const MESSAGE_LOG_ROUTE = '/monitor/messageLog';

export interface Frame {
  id: string;
  time: number;
  direction: 'up' | 'down';
  msgId: number;
  msgIdHex: string;
  msgName: string;
  serial: number | null;
  phone: string | null;
  vehicleId: number | null;
  vehiidno: string | null;
  length: number;
  hex: string;
  decoded: unknown;
  error: string | null;
}

export type MessageType = 'transparent' | 'waybill' | 'driver' | 'upgrade';
export const MESSAGE_TYPES: MessageType[] = ['transparent', 'waybill', 'driver', 'upgrade'];

export interface DeviceMessage {
  id: string;
  time: number;
  type: MessageType;
  msgIdHex: string;
  msgName: string;
  phone: string | null;
  vehicleId: number | null;
  vehiidno: string | null;
  content: unknown;
  text: string | null;
  error: string | null;
}

export interface DevLogRecord { id: number; vehiidno: string; userName: string; sendTime: number; answerTime: number | null; state: string; result: number | null; lines: number; answerLines: number | null; log?: string | null }

interface Paged<T> { total: number; records: T[] }

export interface FrameFilter { vehicleId: number; from: number; to: number; direction?: 'up' | 'down'; msgIds?: string }

export const commLogApi = {
  frames: (f: FrameFilter, current: number, size: number) =>
    http.get<Paged<Frame>>('/service-monitor/commlog/frames', { ...f, current, size }, { noCompanyId: true, silent: true }),
  messages: (type: MessageType, from: number, to: number, vehicleId: number | null, current: number, size: number) =>
    http.get<Paged<DeviceMessage>>('/service-monitor/commlog/messages', { type, from, to, ...(vehicleId === null ? {} : { vehicleId }), current, size }, { silent: true }),
  uploadDevLog: (vehicleId: number, lines: number) =>
    http.get<DevLogRecord>('/service-command/devlogcommand/uploadDevLog', { vehicleId, lines }, { noCompanyId: true, silent: true }),
  searchDevLog: (vehicleId: number) =>
    http.get<Paged<DevLogRecord>>('/service-command/devlogcommand/searchDevLog', { vehicleId, current: 1, size: 20 }, { noCompanyId: true }),
  devLogResult: (recordId: number) =>
    http.get<DevLogRecord>('/service-command/devlogcommand/uploadDevLogResult', { recordId }, { noCompanyId: true }),
};
