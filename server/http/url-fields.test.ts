/**
 * Stored URLs are http(s) or relative (issue 12 §3): a `javascript:` alarm sound URL would run script
 * in the console of whoever's alarm pop-up loads it; `data:` and `file:` have no place there either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness.ts';

const SET = '/service-safe/usersetting/doUserAlarmPopSettingDetailVoiceUrl';
const GET = '/service-safe/usersetting/findUserAlarmPopSettingDetail';

describe('URL fields', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer({ seedVehicles: 0 });
    token = await server.login('operator', 'operator123');
  });
  afterAll(() => server.close());

  it('refuse script, data and file URLs with 400 naming the field, and keep the stored one', async () => {
    const stored = await server.call('POST', SET, { token, body: { voiceUrl: 'https://cdn.example.com/alarm.mp3' } });
    expect(stored.status).toBe(200);
    for (const voiceUrl of ['javascript:alert(document.cookie)', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:audio/mp3;base64,AAAA', 'file:///etc/passwd']) {
      const en = await server.call('POST', SET, { token, lang: 'en', body: { voiceUrl } });
      expect(en.status, voiceUrl).toBe(400);
      expect(en.msg, voiceUrl).toBe('Field voiceUrl is invalid: must be an http(s) or relative URL');
      const zh = await server.call('POST', SET, { token, body: { voiceUrl } });
      expect(zh.msg, voiceUrl).toBe('字段 voiceUrl 不合法：只能是 http(s) 地址或相对地址');
    }
    const after = await server.call<{ voiceUrl: string }>('GET', GET, { token });
    expect(after.data.voiceUrl).toBe('https://cdn.example.com/alarm.mp3');
  });

  it('accept http(s), relative and empty URLs', async () => {
    for (const voiceUrl of ['http://sounds.example/a.wav', '/bcmp-web/sounds/a.mp3', 'a.mp3', '']) {
      const r = await server.call<{ voiceUrl: string }>('POST', SET, { token, body: { voiceUrl } });
      expect(r.status, voiceUrl).toBe(200);
      expect(r.data.voiceUrl).toBe(voiceUrl);
    }
  });
});
