import type { FastifyRequest } from 'fastify';
import type { Lang } from '../../domain/errors/catalogue.ts';

/** The caller's language: `x-lang` (zh, cn or en), else the first zh/en tag of Accept-Language, else zh. */
export function requestLang(req: FastifyRequest): Lang {
  const explicit = req.headers['x-lang'];
  const value = (Array.isArray(explicit) ? explicit[0] : explicit)?.trim().toLowerCase();
  if (value) {
    if (value.startsWith('en')) return 'en';
    if (value.startsWith('zh') || value === 'cn') return 'zh';
  }
  const accept = req.headers['accept-language'];
  if (accept) {
    const tags = accept
      .split(',')
      .map((part) => {
        const [tag = '', ...params] = part.trim().toLowerCase().split(';');
        const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find(Boolean);
        return { tag, q: q === undefined ? 1 : Number(q) };
      })
      .sort((a, b) => b.q - a.q);
    for (const { tag } of tags) {
      if (tag.startsWith('en')) return 'en';
      if (tag.startsWith('zh')) return 'zh';
    }
  }
  return 'zh';
}
