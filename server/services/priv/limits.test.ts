import { describe, expect, it } from 'vitest';
import { ROLE_LIMITS } from '../../../domain/management/limits.ts';
import { roleResource } from './roles.ts';

/** The console's forms validate with domain/management/limits.ts; the server's schemas must hold the same numbers. */
const maxOf = (schema: unknown): unknown => (schema as { maxLength?: number }).maxLength;

describe('management form limits shared by console and server', () => {
  it('the role schemas use the domain limits for name and remark', () => {
    const create = roleResource.create?.fields as Record<string, unknown>;
    const update = roleResource.update?.fields as Record<string, unknown>;
    expect(maxOf(create.name)).toBe(ROLE_LIMITS.name);
    expect(maxOf(create.remark)).toBe(ROLE_LIMITS.remark);
    expect(maxOf(update.name)).toBe(ROLE_LIMITS.name);
    expect(maxOf(update.remark)).toBe(ROLE_LIMITS.remark);
  });
});
