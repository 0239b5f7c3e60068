import { describe, expect, it } from 'vitest';
import { AddressCache, MAX_IN_FLIGHT } from './address-cache.ts';

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('addresses in the point table', () => {
  it('resolves each visible position once, however many points share it', async () => {
    const asked: string[] = [];
    const cache = new AddressCache(async (lng, lat) => {
      asked.push(`${lng},${lat}`);
      return `路 ${lng}`;
    });
    cache.want([{ lng: 116.1, lat: 39.9 }, { lng: 116.100001, lat: 39.900001 }, { lng: 116.2, lat: 39.9 }]);
    await flush();
    cache.want([{ lng: 116.1, lat: 39.9 }]);
    await flush();
    expect(asked).toEqual(['116.1,39.9', '116.2,39.9']);
    expect(cache.get(116.1, 39.9)).toBe('路 116.1');
  });

  it('asks only for the rows still visible once earlier calls finish', async () => {
    const resolvers: (() => void)[] = [];
    const asked: number[] = [];
    const cache = new AddressCache((lng) => {
      asked.push(lng);
      return new Promise((r) => resolvers.push(() => r('x')));
    });
    cache.want(Array.from({ length: 10 }, (_, i) => ({ lng: 100 + i, lat: 30 })));
    expect(asked.length).toBe(MAX_IN_FLIGHT);
    // The user scrolled on: the rest of the first screen is no longer wanted.
    cache.want([{ lng: 150, lat: 30 }]);
    for (const r of resolvers.splice(0)) r();
    await flush();
    await flush();
    expect(asked).toEqual([100, 101, 102, 103, 150]);
  });
});
