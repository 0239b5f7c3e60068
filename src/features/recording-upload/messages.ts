import { registerMessages } from '../../i18n/index.ts';

/**
 * i18n namespace of /monitor/mediaRemoteExtraction1 ("video callback"). Refusals and failure reasons
 * come from the server in the caller's language (domain/video/recording-upload.ts `uploadMessage`).
 */
export const RECORDING_UPLOAD_NS = 'recordingUpload';

registerMessages(RECORDING_UPLOAD_NS, {
  zh: {
    title: '视频回调',
    channelName: '通道 {{n}}',
    upload: '上传到服务器',
    listTerminal: '查询终端录像',
    listing: '正在查询终端录像…',
    terminalList: '终端录像（{{n}} 段）',
    noTerminalRecordings: '该时段终端没有录像',
    uploadThis: '上传',
    requested: '已下发上传指令',
    tasks: '我的上传任务',
    noTasks: '还没有上传任务',
    refresh: '刷新',
    invalidPeriod: '开始时间必须早于结束时间，且一次最多上传24小时',
    col: { vehicle: '车辆', channel: '通道', period: '录像时段', state: '状态', received: '已接收', files: '文件', action: '操作', start: '开始', end: '结束', size: '大小' },
    state: { requested: '等待终端', uploading: '上传中', paused: '已暂停', done: '已完成', failed: '失败', cancelled: '已取消' },
    pause: '暂停',
    resume: '继续',
    cancel: '取消',
    play: '播放',
    download: '下载',
    player: { loading: '正在下载文件…', playing: '播放中', paused: '已暂停', ended: '播放结束', replay: '重新播放', close: '关闭', notPlayable: '文件不是可播放的 H.264 视频', frames: '第 {{n}} / {{total}} 帧' },
    decoder: { webcodecs: 'WebCodecs 解码', mse: 'MSE 回退解码' },
  },
  en: {
    title: 'Video callback',
    channelName: 'Channel {{n}}',
    upload: 'Upload to the server',
    listTerminal: 'List terminal recordings',
    listing: 'Asking the terminal for its recordings…',
    terminalList: 'Terminal recordings ({{n}})',
    noTerminalRecordings: 'The terminal has no recording in that period',
    uploadThis: 'Upload',
    requested: 'Upload instruction sent',
    tasks: 'My upload tasks',
    noTasks: 'No upload tasks yet',
    refresh: 'Refresh',
    invalidPeriod: 'The start must be before the end, and at most 24 hours can be uploaded at once',
    col: { vehicle: 'Vehicle', channel: 'Channel', period: 'Recording period', state: 'State', received: 'Received', files: 'Files', action: 'Action', start: 'Start', end: 'End', size: 'Size' },
    state: { requested: 'Waiting for the terminal', uploading: 'Uploading', paused: 'Paused', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' },
    pause: 'Pause',
    resume: 'Resume',
    cancel: 'Cancel',
    play: 'Play',
    download: 'Download',
    player: { loading: 'Downloading the file…', playing: 'Playing', paused: 'Paused', ended: 'Finished', replay: 'Play again', close: 'Close', notPlayable: 'The file is not playable H.264 video', frames: 'Frame {{n}} / {{total}}' },
    decoder: { webcodecs: 'WebCodecs decoding', mse: 'MSE fallback decoding' },
  },
});
