import { registerReportMessages } from '../engine-report/messages.ts';

/** i18n namespace of the fuel report pages (issue 18). */
export const FUEL_REPORTS_NS = 'fuelReports';

registerReportMessages(FUEL_REPORTS_NS, {
  zh: {
    title: {
      oilSummary: '油耗汇总',
      oilDaily: '油耗日报',
      oilChart: '油耗图表',
      oilAddDetails: '加油明细',
      oilLeakageDetails: '漏油明细',
    },
    filter: {
      date: '日期',
      pickOne: '请在左侧勾选一辆车',
      onlyOne: '油耗图表一次只看一辆车，已选{{count}}辆',
      badDate: '请选择日期',
    },
    col: {
      days: '有数据天数', startLevel: '期初油量(L)', endLevel: '期末油量(L)',
      refuels: '加油次数', refuelled: '加油量(L)', leaks: '漏油次数', leaked: '漏油量(L)', consumed: '耗油量(L)', km: '里程(km)',
      per100km: '百公里油耗(L)', samples: '油量读数', start: '开始时间', end: '结束时间', before: '之前油量(L)', after: '之后油量(L)',
      litres: '油量(L)', place: '位置',
    },
    chart: {
      raw: '油量读数(L)', smooth: '平滑油量(L)', refuel: '加油', leak: '漏油', empty: '该车当天没有油量数据',
      figures: '期初 {{start}} L，期末 {{end}} L，加油 {{refuelled}} L，漏油 {{leaked}} L，耗油 {{consumed}} L，里程 {{km}} km',
    },
    chartLink: '油耗图表',
    note: {
      summary: '油量来自油位传感器（0x0200 附加信息 0x02）。读数取 5 个的中值平滑；停车时 30 分钟内上升 ≥10 L 记为加油；下降超出油耗可解释的量 ≥8 L 记为漏油；耗油量 = 期初 − 期末 + 加油 − 漏油。',
      chart: '灰线为原始读数（行驶中的晃动会跳动），蓝线为平滑后的油量；绿色竖线为加油，红色竖线为漏油。',
    },
  },
  en: {
    title: {
      oilSummary: 'Fuel summary',
      oilDaily: 'Fuel daily',
      oilChart: 'Fuel chart',
      oilAddDetails: 'Refuelling details',
      oilLeakageDetails: 'Fuel leakage details',
    },
    filter: {
      date: 'Date',
      pickOne: 'Check one vehicle in the tree',
      onlyOne: 'The fuel chart shows one vehicle at a time; {{count}} are checked',
      badDate: 'Choose a date',
    },
    col: {
      days: 'Days with data', startLevel: 'Start level (L)', endLevel: 'End level (L)',
      refuels: 'Refuels', refuelled: 'Refuelled (L)', leaks: 'Leaks', leaked: 'Leaked (L)', consumed: 'Consumed (L)', km: 'Distance (km)',
      per100km: 'L/100 km', samples: 'Readings', start: 'Start', end: 'End', before: 'Level before (L)', after: 'Level after (L)',
      litres: 'Litres', place: 'Position',
    },
    chart: {
      raw: 'Reading (L)', smooth: 'Smoothed level (L)', refuel: 'Refuel', leak: 'Leak', empty: 'No fuel readings for this vehicle on this day',
      figures: 'Start {{start}} L, end {{end}} L, refuelled {{refuelled}} L, leaked {{leaked}} L, consumed {{consumed}} L, {{km}} km',
    },
    chartLink: 'Fuel chart',
    note: {
      summary: 'Levels come from the fuel sensor (0x0200 item 0x02), smoothed as the median of 5 readings. A rise of ≥ 10 L within 30 minutes while stopped is a refuel; a drop ≥ 8 L beyond what consumption can explain is a leak; consumed = start − end + refuelled − leaked.',
      chart: 'Grey: raw readings (sloshing while driving makes them jump); blue: the smoothed level; green lines are refuels, red lines leaks.',
    },
  },
}, { wholeCompany: true });
