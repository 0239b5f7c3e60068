import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of feedback threads and app push. */
export const APP_FEEDBACK_NS = 'appFeedback';

registerMessages(APP_FEEDBACK_NS, {
  zh: {
    type: { 1: '建议', 2: '故障', 3: '投诉', 4: '其他' },
    status: { 0: '待回复', 1: '已回复', 2: '已关闭' },
    fb: {
      appTitle: 'APP反馈', platformTitle: '平台反馈', search: '按标题或反馈人搜索', type: '类型', status: '状态', replied: '回复情况',
      repliedYes: '已回复过', repliedNo: '未回复过', open: '查看', unread: '{{n}} 条新消息',
      col: { title: '标题', type: '类型', status: '状态', author: '反馈人', company: '所属公司', posts: '回复', time: '提交时间', updated: '最近更新' },
      thread: '反馈详情', author: '反馈人', admin: '管理员', reply: '回复', replyPlaceholder: '输入回复内容', send: '发送回复', sent: '已回复',
      contentRequired: '请输入回复内容', tooLong: '不能超过 {{n}} 个字符', setStatus: '修改状态', close: '关闭反馈', reopen: '重新打开', closedHint: '反馈已关闭，不能再回复',
      read: '对方已读', unreadMark: '对方未读',
    },
    push: {
      title: 'APP推送', search: '按标题搜索', statusFilter: '状态', status: { 0: '草稿', 1: '已发布' }, create: '新增推送', edit: '修改', publish: '发布', detail: '送达情况',
      col: { title: '标题', content: '内容', status: '状态', progress: '送达 / 已读 / 接收', author: '发布人', time: '发布时间' },
      form: { createTitle: '新增推送', editTitle: '修改推送', title: '标题', content: '内容', titleRequired: '请输入标题', contentRequired: '请输入推送内容', tooLong: '不能超过 {{n}} 个字符' },
      pick: { title: '发布推送：{{name}}', companies: '整个公司', users: '指定APP用户', search: '搜索公司、用户名或姓名', none: '没有可推送的APP用户', noTargets: '请选择接收公司或接收的APP用户', submit: '发布', done: '已推送给 {{n}} 位APP用户', cancel: '取消' },
      rec: { user: 'APP用户', company: '所属公司', sent: '发送时间', delivered: '送达时间', read: '阅读时间', state: '状态' },
      state: { queued: '待送达', delivered: '已送达', read: '已读' },
    },
  },
  en: {
    type: { 1: 'Suggestion', 2: 'Fault', 3: 'Complaint', 4: 'Other' },
    status: { 0: 'Open', 1: 'Replied', 2: 'Closed' },
    fb: {
      appTitle: 'App feedback', platformTitle: 'Platform feedback', search: 'Search title or author', type: 'Type', status: 'Status', replied: 'Reply',
      repliedYes: 'Replied before', repliedNo: 'Never replied', open: 'Open', unread: '{{n}} new',
      col: { title: 'Title', type: 'Type', status: 'Status', author: 'Author', company: 'Company', posts: 'Replies', time: 'Raised', updated: 'Updated' },
      thread: 'Feedback', author: 'Author', admin: 'Administrator', reply: 'Reply', replyPlaceholder: 'Type the reply', send: 'Send reply', sent: 'Replied',
      contentRequired: 'Enter the reply', tooLong: 'At most {{n}} characters', setStatus: 'Change status', close: 'Close', reopen: 'Reopen', closedHint: 'The feedback is closed; no more replies',
      read: 'Read by the other side', unreadMark: 'Not read yet',
    },
    push: {
      title: 'App push', search: 'Search title', statusFilter: 'Status', status: { 0: 'Draft', 1: 'Published' }, create: 'New push', edit: 'Edit', publish: 'Publish', detail: 'Delivery',
      col: { title: 'Title', content: 'Content', status: 'Status', progress: 'Delivered / read / sent', author: 'Author', time: 'Published' },
      form: { createTitle: 'New push', editTitle: 'Edit push', title: 'Title', content: 'Content', titleRequired: 'Enter a title', contentRequired: 'Enter the message content', tooLong: 'At most {{n}} characters' },
      pick: { title: 'Publish: {{name}}', companies: 'Whole companies', users: 'Chosen app users', search: 'Search company, user name or real name', none: 'No app user to push to', noTargets: 'Choose the companies or the app users to send to', submit: 'Publish', done: 'Pushed to {{n}} app users', cancel: 'Cancel' },
      rec: { user: 'App user', company: 'Company', sent: 'Sent', delivered: 'Delivered', read: 'Read', state: 'State' },
      state: { queued: 'Queued', delivered: 'Delivered', read: 'Read' },
    },
  },
});
