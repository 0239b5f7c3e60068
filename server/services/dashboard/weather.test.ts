import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { WEATHER_CACHE_MS, WeatherSource } from './weather.ts';

let server: Server;
let url: string;
let answer: { status: number; body: string } = { status: 200, body: '{"text":"晴","temperature":12.5,"city":"杭州"}' };
let hits = 0;
const warnings: string[] = [];
const log = { warn: (_o: unknown, msg: string) => warnings.push(msg) } as unknown as FastifyBaseLogger;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/weather`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the dashboard’s weather source', () => {
  it('says not configured without a source, and never invents weather', async () => {
    expect(await new WeatherSource(undefined, log).current()).toEqual({ configured: false });
  });

  it('answers the source’s weather, read at most every 10 minutes', async () => {
    let now = 1_000_000;
    const source = new WeatherSource(url, log, () => now);
    hits = 0;
    expect(await source.current()).toEqual({ configured: true, available: true, text: '晴', temperature: 12.5, city: '杭州', fetchedAt: 1_000_000 });
    now += WEATHER_CACHE_MS - 1;
    await source.current();
    expect(hits).toBe(1);
    now += 2;
    await source.current();
    expect(hits).toBe(2);
  });

  it('logs a failing source and answers unavailable', async () => {
    answer = { status: 500, body: '{}' };
    const r = await new WeatherSource(url, log).current();
    expect(r).toEqual({ configured: true, available: false });
    expect(warnings).toContain('weather source failed');
    answer = { status: 200, body: '{"temperature": 3}' };
    expect(await new WeatherSource(url, log).current()).toEqual({ configured: true, available: false });
  });
});
