import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the device-type page. */
export const DEVICE_TYPE_NS = 'deviceType';

registerMessages(DEVICE_TYPE_NS, {
  zh: {
    title: '设备类型',
    keywordPlaceholder: '类型名称 / 制造商ID / 终端型号',
    name: '设备类型名称',
    protocol: '协议版本',
    makerId: '制造商ID',
    model: '终端型号',
    remark: '备注',
    updateTime: '修改时间',
    createTitle: '新增设备类型',
    editTitle: '修改设备类型：{{name}}',
    deleteConfirm: '确定要删除设备类型「{{name}}」吗？',
    required: '必填',
    max: '最多 {{max}} 个字符',
    ascii: '只能包含英文字母、数字和常用符号',
    registration: '{{protocol}} 终端注册时最多 {{max}} 个字符',
  },
  en: {
    title: 'Device types',
    keywordPlaceholder: 'Type name / maker ID / model',
    name: 'Type name',
    protocol: 'Protocol',
    makerId: 'Maker ID',
    model: 'Model',
    remark: 'Remark',
    updateTime: 'Last changed',
    createTitle: 'Add device type',
    editTitle: 'Edit device type: {{name}}',
    deleteConfirm: 'Delete the device type “{{name}}”?',
    required: 'Required',
    max: 'At most {{max}} characters',
    ascii: 'Letters, digits and common symbols only (ASCII)',
    registration: '{{protocol}} terminals register at most {{max}} characters',
  },
});
