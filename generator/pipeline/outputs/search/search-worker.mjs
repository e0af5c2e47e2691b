// The worker thread's entry: a worker does not inherit the TypeScript loader the build runs with
// (`node --import tsx`), so it registers it, then runs the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./search-worker.ts');
