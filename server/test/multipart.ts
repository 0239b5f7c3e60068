/**
 * A multipart form posted as a browser sends it (the boundary and encoding of the platform's FormData),
 * injected into the app. Upload tests build the form; this sends it and answers the parsed envelope.
 */
import type { FastifyInstance } from 'fastify';

export async function injectForm<T>(app: FastifyInstance, url: string, form: FormData, opts: { token: string; lang?: 'zh' | 'en' }): Promise<{ code: number; msg: string; data: T }> {
  const req = new Request('http://local/', { method: 'POST', body: form });
  const res = await app.inject({
    method: 'POST', url,
    headers: { 'x-jwt': opts.token, 'x-lang': opts.lang ?? 'en', 'content-type': req.headers.get('content-type')! },
    payload: Buffer.from(await req.arrayBuffer()),
  });
  return res.json() as { code: number; msg: string; data: T };
}
