/** Shared checks for assigning permission ids to roles. */
import { FieldMessage } from '../../../domain/errors/catalogue.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { AuthContext } from '../../http/auth.ts';
import { fail } from '../../http/envelope.ts';
import { Messages } from '../../http/messages.ts';

/**
 * Unknown ids answer 400 naming the field; a non-administrator granting an id it does not hold
 * itself answers 403. `alreadyGranted` ids pass (keeping what a role has is not granting).
 */
export async function checkGrantable(
  repos: Repositories, ctx: AuthContext, field: string, ids: readonly number[], alreadyGranted: readonly number[] = [],
): Promise<void> {
  await checkKnownPermissions(repos, field, ids);
  if (ctx.isAdmin) return;
  const held = new Set(ctx.permissionIds);
  const kept = new Set(alreadyGranted);
  if (ids.some((id) => !held.has(id) && !kept.has(id))) throw fail.forbidden(Messages.cannotGrant);
}

/** Unknown permission ids answer 400 naming the field. */
export async function checkKnownPermissions(repos: Repositories, field: string, ids: readonly number[]): Promise<void> {
  const existing = await repos.permissions.existing(ids);
  const unknown = ids.find((id) => !existing.has(id));
  if (unknown !== undefined) {
    throw fail.badRequest((lang) => FieldMessage.invalid(field, lang === 'zh' ? `权限 ${unknown} 不存在` : `permission ${unknown} does not exist`, lang));
  }
}
