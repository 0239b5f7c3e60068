import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the operation dashboard (/home/index). */
export const DASHBOARD_NS = 'dashboard';

registerMessages(DASHBOARD_NS, {
  zh: {
    title: '运营看板',
    weekdays: ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'],
    enterSystem: '进入系统',
    fullscreen: '全屏',
    exitFullscreen: '退出全屏',
    noPermission: '暂无该权限！',
    loading: '加载中…',
    failed: '数据加载失败',
    empty: '暂无数据',
    online: {
      title: '在线监控', vehicleTotal: '车辆总数', vehicleOnline: '在线车辆', vehicleTodayOnline: '今日上线', vehicleRunning: '行驶车辆',
      vehicleStop: '停车车辆', vehicleYesterdayRegister: '昨日注册', riskTotal: '风险车辆', onlineRate: '在线率',
    },
    mileage: { title: '运营情况', km: '里程（km）', hours: '行驶时长（h）', total: '7日合计 {{km}} km · {{hours}} h', pending: '（{{days}} 天正在统计）' },
    health: { title: '运维情况', deviceCount: '设备总数', t1: '遮挡/摄像头异常', t2: '摄像头存储超限', healthy: '正常设备' },
    map: { vehicleTotal: '车辆总数', yesterdayRegister: '昨日注册', alarmToday: '今日报警', online: '在线' },
    onlineRate: { title: '在线率统计', company: '公司', rate: '在线率' },
    running: { title: '实时报警', empty: '今日暂无报警', time: '时间', type: '报警类型', level: '等级' },
    yesterday: { title: '昨日报警', dms: '驾驶员（DMS）', adas: '车辆（ADAS）', total: '共 {{count}} 起' },
    risk: { title: '风险排名', plate: '车牌号', score: '风险分', empty: '近30天暂无风险车辆' },
    radar: { title: '驾驶员报警分布', period: '近30天' },
    level: { high: '高', medium: '中', low: '低', ordinary: '一般' },
    guide: {
      title: '新手引导（{{step}}/{{total}}）',
      steps: [
        '左侧：在线监控、近7日里程与行驶时长、设备运维情况，点击可进入对应页面。',
        '中间：车辆分布地图（实时推送）、车辆总数、昨日注册与今日报警；下方为在线率与实时报警。',
        '右侧：昨日报警（DMS / ADAS）、风险排名前5与驾驶员报警分布。',
        '点击“进入系统”开始使用各功能模块。',
      ],
      next: '下一步', prev: '上一步', ignore: '忽略', enter: '进入系统',
    },
  },
  en: {
    title: 'Operations dashboard',
    weekdays: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
    enterSystem: 'Enter the console',
    fullscreen: 'Full screen',
    exitFullscreen: 'Exit full screen',
    noPermission: 'You do not have permission for this.',
    loading: 'Loading…',
    failed: 'Could not load the data',
    empty: 'No data',
    online: {
      title: 'Online monitoring', vehicleTotal: 'Vehicles', vehicleOnline: 'Online', vehicleTodayOnline: 'Online today', vehicleRunning: 'Driving',
      vehicleStop: 'Parked', vehicleYesterdayRegister: 'Added yesterday', riskTotal: 'At risk', onlineRate: 'Online rate',
    },
    mileage: { title: 'Operations', km: 'Distance (km)', hours: 'Driving time (h)', total: '7 days: {{km}} km · {{hours}} h', pending: ' ({{days}} days still being counted)' },
    health: { title: 'Device health', deviceCount: 'Devices', t1: 'Camera blocked or faulty', t2: 'Camera storage full', healthy: 'Healthy' },
    map: { vehicleTotal: 'Vehicles', yesterdayRegister: 'Added yesterday', alarmToday: 'Alarms today', online: 'Online' },
    onlineRate: { title: 'Online rate by company', company: 'Company', rate: 'Online rate' },
    running: { title: 'Live alarms', empty: 'No alarms today', time: 'Time', type: 'Alarm', level: 'Level' },
    yesterday: { title: 'Yesterday’s alarms', dms: 'Driver (DMS)', adas: 'Vehicle (ADAS)', total: '{{count}} in all' },
    risk: { title: 'Risk ranking', plate: 'Plate', score: 'Risk score', empty: 'No vehicles at risk in the last 30 days' },
    radar: { title: 'Driver alarms', period: 'Last 30 days' },
    level: { high: 'High', medium: 'Medium', low: 'Low', ordinary: 'Minor' },
    guide: {
      title: 'Quick tour ({{step}}/{{total}})',
      steps: [
        'Left: online monitoring, distance and driving time of the last 7 days, device health. Click a panel to open its page.',
        'Centre: the fleet on the map (live), vehicles, vehicles added yesterday and today’s alarms; below, online rates and live alarms.',
        'Right: yesterday’s alarms (DMS / ADAS), the 5 riskiest vehicles and the driver alarm radar.',
        'Click “Enter the console” to start working.',
      ],
      next: 'Next', prev: 'Back', ignore: 'Skip', enter: 'Enter the console',
    },
  },
});
