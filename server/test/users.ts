/** Test users: a user of a company with a role of its own holding the given permissions. */
import type { FastifyInstance } from 'fastify';
import { entryByKey } from '../../domain/permissions/access.ts';
import { hashPassword } from '../auth/passwords.ts';

/** The registry id of a route or button key (`/system/user:export`); throws for a key the registry lacks. */
export function permissionId(key: string): number {
  const e = entryByKey(key);
  if (!e) throw new Error(`no registry entry ${key}`);
  return e.id;
}

/** The password of every user createUserWithRole makes. */
export const TEST_PASSWORD = 'pass1234';

/**
 * Creates `username` (level 2, enabled) in `companyId` with a new role holding `permissionIds`
 * (domain/permissions/registry.ts ids), signs in and answers the token.
 */
export async function createUserWithRole(
  server: { readonly app: FastifyInstance; login(username: string, password: string): Promise<string> },
  username: string, companyId: number, permissionIds: readonly number[], realName = username,
): Promise<string> {
  const storage = server.app.storage;
  const roleId = await storage.roles.create({ name: `role-${username}`, companyId: 1, remark: '' }, permissionIds);
  await storage.users.create({
    username, passwordHash: await hashPassword(TEST_PASSWORD), realName, userLevel: 2, companyId,
    phone: '', email: '', status: 1, expireTime: null, allowedIps: '', geoInverse: false,
  }, [roleId]);
  return server.login(username, TEST_PASSWORD);
}
