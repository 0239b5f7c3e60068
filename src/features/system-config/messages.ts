import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of /system/dictionary and /system/param. Validation texts come from domain/errors/field-problem.ts. */
export const SYSCONF_NS = 'sysconf';

registerMessages(SYSCONF_NS, {
  zh: {
    param: {
      title: '系统参数', groups: '参数分组', all: '全部参数', name: '参数名称', key: '参数键', value: '当前值', defaultValue: '默认值',
      scope: '范围', platform: '平台', company: '公司', range: '取值范围', updatedBy: '修改人', updateTime: '修改时间',
      edit: '修改', reset: '恢复默认', isDefault: '默认', editTitle: '修改参数：{{name}}', create: '新增参数', createTitle: '新增参数',
      kind: '类型', kinds: { group: '分组', int: '整数', number: '数字', enum: '枚举', duration: '时长（分钟）', time: '时刻', text: '文本' },
      min: '最小值', max: '最大值', unit: '单位', options: '选项（每行一个：值=名称）', nameEn: '英文名称', parent: '上级分组',
      delete: '删除', deleteConfirm: '删除参数「{{name}}」？', timeHint: '格式 HH:mm', companyNote: '公司参数：对所选公司生效', platformNote: '平台参数：只有平台管理员可以修改',
      reserved: '内置',
    },
    dict: {
      title: '数据字典', kinds: '字典类型', code: '编码', cnname: '中文名称', enname: '英文名称', sort: '排序', enabled: '启用', remark: '备注',
      createKind: '新增类型', createCode: '新增字典项', edit: '修改', editTitle: '修改字典项', delete: '删除', deleteConfirm: '删除字典项「{{name}}」？',
      pickKind: '请先在左侧选择字典类型', builtin: '内置', on: '启用', off: '停用', kindOf: '类型：{{name}}',
    },
  },
  en: {
    param: {
      title: 'System parameters', groups: 'Parameter groups', all: 'All parameters', name: 'Parameter', key: 'Key', value: 'Value', defaultValue: 'Default',
      scope: 'Scope', platform: 'Platform', company: 'Company', range: 'Range', updatedBy: 'Changed by', updateTime: 'Changed at',
      edit: 'Edit', reset: 'Reset to default', isDefault: 'default', editTitle: 'Edit parameter: {{name}}', create: 'Add parameter', createTitle: 'Add parameter',
      kind: 'Kind', kinds: { group: 'Group', int: 'Integer', number: 'Number', enum: 'Enum', duration: 'Duration (min)', time: 'Time of day', text: 'Text' },
      min: 'Minimum', max: 'Maximum', unit: 'Unit', options: 'Options (one per line: value=label)', nameEn: 'English name', parent: 'Group',
      delete: 'Delete', deleteConfirm: 'Delete parameter "{{name}}"?', timeHint: 'Format HH:mm', companyNote: 'Company parameter: applies to the selected company', platformNote: 'Platform parameter: only a platform administrator can change it',
      reserved: 'Built-in',
    },
    dict: {
      title: 'Data dictionary', kinds: 'Kinds', code: 'Code', cnname: 'Chinese name', enname: 'English name', sort: 'Order', enabled: 'Enabled', remark: 'Remark',
      createKind: 'Add kind', createCode: 'Add code', edit: 'Edit', editTitle: 'Edit entry', delete: 'Delete', deleteConfirm: 'Delete entry "{{name}}"?',
      pickKind: 'Pick a kind on the left first', builtin: 'Built-in', on: 'On', off: 'Off', kindOf: 'Kind: {{name}}',
    },
  },
});
