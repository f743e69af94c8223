// The extensions every PGlite of ours loads (the server's, the tests' snapshot, a restore):
// a data directory whose tables use one (pgvector's column, pg_trgm's transcript index,
// migration 0642) cannot be written without it.
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';

export const PGLITE_EXTENSIONS = { vector, pg_trgm };
