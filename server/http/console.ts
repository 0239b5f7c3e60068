/**
 * The built console at /bcmp-web/ (vite output, base /bcmp-web/). Paths that look like files answer
 * the file or 404 (so a missing chunk shows the console's load error); any other path under the base
 * answers index.html for client-side routing. `/` redirects to the base.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, messageFor } from '../../domain/errors/catalogue.ts';
import { requestLang } from './lang.ts';
import { Messages } from './messages.ts';

export const CONSOLE_BASE = '/bcmp-web/';

function looksLikeFile(url: string): boolean {
  const last = url.split('?')[0]?.split('/').pop() ?? '';
  return last.includes('.');
}

export async function installConsole(app: FastifyInstance, consoleDir: string): Promise<void> {
  const built = existsSync(path.join(consoleDir, 'index.html'));
  app.get('/', { config: { permission: 'public' } }, (_req, reply) => reply.redirect(CONSOLE_BASE));
  app.get('/bcmp-web', { config: { permission: 'public' } }, (_req, reply) => reply.redirect(CONSOLE_BASE));

  if (built) {
    // serve: false — the plugin only provides `reply.sendFile`; the wildcard route is ours so that it
    // declares its policy like every other route (the plugin's own route takes no config).
    await app.register(fastifyStatic, {
      root: consoleDir,
      serve: false,
      index: false,
      setHeaders: (res, filePath) => {
        // Hashed assets never change; index.html must be revalidated so a new build is picked up.
        res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // The base itself is a directory, which the static handler refuses; it is the console's entry.
    app.get(CONSOLE_BASE, { config: { permission: 'public' } }, (_req, reply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html'));
    // sendFile refuses `..`, `.` and empty segments (403) and falls through to the not-found handler
    // (below: the shell for client routes, 404 for files) when the file does not exist.
    // The handlers do not return the reply: a returned reply is awaited (a 'close' listener each), and
    // a missing file passes through two of them before the shell is sent.
    app.get(`${CONSOLE_BASE}*`, { config: { permission: 'public' } }, (request, reply) => {
      reply.sendFile((request.params as { '*': string })['*']);
    });
  }

  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const lang = requestLang(request);
    const url = request.url;
    if ((request.method === 'GET' || request.method === 'HEAD') && url.startsWith(CONSOLE_BASE) && !looksLikeFile(url)) {
      if (built) {
        reply.header('Cache-Control', 'no-cache').sendFile('index.html');
        return;
      }
      const text = Messages.consoleNotBuilt(lang);
      return reply.type('text/html; charset=utf-8').send(`<!doctype html><meta charset="utf-8"><title>${text}</title><p>${text}</p>`);
    }
    return reply.status(404).send({ code: ErrorCode.NotFound, msg: messageFor(ErrorCode.NotFound, lang), data: null });
  };
  app.setNotFoundHandler(notFound);
}
