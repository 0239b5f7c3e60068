import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of /monitor/trackPlaybackTest (track diagnosis). */
export const TRACK_DIAGNOSIS_NS = 'trackDiagnosis';

registerMessages(TRACK_DIAGNOSIS_NS, {
  zh: {
    title: '轨迹回放测试（轨迹诊断）', vehicle: '车辆', vehiclePick: '搜索车牌', date: '日期', noVehicle: '请先选择车辆', badDate: '请选择日期',
    onlyFlagged: '仅看异常点', points: '原始定位点', truncated: '当天共 {{total}} 个点，仅显示前 {{shown}} 个',
    col: { i: '序号', time: '定位时间', lnglat: '经纬度', speed: '速度 km/h', direction: '方向', status: '状态位', alarm: '报警位', judgement: '判定' },
    ok: '正常', invalid: { range: '无效：坐标越界', zero: '无效：零坐标', speed: '无效：速度异常', future: '无效：未来时间' }, drift: '漂移点',
    gap: { short: '短间隔 {{km}} km', middle: '中间隔 {{km}} km', long: '长间隔 {{km}} km' }, continuous: '（连续）', discontinuous: '（不连续）',
    stop: '停车 #{{n}}',
    metrics: { title: '当日定位指标', totalGps: '定位点', pass: '合格', error: '错误', drift: '漂移', lossTimes: '不连续次数', lossKm: '不连续里程 km', lossHours: '不连续时长 h', mileageKm: '里程 km', continuousKm: '连续里程 km', stops: '停车次数', online: '上线', operation: '营运' },
    yes: '是', no: '否', empty: '该车当天没有定位点', legend: '地图：灰色为正常点，紫色漂移，红色无效，橙色为不连续间隔的终点',
  },
  en: {
    title: 'Track playback test (track diagnosis)', vehicle: 'Vehicle', vehiclePick: 'Search a plate', date: 'Date', noVehicle: 'Choose a vehicle first', badDate: 'Choose a date',
    onlyFlagged: 'Flagged points only', points: 'Stored points', truncated: '{{total}} points that day; the first {{shown}} are shown',
    col: { i: '#', time: 'Fix time', lnglat: 'Longitude, latitude', speed: 'Speed km/h', direction: 'Heading', status: 'Status', alarm: 'Alarm', judgement: 'Judgement' },
    ok: 'OK', invalid: { range: 'Invalid: out of range', zero: 'Invalid: zero position', speed: 'Invalid: impossible speed', future: 'Invalid: future time' }, drift: 'Drift',
    gap: { short: 'Short gap {{km}} km', middle: 'Middle gap {{km}} km', long: 'Long gap {{km}} km' }, continuous: ' (continuous)', discontinuous: ' (discontinuous)',
    stop: 'Stop #{{n}}',
    metrics: { title: 'Positioning metrics of the day', totalGps: 'Points', pass: 'Pass', error: 'Errors', drift: 'Drift', lossTimes: 'Discontinuities', lossKm: 'Discontinuous km', lossHours: 'Discontinuous h', mileageKm: 'Mileage km', continuousKm: 'Continuous km', stops: 'Stops', online: 'Online', operation: 'Operating' },
    yes: 'Yes', no: 'No', empty: 'No stored points for the vehicle that day', legend: 'Map: grey valid, purple drift, red invalid, orange the end of a discontinuous gap',
  },
});
