/**
 * Serving by role (issue 20, ROLES in server/config.ts): every node builds the same services (the
 * alarm and report engines behind the routes also work on what the gateway receives), and answers
 * only the routes of its roles. The operations endpoints (/health, /metrics) answer on every node;
 * the push websocket needs `push`; every other route, and the built console, needs `api`. A route of
 * a role this node does not run answers 404, before authentication, like a route that does not exist.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, messageFor } from '../../domain/errors/catalogue.ts';
import type { Role } from '../config.ts';
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH, METRICS_PATH } from '../ops/routes.ts';
import { PUSH_PATH } from '../push/index.ts';
import { requestLang } from './lang.ts';

const EVERY_NODE = new Set([HEALTH_LIVE_PATH, HEALTH_READY_PATH, METRICS_PATH]);

/** The role a matched route pattern belongs to; undefined: served on every node. */
export function routeRole(pattern: string): Role | undefined {
  if (EVERY_NODE.has(pattern)) return undefined;
  return pattern === PUSH_PATH ? 'push' : 'api';
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({ code: ErrorCode.NotFound, msg: messageFor(ErrorCode.NotFound, requestLang(request)), data: null });
}

/** Nothing to do on a node with every role; otherwise a gate in front of the routes (install before auth). */
export function installRoleGate(app: FastifyInstance, roles: ReadonlySet<Role>): void {
  if (roles.has('api') && roles.has('push')) return;
  app.addHook('onRequest', async (request, reply) => {
    const pattern = request.routeOptions.url;
    if (pattern === undefined) return;
    const role = routeRole(pattern);
    if (role !== undefined && !roles.has(role)) return notFound(request, reply);
  });
  // Without `api` the console is not installed (server/app.ts), nor its not-found handler (which serves the console's shell).
  if (!roles.has('api')) app.setNotFoundHandler(notFound);
}
