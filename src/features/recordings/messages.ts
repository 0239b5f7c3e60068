import { registerMessages } from '../../i18n/index.ts';

/**
 * i18n namespace of /monitor/mediaRemoteExtraction. Stop and control reasons come from
 * domain/video/playback.ts (`playbackMessage`, which covers the spec's video messages).
 */
export const RECORDINGS_NS = 'recordings';

registerMessages(RECORDINGS_NS, {
  zh: {
    title: '录像回放',
    pickVehicle: '请先在左侧选择车辆',
    channel: '通道',
    allChannels: '全部通道',
    channelName: '通道 {{n}}',
    start: '开始时间',
    end: '结束时间',
    alarmOnly: '仅报警录像',
    search: '查询',
    searching: '正在查询终端录像…',
    noResults: '该时段没有录像',
    results: '共 {{n}} 段录像',
    timeline: '时间轴',
    col: { channel: '通道', start: '开始时间', end: '结束时间', duration: '时长', alarm: '报警', size: '大小', action: '操作' },
    alarm: '报警',
    play: '回放',
    pause: '暂停',
    resume: '继续',
    close: '关闭',
    speed: '倍速',
    position: '录像时间',
    state: { idle: '未播放', connecting: '连接中…', playing: '回放中', paused: '已暂停', stopped: '已停止' },
    minutes: '{{n}} 分钟',
    invalidPeriod: '开始时间不能晚于结束时间，且查询时段不能超过7天',
    controlFailed: '回放控制失败：{{reason}}',
  },
  en: {
    title: 'Recording playback',
    pickVehicle: 'Pick a vehicle on the left first',
    channel: 'Channel',
    allChannels: 'All channels',
    channelName: 'Channel {{n}}',
    start: 'Start',
    end: 'End',
    alarmOnly: 'Alarm recordings only',
    search: 'Search',
    searching: 'Asking the terminal for its recordings…',
    noResults: 'No recording in that period',
    results: '{{n}} recordings',
    timeline: 'Timeline',
    col: { channel: 'Channel', start: 'Start', end: 'End', duration: 'Duration', alarm: 'Alarm', size: 'Size', action: 'Action' },
    alarm: 'Alarm',
    play: 'Play',
    pause: 'Pause',
    resume: 'Resume',
    close: 'Close',
    speed: 'Speed',
    position: 'Recording time',
    state: { idle: 'Not playing', connecting: 'Connecting…', playing: 'Playing back', paused: 'Paused', stopped: 'Stopped' },
    minutes: '{{n}} min',
    invalidPeriod: 'The start must not be after the end, and the period must not exceed 7 days',
    controlFailed: 'Playback control failed: {{reason}}',
  },
});
