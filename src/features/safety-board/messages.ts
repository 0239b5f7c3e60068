import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the safety board page. */
export const BOARD_NS = 'safetyBoard';

registerMessages(BOARD_NS, {
  zh: {
    stat: { pending: '待处理', following: '跟进中', overdue: '跟进逾期', reported: '已上报', resolved: '今日已解决', unpushed: '今日取消推送' },
    state: { pending: '待处理', following: '跟进中', reported: '已上报', resolved: '已解决', unpushed: '已取消推送' },
    risk: { high: '高风险', medium: '中风险' },
    filter: {
      states: '状态', statesPlaceholder: '未结事项', risk: '风险等级', company: '公司', companyPlaceholder: '输入公司名称搜索', vehicles: '车辆',
      vehiclesPlaceholder: '输入车牌号搜索', overdue: '仅看逾期', search: '查询', reset: '重置',
    },
    field: {
      plate: '车牌号', company: '所属公司', state: '状态', risk: '风险等级', alarms: '报警数', lastAlarm: '最近报警', lastTime: '最近报警时间',
      nextFollow: '下次跟进', handler: '处理人', note: '最近说明', firstTime: '首次报警时间', followCount: '跟进次数', reportTime: '上报时间',
      closeTime: '结束时间', muteUntil: '屏蔽至', action: '操作', device: '终端号',
    },
    overdueBadge: '逾期',
    total: '共 {{total}} 项',
    empty: '看板上没有符合条件的事项',
    detail: '详情',
    liveHint: '新报警到达或有人处理时自动刷新',
    title: '安全看板',
    button: { follow: '跟进', continueFollow: '继续跟进', cancelFollow: '取消跟进', report: '上传', resolve: '解决', unpush: '取消推送' },
    form: {
      note: '说明', notePlaceholder: '处理情况或原因', nextFollow: '下次跟进时间', muteMinutes: '屏蔽时长（分钟）', submit: '提交', cancel: '取消',
      noteRequired: '请填写说明', nextFollowRequired: '请选择下次跟进时间', nextFollowPast: '下次跟进时间必须晚于现在', nextFollowTooFar: '下次跟进时间不能超过30天后',
      muteHint: '屏蔽期间该车的新报警并入本事项，不再上看板',
    },
    done: {
      follow: '已跟进', continueFollow: '已继续跟进', cancelFollow: '已取消跟进', report: '已上报', resolve: '已解决，{{count}} 条报警已处理',
      unpush: '已取消推送，{{count}} 条报警已处理',
    },
    failed: { follow: '跟进或取消跟进失败', continueFollow: '跟进或取消跟进失败', cancelFollow: '跟进或取消跟进失败', report: '上传失败', resolve: '处理失败', unpush: '处理失败' },
    alarms: '车辆报警', alarmsEmpty: '暂无报警', log: '操作记录', logEmpty: '暂无操作记录', platform: '平台',
    alarm: { name: '报警类型', time: '报警时间', risk: '风险', status: '处理状态' },
    alarmRisk: { high: '高', medium: '中', low: '低', ordinary: '一般' },
    alarmStatus: { 0: '未处理', 1: '自动处理', 2: '人工处理', 3: '无效报警' },
    logField: { time: '时间', user: '操作人', action: '动作', change: '状态变化', note: '说明' },
    loadFailed: '看板加载失败',
  },
  en: {
    stat: { pending: 'Pending', following: 'Following', overdue: 'Follow-up overdue', reported: 'Reported', resolved: 'Resolved today', unpushed: 'Unpushed today' },
    state: { pending: 'Pending', following: 'Following', reported: 'Reported', resolved: 'Resolved', unpushed: 'Unpushed' },
    risk: { high: 'High', medium: 'Medium' },
    filter: {
      states: 'State', statesPlaceholder: 'Open items', risk: 'Risk level', company: 'Company', companyPlaceholder: 'Search a company', vehicles: 'Vehicles',
      vehiclesPlaceholder: 'Search a plate', overdue: 'Overdue only', search: 'Search', reset: 'Reset',
    },
    field: {
      plate: 'Plate', company: 'Company', state: 'State', risk: 'Risk level', alarms: 'Alarms', lastAlarm: 'Latest alarm', lastTime: 'Latest alarm time',
      nextFollow: 'Next follow-up', handler: 'Handled by', note: 'Latest note', firstTime: 'First alarm', followCount: 'Follow-ups', reportTime: 'Reported at',
      closeTime: 'Closed at', muteUntil: 'Muted until', action: 'Action', device: 'Terminal',
    },
    overdueBadge: 'Overdue',
    total: '{{total}} items',
    empty: 'No board items match',
    detail: 'Details',
    liveHint: 'Refreshes when alarms arrive or anyone handles them',
    title: 'Safety board',
    button: { follow: 'Follow', continueFollow: 'Continue follow', cancelFollow: 'Cancel follow', report: 'Upload', resolve: 'Resolve', unpush: 'Unpush' },
    form: {
      note: 'Note', notePlaceholder: 'What was done, or why', nextFollow: 'Next follow-up', muteMinutes: 'Mute for (minutes)', submit: 'Submit', cancel: 'Cancel',
      noteRequired: 'Write a note', nextFollowRequired: 'Choose the next follow-up time', nextFollowPast: 'The next follow-up must be in the future', nextFollowTooFar: 'The next follow-up must be within 30 days',
      muteHint: 'While muted, new alarms of this vehicle join this item instead of the board',
    },
    done: {
      follow: 'Following', continueFollow: 'Follow-up extended', cancelFollow: 'Follow cancelled', report: 'Reported', resolve: 'Resolved; {{count}} alarms handled', resolve_one: 'Resolved; {{count}} alarm handled',
      unpush: 'Unpushed; {{count}} alarms handled', unpush_one: 'Unpushed; {{count}} alarm handled',
    },
    failed: { follow: 'Follow or unfollow failed', continueFollow: 'Follow or unfollow failed', cancelFollow: 'Follow or unfollow failed', report: 'Upload failed', resolve: 'Processing failed', unpush: 'Processing failed' },
    alarms: 'Vehicle alarms', alarmsEmpty: 'No alarms', log: 'Action log', logEmpty: 'No actions yet', platform: 'Platform',
    alarm: { name: 'Alarm type', time: 'Alarm time', risk: 'Risk', status: 'Processing state' },
    alarmRisk: { high: 'High', medium: 'Medium', low: 'Low', ordinary: 'Ordinary' },
    alarmStatus: { 0: 'Not processed', 1: 'Automatically processed', 2: 'Manually processed', 3: 'Invalid' },
    logField: { time: 'Time', user: 'By', action: 'Action', change: 'State', note: 'Note' },
    loadFailed: 'The board could not be loaded',
  },
});
