import type { App } from '../../http/route.ts';
import { deviceTypeResource } from '../../resources/device-types.ts';
import { registerResource } from '../../resources/resource.ts';
import type { ServiceDeps } from '../deps.ts';
import { companyRoutes } from './companies.ts';
import { permissionRoutes } from './permissions.ts';
import { roleRoutes } from './roles.ts';
import { sessionRoutes } from './session.ts';
import { treeRoutes } from './tree.ts';
import { userRoutes } from './users.ts';

/** Every /service-priv call of server/API.md. */
export function privRoutes(app: App, deps: ServiceDeps): void {
  sessionRoutes(app, deps);
  userRoutes(app, deps);
  roleRoutes(app, deps);
  permissionRoutes(app, deps);
  companyRoutes(app, deps);
  treeRoutes(app, deps);
  // Issue 13: declared resources (server/resources/).
  registerResource(app, deps.storage, deviceTypeResource);
}
