import type { TokenService } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Storage } from '../db/repositories.ts';

/** What route modules need; passed explicitly so tests and later backends can swap parts. */
export interface ServiceDeps {
  readonly config: Config;
  readonly storage: Storage;
  readonly tokens: TokenService;
}
