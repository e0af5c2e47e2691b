// The dev builder's entry: a worker does not inherit the TypeScript loader the dev server runs with
// (`node --import tsx`), so it registers it, then runs the builder itself.
import { register } from 'tsx/esm/api';

register();
await import('./dev-builder.ts');
