/**
 * Security headers on every answer (console files, API answers, errors, redirects, 404s), written by
 * hand in one hook. The Content-Security-Policy fits what the console does:
 * - scripts and workers from the server itself and from blob: URLs (maplibre and the console's own
 *   workers start from blob: URLs), plus 'wasm-unsafe-eval' for WebAssembly decoders; no inline
 *   script and no eval, so injected markup cannot run script;
 * - styles inline as well (Mantine writes its CSS variables in <style> elements);
 * - images from self, blob: and data: (canvas snapshots, the data: favicon) and the map sources;
 * - connections to self, to data: and blob: URLs (deck.gl loads its icon atlas by fetching a data: URL;
 *   reading one leaks nothing), websockets to the same host (push, video, intercom, playback) and the map
 *   tile/style sources: `MAP_SOURCE_ORIGINS` when configured, else any http(s) origin, because users
 *   add tile and style URLs in their own browser (src/features/map/map-sources.ts) and the server
 *   cannot know them;
 * - frames only by the console itself (frame-ancestors, X-Frame-Options for older browsers).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A Host header that can go into a CSP source as is (name or address and port; nothing that could end the directive). */
const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The policy for one request: `ws(s)://<its host>` is named because older engines do not let 'self' cover websockets. */
export function contentSecurityPolicy(request: Pick<FastifyRequest, 'headers'>, mapSourceOrigins: readonly string[] | undefined): string {
  const host = request.headers.host;
  const sameHostSockets = host && SAFE_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  const mapSources = mapSourceOrigins ? mapSourceOrigins.join(' ') : 'http: https:';
  return [
    "default-src 'self'",
    "script-src 'self' blob: 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' blob: data: ${mapSources}`,
    "font-src 'self' data:",
    `connect-src 'self' data: blob:${sameHostSockets} ${mapSources}`,
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

export function installSecurityHeaders(app: FastifyInstance, options: { mapSourceOrigins: readonly string[] | undefined }): void {
  // Installed as the first onRequest hook: headers set there stay on the reply through the error
  // handler, so a refused call (401 from the auth hook after this one), a 404 and a refused upgrade
  // carry them as well as a handler's answer.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Content-Security-Policy', contentSecurityPolicy(request, options.mapSourceOrigins));
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'SAMEORIGIN');
  });
}
