/** The resource layer's declaration rules, without a server: a declaration that cannot be served fails at start-up. */
import Fastify from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../db/repositories.ts';
import { installRoutePolicies, type App, type RoutePermission } from '../http/route.ts';
import { registerResource, type ResourceDeclaration, type ResourceStore } from './resource.ts';

interface Thing { readonly id: number }
const store = (): ResourceStore<Thing> => ({
  get: async () => undefined, page: async () => ({ records: [], total: 0, current: 1, size: 20 }),
  create: async () => 1, update: async () => undefined, delete: async () => undefined,
});

async function serve(decl: ResourceDeclaration<Thing>): Promise<App> {
  const app = Fastify() as unknown as App;
  installRoutePolicies(app);
  app.decorate('exportFiles', {} as never);
  registerResource(app, {} as Storage, decl);
  await app.ready();
  return app;
}

const base = { name: 'thing', store };

describe('a resource declaration', () => {
  it('is served when every operation names a permission', async () => {
    const app = await serve({ ...base, page: { method: 'GET', url: '/service-priv/thing/page', permission: '/system/role', filters: { keyword: Type.Optional(Type.String({ maxLength: 8 })) } } });
    expect(app.routeTable.map((r) => `${r.method} ${r.url} ${r.permission}`)).toContain('GET /service-priv/thing/page /system/role');
    await app.close();
  });

  it('fails at start-up when an operation has no permission, naming the operation', async () => {
    const decl = { ...base, delete: { method: 'DELETE', url: '/service-priv/thing', permission: undefined as unknown as RoutePermission } } as const;
    await expect(serve(decl)).rejects.toThrow(/thing: delete \(DELETE \/service-priv\/thing\) declares no permission/);
  });

  it('fails at start-up when a save call lacks the create or update bit', async () => {
    const decl: ResourceDeclaration<Thing> = {
      ...base,
      save: { method: 'POST', url: '/service-priv/thing/save', permission: '/system/role', createPermission: '/system/role:create', updatePermission: '' as RoutePermission, fields: {} },
    };
    await expect(serve(decl)).rejects.toThrow(/save declares no create or update permission/);
  });

  it('fails at start-up when a permission is not a registry key (the route policy check)', async () => {
    const decl: ResourceDeclaration<Thing> = { ...base, detail: { method: 'GET', url: '/service-priv/thing/:id', permission: '/system/nothing-here' } };
    await expect(serve(decl)).rejects.toThrow(/unknown permission "\/system\/nothing-here"/);
  });
});
