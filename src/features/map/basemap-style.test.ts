import { describe, expect, it } from 'vitest';
import { bundledStyle, styleFor } from './basemap-style.ts';

describe('the default basemap', () => {
  it('is the bundled style, served from the console itself: no remote host, glyphs or sprites, so it works offline', () => {
    const style = styleFor(undefined);
    expect(style).toEqual(bundledStyle());
    const text = JSON.stringify(style);
    expect(text).not.toMatch(/[a-z]+:\/\//i);
    expect(text).not.toContain('glyphs');
    expect(text).not.toContain('sprite');
    const urls = Object.values(bundledStyle().sources).map((s) => (s as { data?: unknown }).data);
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(String(u)).toMatch(/^\/basemap\/[a-z]+\.json$/);
  });
});
