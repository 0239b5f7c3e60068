import { describe, expect, it } from 'vitest';
import { checkAddChannels, checkDailyConnections, isVideoProblem, playTypeKey, videoMessage } from './limits.ts';

describe('live video limits', () => {
  it('refuses the 26th channel and prompts when 20 are reached', () => {
    expect(checkAddChannels(24, 1)).toBe('ok');
    expect(checkAddChannels(25, 1)).toBe('refuse');
    expect(checkAddChannels(16, 9)).toBe('prompt');
    expect(checkAddChannels(19, 1)).toBe('prompt');
    expect(checkAddChannels(20, 1)).toBe('ok');
    expect(checkAddChannels(4, 4)).toBe('ok');
  });

  it('refuses a live-video connection once the day\'s count is used up, and only then', () => {
    expect(checkDailyConnections(0, 1)).toBe('ok');
    expect(checkDailyConnections(1, 1)).toBe('refuse');
    expect(checkDailyConnections(199, 200)).toBe('ok');
    expect(checkDailyConnections(5, 0)).toBe('refuse');
  });

  it('stores the play type of windows 0 to 24 only', () => {
    expect(playTypeKey(0)).toBe('playType0');
    expect(playTypeKey(24)).toBe('playType24');
    expect(() => playTypeKey(25)).toThrow(RangeError);
  });

  it('names every video problem in both languages', () => {
    expect(videoMessage('dailyLimit', 'zh')).toBe('今日实时视频连接次数已达上限，请明天再试');
    expect(videoMessage('vehicleOffline', 'en')).toBe('The vehicle is not online, video cannot play');
    expect(isVideoProblem('timeout')).toBe(true);
    expect(isVideoProblem('toString')).toBe(false);
  });
});
