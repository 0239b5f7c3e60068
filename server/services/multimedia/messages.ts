/** Messages of the multimedia calls, in both languages. */
import type { Lang } from '../../../domain/errors/catalogue.ts';
import type { Message } from '../../http/messages.ts';
import type { SnapProblem } from './capture.ts';

const pair = (zh: string, en: string): Message => (lang: Lang) => (lang === 'zh' ? zh : en);

export const MediaMessages = {
  /** The spec's video message "capture failed, retry". */
  captureFailed: pair('抓拍失败，请重试', 'Capture failed, retry'),
  deviceOffline: pair('设备不在线', 'The device is offline'),
  noCamera: pair('设备上没有该摄像头', 'No camera on the device for that channel'),
  deviceNoReply: pair('设备未应答', 'The device did not reply'),
  vehicleNotFound: pair('车辆不存在或不在您的管辖范围内', 'The vehicle does not exist or is outside your companies'),
  alarmNotFound: pair('报警不存在或不在您的管辖范围内', 'The alarm does not exist or is outside your companies'),
  alarmOfOtherVehicle: pair('该报警不属于这辆车', 'The alarm belongs to another vehicle'),
  mediaNotFound: pair('多媒体不存在或不在您的管辖范围内', 'The media item does not exist or is outside your companies'),
  fileMissing: pair('多媒体文件已不存在', 'The media file no longer exists'),
  noMediaPermission: pair('没有查看多媒体的权限', 'You have no permission to view media'),
  startAfterEnd: pair('开始时间不能晚于结束时间', 'The start time cannot be after the end time'),
  periodTooLong: (days: number): Message => pair(`查询时间段不能超过${days}天`, `The period cannot exceed ${days} days`),
  noSearch: pair('还没有对该车辆检索过设备多媒体', 'No device media search has been made for this vehicle yet'),
};

export function snapProblemText(problem: SnapProblem, lang: Lang): string {
  switch (problem) {
    case 'offline': return MediaMessages.deviceOffline(lang);
    case 'noCamera': return MediaMessages.noCamera(lang);
    case 'captureFailed': return MediaMessages.captureFailed(lang);
  }
}
