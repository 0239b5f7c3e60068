import { describe, expect, it } from 'vitest';
import { classifyAnswer, filenameFromDisposition, networkMessage, statusMessage } from './failure.ts';

describe('the HTTP status message table (spec §8)', () => {
  it.each([
    [400, '请求错误'],
    [401, '未授权，请登录'],
    [403, '拒绝访问'],
    [404, '请求地址出错'],
    [408, '请求超时'],
    [500, '服务器内部错误'],
    [501, '服务未实现'],
    [502, '网关错误'],
    [503, '服务不可用'],
    [504, '网关超时'],
    [505, 'HTTP版本不受支持'],
  ])('status %i reads %s in Chinese', (status, text) => {
    expect(statusMessage(status, 'zh')).toBe(text);
  });

  it('has English texts too', () => {
    expect(statusMessage(502, 'en')).toBe('Gateway error');
  });

  it('names an unlisted status in a generic message', () => {
    expect(statusMessage(418, 'zh')).toBe('连接错误（418）');
    expect(statusMessage(418, 'en')).toBe('Connection error (418)');
  });

  it('asks to check the network when the server cannot be reached', () => {
    expect(networkMessage('zh')).toBe('网络异常，请检查网络');
    expect(networkMessage('en')).toContain('check the network');
  });
});

describe('classifying an answer', () => {
  it('accepts code 200', () => {
    expect(classifyAnswer(200, { code: 200, msg: 'ok', data: 1 }, 'zh')).toBeNull();
  });

  it('rejects another code with the body and the server message', () => {
    const body = { code: 1001, msg: '用户名或密码错误', data: null };
    expect(classifyAnswer(200, body, 'zh')).toEqual({ code: 1001, msg: '用户名或密码错误', body });
  });

  it('falls back to the catalogue when the server sent no message', () => {
    expect(classifyAnswer(403, { code: 403 }, 'en')?.msg).toBe('Access denied');
  });

  it('uses the status table when an HTTP failure has no JSON body', () => {
    expect(classifyAnswer(502, undefined, 'zh')).toEqual({ code: 502, msg: '网关错误', body: undefined });
  });

  it('reports unreadable success answers instead of returning garbage', () => {
    expect(classifyAnswer(200, undefined, 'en')?.code).toBe(500);
  });
});

describe('export file names', () => {
  it('reads the UTF-8 file name first', () => {
    expect(filenameFromDisposition("attachment; filename=\"x.xlsx\"; filename*=UTF-8''%E7%94%A8%E6%88%B7.xlsx", 'f')).toBe('用户.xlsx');
  });

  it('reads a plain file name', () => {
    expect(filenameFromDisposition('attachment; filename="users.xlsx"', 'f')).toBe('users.xlsx');
  });

  it('falls back without a header', () => {
    expect(filenameFromDisposition(null, 'export')).toBe('export');
  });
});
