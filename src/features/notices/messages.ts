import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of notices, the message log and the user menu favourites (/system/message). */
export const NOTICES_NS = 'notices';

registerMessages(NOTICES_NS, {
  zh: {
    bell: { label: '消息通知', unread: '{{n}} 条未读', none: '暂无消息', allRead: '全部已读', viewAll: '查看全部', close: '关闭' },
    level: { 1: '普通', 2: '重要', 3: '紧急' },
    status: { 0: '草稿', 1: '已发布', 2: '已撤回' },
    mgm: {
      title: '消息发布', search: '按标题搜索', statusFilter: '状态', create: '新增', edit: '修改', publish: '发布', withdraw: '撤回', log: '发送记录',
      withdrawConfirm: '确定撤回消息「{{name}}」？未读的用户将不再看到它。', withdrawn: '已撤回', published: '已发布给 {{n}} 位用户',
      col: { title: '标题', level: '级别', status: '状态', targets: '接收范围', readCount: '已读 / 接收', author: '发布人', time: '发布时间', updateTime: '更新时间' },
      targetsSub: '{{name}}（含下级）', targetsUsers: '{{n}} 位用户',
    },
    form: {
      createTitle: '新增消息', editTitle: '修改消息', title: '标题', content: '内容', level: '级别',
      titleRequired: '请输入标题', contentRequired: '请输入消息内容', tooLong: '不能超过 {{n}} 个字符',
    },
    publish: {
      title: '发布消息：{{name}}', mode: '接收对象', companies: '公司', users: '指定用户', includeSub: '包含下级公司',
      pickCompanies: '选择公司', pickUsers: '搜索用户名或姓名', noTargets: '请选择接收公司或接收用户', submit: '发布',
    },
    log: { title: '发送记录', recipient: '接收人', company: '所属公司', sendTime: '发送时间', delivered: '送达时间', readTime: '阅读时间', unreadOnly: '未读', readOnly: '已读', all: '全部', notice: '消息', search: '按用户或标题搜索' },
    list: { title: '消息列表', search: '按标题搜索', read: '已读', unread: '未读', all: '全部', sender: '发送人', time: '时间', open: '查看', markAll: '全部标为已读', state: '状态' },
    fav: { label: '我的收藏', add: '收藏当前页', remove: '取消收藏当前页', none: '还没有收藏的菜单', added: '已收藏', removed: '已取消收藏' },
  },
  en: {
    bell: { label: 'Notices', unread: '{{n}} unread', none: 'No notices', allRead: 'Mark all read', viewAll: 'View all', close: 'Close' },
    level: { 1: 'Normal', 2: 'Important', 3: 'Urgent' },
    status: { 0: 'Draft', 1: 'Published', 2: 'Withdrawn' },
    mgm: {
      title: 'Message publishing', search: 'Search by title', statusFilter: 'Status', create: 'Add', edit: 'Edit', publish: 'Publish', withdraw: 'Withdraw', log: 'Delivery log',
      withdrawConfirm: 'Withdraw the notice "{{name}}"? Users who have not read it will no longer see it.', withdrawn: 'Withdrawn', published: 'Sent to {{n}} users',
      col: { title: 'Title', level: 'Level', status: 'Status', targets: 'Sent to', readCount: 'Read / sent', author: 'Author', time: 'Published', updateTime: 'Updated' },
      targetsSub: '{{name}} (with sub-companies)', targetsUsers: '{{n}} users',
    },
    form: {
      createTitle: 'Add notice', editTitle: 'Edit notice', title: 'Title', content: 'Content', level: 'Level',
      titleRequired: 'Enter a title', contentRequired: 'Enter the message content', tooLong: 'At most {{n}} characters',
    },
    publish: {
      title: 'Publish: {{name}}', mode: 'Send to', companies: 'Companies', users: 'Chosen users', includeSub: 'Include sub-companies',
      pickCompanies: 'Choose companies', pickUsers: 'Search user name or real name', noTargets: 'Choose the companies or the users to send to', submit: 'Publish',
    },
    log: { title: 'Delivery log', recipient: 'Recipient', company: 'Company', sendTime: 'Sent', delivered: 'Delivered', readTime: 'Read', unreadOnly: 'Unread', readOnly: 'Read', all: 'All', notice: 'Notice', search: 'Search user or title' },
    list: { title: 'Message list', search: 'Search by title', read: 'Read', unread: 'Unread', all: 'All', sender: 'From', time: 'Time', open: 'Open', markAll: 'Mark all read', state: 'State' },
    fav: { label: 'My favourites', add: 'Add this page', remove: 'Remove this page', none: 'No favourite menu yet', added: 'Added to favourites', removed: 'Removed from favourites' },
  },
});
