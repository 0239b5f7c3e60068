import { registerMessages } from '../i18n/index.ts';

/** i18n namespace of the page kit's own words (tables, filter bar, confirm dialogs). */
export const KIT_NS = 'kit';

registerMessages(KIT_NS, {
  zh: {
    search: '查询',
    reset: '重置',
    keyword: '关键字',
    create: '新增',
    edit: '修改',
    delete: '删除',
    cancel: '取消',
    confirm: '确定',
    confirmTitle: '请确认',
    deleted: '删除成功',
    deleteConfirm: '确定要删除「{{name}}」吗？此操作不可恢复。',
    actions: '操作',
    loading: '加载中…',
    empty: '暂无数据',
    loadFailed: '加载失败：{{msg}}',
    retry: '重试',
    total: '共 {{total}} 条',
    pageSize: '每页 {{size}} 条',
    range: '第 {{from}}–{{to}} 条',
  },
  en: {
    search: 'Search',
    reset: 'Reset',
    keyword: 'Keyword',
    create: 'Create',
    edit: 'Edit',
    delete: 'Delete',
    cancel: 'Cancel',
    confirm: 'OK',
    confirmTitle: 'Please confirm',
    deleted: 'Deleted',
    deleteConfirm: 'Delete “{{name}}”? This cannot be undone.',
    actions: 'Actions',
    loading: 'Loading…',
    empty: 'No data',
    loadFailed: 'Loading failed: {{msg}}',
    retry: 'Retry',
    total: '{{total}} in total',
    pageSize: '{{size}} per page',
    range: '{{from}}–{{to}}',
  },
});
