import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the alarm settings, linkage and platform level pages. */
export const ALARM_SETTINGS_NS = 'alarmSettings';

registerMessages(ALARM_SETTINGS_NS, {
  zh: {
    title: { settings: '报警设置', linkage: '报警联动', levels: '平台报警等级' },
    field: {
      code: '编码', name: '报警类型', group: '报警分类', enabled: '启用', autoHandle: '自动处理', popup: '弹窗', voice: '声音', tts: 'TTS语音',
      origin: '设置来源', level: '风险等级', defaultLevel: '默认等级',
    },
    origin: { own: '本公司', inherited: '继承自公司 {{id}}', default: '系统默认' },
    filter: { group: '报警分类', allGroups: '全部分类', search: '搜索', searchPlaceholder: '输入报警类型名称或编码' },
    batch: { on: '批量开启{{field}}', off: '批量关闭{{field}}', selected: '已选 {{count}} 项', nothing: '所选报警类型已是该状态，无需修改' },
    state: { empty: '没有符合条件的报警类型' },
    done: { switched: '已更新 {{count}} 项报警设置', saved: '已保存 {{count}} 项报警等级', levelOn: '已启用平台报警等级', levelOff: '已停用平台报警等级' },
    failed: { switched: '修改报警设置失败', saved: '保存报警等级失败', level: '修改平台报警等级开关失败', reload: '重新加载失败' },
    level: {
      master: '启用平台报警等级', masterHint: '停用时，所有报警类型使用系统默认等级', defaultOption: '默认（{{level}}）',
      save: '保存修改', reset: '撤销修改', changed: '已修改 {{count}} 项', unchanged: '没有需要保存的修改',
    },
  },
  en: {
    title: { settings: 'Alarm settings', linkage: 'Alarm actions', levels: 'Platform alarm levels' },
    field: {
      code: 'Code', name: 'Alarm type', group: 'Alarm group', enabled: 'Enabled', autoHandle: 'Auto-handle', popup: 'Pop-up', voice: 'Sound', tts: 'TTS',
      origin: 'Set by', level: 'Risk level', defaultLevel: 'Default level',
    },
    origin: { own: 'This company', inherited: 'Inherited from company {{id}}', default: 'System default' },
    filter: { group: 'Alarm group', allGroups: 'All groups', search: 'Search', searchPlaceholder: 'Alarm type name or code' },
    batch: { on: 'Turn on {{field}}', off: 'Turn off {{field}}', selected: '{{count}} selected', nothing: 'The selected alarm types already have that setting' },
    state: { empty: 'No alarm types match' },
    done: { switched: '{{count}} alarm settings updated', switched_one: '{{count}} alarm setting updated', saved: '{{count}} alarm levels saved', saved_one: '{{count}} alarm level saved', levelOn: 'Platform alarm levels enabled', levelOff: 'Platform alarm levels disabled' },
    failed: { switched: 'Changing the alarm settings failed', saved: 'Saving the alarm levels failed', level: 'Switching platform alarm levels failed', reload: 'Reloading failed' },
    level: {
      master: 'Use platform alarm levels', masterHint: 'When off, every alarm type uses its default level', defaultOption: 'Default ({{level}})',
      save: 'Save changes', reset: 'Discard changes', changed: '{{count}} changed', unchanged: 'Nothing to save',
    },
  },
});
