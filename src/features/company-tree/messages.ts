import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the company tree panel. */
export const COMPANY_TREE_NS = 'companyTree';

registerMessages(COMPANY_TREE_NS, {
  zh: {
    searchPlaceholder: '搜索公司、车辆或线路',
    searching: '搜索中…',
    clear: '清除',
    noHits: '没有匹配的节点',
    empty: '暂无公司',
    loading: '加载中…',
    loadFailed: '加载失败，点击重试',
    vehicles: '{{count}} 辆',
    onlineOfTotal: '在线 {{online}} 辆 / 共 {{count}} 辆',
    expand: '展开',
    collapse: '收起',
    type: { C: '公司', V: '车辆', L: '线路' },
    maxChecked: '最多只能同时选择 {{max}} 个',
    checkedCount: '已选 {{count}} / {{max}}',
    treeLabel: '公司树',
  },
  en: {
    searchPlaceholder: 'Search companies, vehicles or lines',
    searching: 'Searching…',
    clear: 'Clear',
    noHits: 'No matching nodes',
    empty: 'No companies',
    loading: 'Loading…',
    loadFailed: 'Loading failed, click to retry',
    vehicles: '{{count}} vehicles', vehicles_one: '{{count}} vehicle',
    onlineOfTotal: '{{online}} online of {{count}}',
    expand: 'Expand',
    collapse: 'Collapse',
    type: { C: 'Company', V: 'Vehicle', L: 'Line' },
    maxChecked: 'At most {{max}} can be selected at once',
    checkedCount: '{{count}} / {{max}} selected',
    treeLabel: 'Company tree',
  },
});
