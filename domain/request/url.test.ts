import { describe, expect, it } from 'vitest';
import { isHttpOrRelativeUrl, urlScheme } from './url.ts';

describe('http(s) or relative URLs only', () => {
  it('accepts web and relative addresses', () => {
    for (const ok of ['', 'https://cdn.example.com/alarm.mp3', 'HTTP://x.example/a', '/sounds/alarm.mp3', 'alarm.mp3', './a.mp3', '?v=1', '//cdn.example.com/a.mp3', '/a:b', 'https://t.example/{z}/{x}/{y}.png']) {
      expect(isHttpOrRelativeUrl(ok), ok).toBe(true);
    }
  });

  it('refuses script, data and file URLs however they are disguised', () => {
    // Each of these is read by a browser as its scheme: case, leading blanks and inner tabs/newlines do not hide it.
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', '\u0001javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'vbscript:msgbox', 'C:\\sounds\\a.mp3', 'https://x.example/\u0000a']) {
      expect(isHttpOrRelativeUrl(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(urlScheme('java\tscript:alert(1)')).toBe('javascript');
  });
});
