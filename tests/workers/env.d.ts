// Types for the tests inside workerd: `env` (cloudflare:workers, cloudflare:test) is the Worker's own Env,
// and `exports.default` is worker/index.ts's default export.
import type * as WorkerModule from '../../worker/index';

declare global {
  namespace Cloudflare {
    interface Env extends WorkerModule.Env {}
    interface GlobalProps {
      mainModule: typeof WorkerModule;
    }
  }
}
