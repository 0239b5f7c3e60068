import { describe, expect, it } from 'vitest';
import { noCameraMessage, videoChannels, type DeviceChannels } from './channels.ts';

const list = (source: DeviceChannels['source'], channels: DeviceChannels['channels']): DeviceChannels => ({ source, reportedTime: null, channels });

describe('device channels in the console', () => {
  it('opens only video channels (an audio pick-up is not a camera)', () => {
    const d = list('record', [{ channel: 1, kind: 'video', name: '驾驶员' }, { channel: 33, kind: 'audio', name: '拾音' }]);
    expect(videoChannels(d).map((c) => c.channel)).toEqual([1]);
    expect(noCameraMessage(d, 'zh')).toBeNull();
  });

  it('says the spec\'s "no camera on device" when the terminal or the record says there is none', () => {
    expect(noCameraMessage(list('terminal', []), 'zh')).toBe('该设备没有摄像头');
    expect(noCameraMessage(list('record', [{ channel: 33, kind: 'audio', name: '' }]), 'en')).toBe('The device has no camera');
  });

  it('says "unknown", not "no camera", when nothing is known about the device', () => {
    expect(noCameraMessage(list('unknown', []), 'zh')).toMatch(/^通道未知/);
    expect(noCameraMessage(list('unknown', []), 'en')).toMatch(/^Channels unknown/);
  });
});
