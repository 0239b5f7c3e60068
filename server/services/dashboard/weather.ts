/**
 * The dashboard's weather (spec §2: Chinese only): read from the source the operator configures
 * (WEATHER_URL answering JSON `{text, temperature, city?}`), kept 10 minutes. Without a source the
 * answer says `configured: false` and the console hides the slot; a failing source is logged and
 * answered `available: false` (spec §8: dashboard data failures are only logged). Nothing is invented.
 */
import type { FastifyBaseLogger } from 'fastify';

export const WEATHER_CACHE_MS = 10 * 60_000;
export const WEATHER_TIMEOUT_MS = 5_000;

export type WeatherAnswer =
  | { configured: false }
  | { configured: true; available: false }
  | { configured: true; available: true; text: string; temperature: number | null; city: string; fetchedAt: number };

export class WeatherSource {
  private cached: { at: number; answer: WeatherAnswer } | null = null;

  constructor(
    private readonly url: string | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly clock: () => number = Date.now,
  ) {}

  async current(): Promise<WeatherAnswer> {
    if (!this.url) return { configured: false };
    const now = this.clock();
    if (this.cached && now - this.cached.at < WEATHER_CACHE_MS) return this.cached.answer;
    let answer: WeatherAnswer;
    try {
      const res = await fetch(this.url, { signal: AbortSignal.timeout(WEATHER_TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as { text?: unknown; temperature?: unknown; city?: unknown };
      if (typeof body.text !== 'string' || body.text.length === 0) throw new Error('no text in the answer');
      answer = {
        configured: true, available: true, text: body.text.slice(0, 32),
        temperature: typeof body.temperature === 'number' && Number.isFinite(body.temperature) ? body.temperature : null,
        city: typeof body.city === 'string' ? body.city.slice(0, 32) : '', fetchedAt: now,
      };
    } catch (err) {
      this.log.warn({ err: String(err) }, 'weather source failed');
      answer = { configured: true, available: false };
    }
    this.cached = { at: now, answer };
    return answer;
  }
}
