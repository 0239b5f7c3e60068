import { registerMessages } from '../../../i18n/index.ts';

/** i18n namespace of the compact alarm pop-up (live map) and its alarm detail dialog. */
export const POPUP_NS = 'alarmPopup';

registerMessages(POPUP_NS, {
  zh: {
    expand: '展开',
    expandHint: '展开完整的报警弹窗（全部按钮和更多报警）',
    compact: '精简',
    compactHint: '收窄报警弹窗，给地图留出空间',
    detail: '详情',
    video: '视频',
    more: '另有 {{count}} 条',
    loading: '正在读取报警详情…',
    failed: '报警详情读取失败：{{message}}',
  },
  en: {
    expand: 'Expand',
    expandHint: 'Show the full alarm pop-up (every button and more alarms)',
    compact: 'Compact',
    compactHint: 'Narrow the alarm pop-up to give the map more room',
    detail: 'Details',
    video: 'Video',
    more: '{{count}} more',
    loading: 'Loading the alarm details…',
    failed: 'Could not load the alarm details: {{message}}',
  },
});
