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

describe('the dark basemap variant', () => {
  it('draws the same bundled sources and layers with dark paint colours only', () => {
    const light = bundledStyle();
    const dark = bundledStyle(true);
    expect(dark.sources).toEqual(light.sources);
    expect(dark.layers.map((l) => [l.id, l.type])).toEqual(light.layers.map((l) => [l.id, l.type]));
    expect(JSON.stringify(dark.layers)).not.toEqual(JSON.stringify(light.layers));
    const bg = dark.layers.find((l) => l.id === 'water') as unknown as { paint: Record<string, string> };
    // a dark water colour: every channel well below the light variant's #b9d3e6
    const hex = bg.paint['background-color'] ?? '';
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    expect(Math.max(r ?? 255, g ?? 255, b ?? 255)).toBeLessThan(80);
    expect(styleFor(undefined, true)).toEqual(dark);
  });
});
