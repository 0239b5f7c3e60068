import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the period picker. */
export const PERIOD_NS = 'period';

registerMessages(PERIOD_NS, {
  zh: {
    start: '开始时间',
    end: '结束时间',
    quick: '快捷时间',
    range: {
      today: '今天',
      yesterday: '昨天',
      last3Days: '最近3天',
      last7Days: '最近7天',
      thisMonth: '本月',
      lastMonth: '上月',
    },
    problem: {
      missing: '请选择开始和结束时间',
      order: '开始时间不能晚于结束时间',
      span: '时间段不能超过 {{days}} 天',
    },
  },
  en: {
    start: 'From',
    end: 'To',
    quick: 'Quick range',
    range: {
      today: 'Today',
      yesterday: 'Yesterday',
      last3Days: 'Last 3 days',
      last7Days: 'Last 7 days',
      thisMonth: 'This month',
      lastMonth: 'Last month',
    },
    problem: {
      missing: 'Choose a start and an end',
      order: 'The start must not be after the end',
      span: 'The period must not exceed {{days}} days',
    },
  },
});
