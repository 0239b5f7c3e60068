/** Sign-in, sign-out, the session user, and passwordless tickets (server/API.md "Login rules"). */
import { randomUUID } from 'node:crypto';
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../domain/errors/catalogue.ts';
import { dummyPasswordHash, verifyPassword } from '../../auth/passwords.ts';
import { ipAllowed, normaliseIp } from '../../auth/ip.ts';
import { loginThrottle } from '../../auth/login-throttle.ts';
import { hashTicket, newTicket } from '../../auth/tickets.ts';
import type { User } from '../../db/types.ts';
import { accountBlocked, auth, loadAuthContext } from '../../http/auth.ts';
import { fail, ok } from '../../http/envelope.ts';
import { requestLang } from '../../http/lang.ts';
import { Messages } from '../../http/messages.ts';
import { Id, Strict, Text, type App } from '../../http/route.ts';
import { CONSOLE_BASE } from '../../http/console.ts';
import type { ServiceDeps } from '../deps.ts';
import { sessionUser } from './views.ts';

export function sessionRoutes(app: App, deps: ServiceDeps): void {
  const { storage, tokens, config } = deps;
  const throttle = loginThrottle(storage, config);

  /** Account state checks shared by both sign-in paths, in the order of API.md. */
  function checkAccount(user: User, ip: string): void {
    if (user.status !== 1) throw fail.business(ErrorCode.AccountInvalid);
    if (accountBlocked(user)) throw fail.business(ErrorCode.AccountExpired);
    if (!ipAllowed(user.allowedIps, ip)) throw fail.business(ErrorCode.LocationLimited);
  }

  async function startSession(request: FastifyRequest, user: User, loginType: string) {
    const sessionId = randomUUID();
    await storage.sessions.create({ id: sessionId, userId: user.id, loginType, ip: normaliseIp(request.ip) });
    const ctx = await loadAuthContext(storage, user, sessionId);
    const token = await tokens.sign(user.id, sessionId);
    return ok({ token, user: sessionUser(ctx.user, ctx.permissions) }, requestLang(request));
  }

  app.post('/service-priv/login', {
    config: { permission: 'public' },
    schema: { body: Strict({ username: Text(64, 1), password: Text(128, 1), loginType: Type.Optional(Text(32)) }) },
  }, async (request) => {
    const { username, password, loginType } = request.body;
    const ip = normaliseIp(request.ip);
    const now = Date.now();
    // Checked before the password; a refused attempt while waiting is not a failure (asking does not prolong it).
    await throttle.check(username, ip, now);

    const found = await storage.users.findByUsername(username);
    const passwordOk = await verifyPassword(password, found?.passwordHash ?? (await dummyPasswordHash()));
    if (!found || !passwordOk) {
      await throttle.failed(username, ip, now);
      throw fail.business(ErrorCode.BadCredentials);
    }
    const { passwordHash: _secret, ...user } = found;
    checkAccount(user, ip);
    await throttle.succeeded(username, ip);
    return startSession(request, user, loginType ?? 'login');
  });

  // No body schema: the call has no body (an injected companyId in one is ignored).
  app.post('/service-priv/logout', { config: { permission: 'session' }, schema: { querystring: Strict({}) } }, async (request) => {
    await storage.sessions.revoke(auth(request).sessionId);
    return ok(null, requestLang(request));
  });

  app.get('/service-priv/user/current', { config: { permission: 'session' }, schema: { querystring: Strict({}) } }, async (request) => {
    const ctx = auth(request);
    return ok({ user: sessionUser(ctx.user, ctx.permissions) }, requestLang(request));
  });

  app.post('/service-priv/loginTicket', {
    config: { permission: '/system/user:update' },
    schema: { body: Strict({ userId: Id, minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })) }) },
  }, async (request) => {
    const ctx = auth(request);
    const target = await storage.users.get(ctx.scope, request.body.userId);
    if (!target) throw fail.notFound(Messages.notFound);
    if (!ctx.isAdmin && target.userLevel < ctx.user.userLevel) throw fail.forbidden(Messages.levelAboveOwn);
    const ticket = newTicket();
    const expireTime = Date.now() + (request.body.minutes ?? 10) * 60_000;
    await storage.loginGuard.createTicket({ hash: hashTicket(ticket), userId: target.id, createdBy: ctx.user.id, expireTime });
    return ok({ ticket, expireTime, path: `${CONSOLE_BASE}mmLogin?ticket=${ticket}` }, requestLang(request));
  });

  app.post('/service-priv/mmLogin', {
    config: { permission: 'public' },
    schema: { body: Strict({ ticket: Text(256, 1) }) },
  }, async (request) => {
    const userId = await storage.loginGuard.consumeTicket(hashTicket(request.body.ticket), Date.now());
    if (userId === undefined) throw fail.business(ErrorCode.TicketInvalid);
    const user = await storage.users.getById(userId);
    if (!user) throw fail.business(ErrorCode.TicketInvalid);
    checkAccount(user, normaliseIp(request.ip));
    return startSession(request, user, 'mm');
  });
}
