import { registerMessages } from '../../i18n/index.ts';

/** i18n namespace of the accident analysis screens (issue 19). Level, type, responsibility and state words come from domain/accidents/rules.ts. */
export const ACCIDENTS_NS = 'accidents';

registerMessages(ACCIDENTS_NS, {
  zh: {
    manualTitle: '人工处理', publicityTitle: '事故公示', search: '搜索车牌、地点或司机', publicitySearch: '搜索车牌、地点或案例标题',
    plate: '车牌', time: '事故时间', estimatedTime: '预估事故时间', place: '事故地点', lng: '经度', lat: '纬度', type: '事故类型', level: '事故等级', state: '处理状态',
    responsibility: '事故责任', casualties: '伤亡', lightInjuries: '轻伤人数', seriousInjuries: '重伤人数', deaths: '死亡人数', propertyLoss: '财产损失（元）',
    description: '事故经过', driver: '驾驶员', vin: 'VIN', frameNo: '车架号', sourceProject: '来源项目', company: '所属单位', alarms: '关联告警', window: '告警时间窗（前后分钟）',
    createTitle: '登记事故', editTitle: '修改事故：{{plate}}', deleteConfirm: '删除 {{plate}} 的事故记录？', vehicle: '车辆', vehicleRequired: '请选择车辆', timeRequired: '请填写事故时间',
    placeRequired: '请填写事故地点', autoLevel: '按伤亡自动定级', levelHint: '按伤亡和损失至少为{{level}}', noAlarms: '该时间窗内没有告警', pickVehicleTime: '选择车辆和时间后列出该车的告警',
    alarmTime: '告警时间', alarmName: '告警类型', speed: '速度 km/h', detail: '详情', detailTitle: '事故详情：{{plate}}', media: '照片', recordings: '录像', noMedia: '时间窗内没有照片',
    noRecordings: '时间窗内没有已上传的录像', track: '轨迹回放', trackOpen: '查看事故前后轨迹', channel: '通道 {{n}}', files: '证据文件', noFiles: '暂无证据文件',
    published: '已公示', unpublished: '未公示', all: '全部', publish: '发布', republish: '修改公示', unpublish: '取消公示', unpublishConfirm: '取消公示“{{title}}”？各单位将不再看到此案例。',
    publishTitle: '发布安全教育案例：{{plate}}', caseTitle: '案例标题', caseSummary: '案例摘要', companies: '公示单位（含下级单位）', companiesRequired: '请选择公示单位', titleRequired: '请填写案例标题', summaryRequired: '请填写案例摘要',
    done: '已发布', unpublishedDone: '已取消公示', upload: '上传证据', uploadTitle: '上传证据：{{plate}}', file: '证据文件', fileHint: 'JPEG、PNG 图片，MP4 视频或 PDF，最大 50 MiB，一次一个文件（按文件内容识别类型）', fileRequired: '请选择文件', fileTooBig: '文件不能超过 50 MiB',
    uploaded: '已上传“{{name}}”', save: '上传', open: '查看', removeFile: '删除', removeFileConfirm: '删除证据“{{name}}”？', ownCase: '本单位', sharedCase: '{{company}} 公示', publisher: '发布人', publishTime: '发布时间',
    minor: '（轻微）', createdBy: '登记人', updateTime: '更新时间', filterType: '全部类型', filterLevel: '全部等级', filterState: '全部状态',
  },
  en: {
    manualTitle: 'Handle manually', publicityTitle: 'Accident notices', search: 'Search plate, place or driver', publicitySearch: 'Search plate, place or case title',
    plate: 'Plate', time: 'Accident time', estimatedTime: 'Estimated accident time', place: 'Place', lng: 'Longitude', lat: 'Latitude', type: 'Type', level: 'Level', state: 'State',
    responsibility: 'Responsibility', casualties: 'Casualties', lightInjuries: 'Light injuries', seriousInjuries: 'Serious injuries', deaths: 'Deaths', propertyLoss: 'Property loss (yuan)',
    description: 'What happened', driver: 'Driver', vin: 'VIN', frameNo: 'Frame number', sourceProject: 'Source project', company: 'Company', alarms: 'Linked alarms', window: 'Alarm window (± minutes)',
    createTitle: 'File an accident', editTitle: 'Edit accident: {{plate}}', deleteConfirm: 'Delete the accident of {{plate}}?', vehicle: 'Vehicle', vehicleRequired: 'Choose the vehicle', timeRequired: 'Enter the accident time',
    placeRequired: 'Enter the place', autoLevel: 'Graded from the casualties', levelHint: 'By casualties and loss at least {{level}}', noAlarms: 'No alarm in this window', pickVehicleTime: 'Choose a vehicle and a time to list its alarms',
    alarmTime: 'Alarm time', alarmName: 'Alarm', speed: 'Speed km/h', detail: 'Details', detailTitle: 'Accident: {{plate}}', media: 'Photos', recordings: 'Recordings', noMedia: 'No photo in the window',
    noRecordings: 'No uploaded recording in the window', track: 'Track playback', trackOpen: 'Track around the accident', channel: 'Channel {{n}}', files: 'Evidence', noFiles: 'No evidence yet',
    published: 'Published', unpublished: 'Not published', all: 'All', publish: 'Publish', republish: 'Edit publication', unpublish: 'Unpublish', unpublishConfirm: 'Unpublish "{{title}}"? The companies will no longer see this case.',
    publishTitle: 'Publish a safety case: {{plate}}', caseTitle: 'Case title', caseSummary: 'Case summary', companies: 'Companies (with their sub-companies)', companiesRequired: 'Choose the companies', titleRequired: 'Enter the case title', summaryRequired: 'Enter the case summary',
    done: 'Published', unpublishedDone: 'Unpublished', upload: 'Upload evidence', uploadTitle: 'Upload evidence: {{plate}}', file: 'Evidence file', fileHint: 'JPEG or PNG image, MP4 video or PDF, at most 50 MiB, one file at a time (the type is read from the content)', fileRequired: 'Choose the file', fileTooBig: 'The file must be at most 50 MiB',
    uploaded: 'Uploaded "{{name}}"', save: 'Upload', open: 'Open', removeFile: 'Delete', removeFileConfirm: 'Delete the evidence "{{name}}"?', ownCase: 'Own company', sharedCase: 'Published by {{company}}', publisher: 'Published by', publishTime: 'Published',
    minor: '(minor)', createdBy: 'Filed by', updateTime: 'Updated', filterType: 'All types', filterLevel: 'All levels', filterState: 'All states',
  },
});
