// What test/global-setup.ts gives every server test file (vitest's inject()).
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite snapshot's path ('' on PostgreSQL): test/pglite-snapshot.ts. */
    pgliteSnapshot: string;
  }
}
