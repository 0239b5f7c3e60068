import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the fleet pickers. */
export const FLEET_PICKERS_NS = 'fleetPickers';

registerMessages(FLEET_PICKERS_NS, {
  zh: {
    search: '搜索车牌、VIN 或终端号', addAll: '全部加入（{{n}}）', chosen: '已选 {{n}} / {{max}} 辆', clear: '清空',
    noDevice: '未安装终端', full: '最多选择 {{max}} 辆车', none: '没有匹配的车辆',
  },
  en: {
    search: 'Search plate, VIN or terminal number', addAll: 'Add all ({{n}})', chosen: '{{n}} / {{max}} vehicles chosen', clear: 'Clear',
    noDevice: 'No terminal', full: 'At most {{max}} vehicles', none: 'No matching vehicle',
  },
});
