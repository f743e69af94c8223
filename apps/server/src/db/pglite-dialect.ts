// A Kysely dialect over PGlite. PGlite has a single connection, so queries and transactions are
// serialised through one gate, which serves requests before background work (pglite-gate.ts,
// docs/decisions/222); kysely-pglite-dialect was not used because its peer range stops at
// PGlite 0.4 (docs/decisions/002-own-pglite-dialect.md).
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { AppError } from '../lib/errors';
import { PriorityGate } from './pglite-gate';

/** Statements that only read (or end a transaction): allowed on a full disk. Anything else may
 *  need WAL, which PGlite must not be asked for then (lib/disk-space.ts, decision 013). */
const READS = /^\s*(select|show|begin|commit|rollback|set|values|explain)\b/i;
const WRITE_CTE = /\b(insert|update|delete|merge)\b/i;

export function isReadOnly(sql: string): boolean {
  // A row lock (select … for update) writes the row's header, and so WAL.
  if (READS.test(sql)) return !/\bfor\s+(no\s+key\s+)?(update|share)\b/i.test(sql);
  return /^\s*with\b/i.test(sql) && !WRITE_CTE.test(sql);
}

class PGliteConnection implements DatabaseConnection {
  /** The longest statement of this hold, for the gate's observer (bench 9's profile). */
  slowest: { ms: number; sql: string } | undefined;
  constructor(
    private readonly pg: PGlite,
    private readonly profile: boolean,
    private readonly writesBlocked: () => boolean,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const started = this.profile ? performance.now() : 0;
    try {
      return await this.run<R>(query);
    } finally {
      if (this.profile) {
        const ms = performance.now() - started;
        if (!this.slowest || ms > this.slowest.ms) this.slowest = { ms, sql: query.sql };
      }
    }
  }

  private async run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.writesBlocked() && !isReadOnly(query.sql)) throw AppError.diskFull();
    // Like pg's simple protocol, a query without parameters may hold several statements
    // (migrations); the last statement's result is the answer.
    const res =
      query.parameters.length === 0
        ? ((await this.pg.exec(query.sql)).at(-1) ?? { rows: [] as R[], affectedRows: 0, fields: [] })
        : await this.pg.query<R>(query.sql, query.parameters as unknown[]);
    const affected = res.affectedRows;
    const rows = res.rows as R[];
    return {
      rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(query.sql) ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}

class PGliteDriver implements Driver {
  private readonly releases = new WeakMap<DatabaseConnection, (sql?: string) => void>();
  constructor(
    private readonly pg: PGlite,
    private readonly gate: PriorityGate,
    private readonly dialect: PGliteDialect,
  ) {}

  async init(): Promise<void> {
    await this.pg.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.gate.acquire();
    const conn = new PGliteConnection(this.pg, this.gate.observed, () => this.dialect.writesBlocked());
    this.releases.set(conn, release);
    return conn;
  }
  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    this.releases.get(conn)?.((conn as PGliteConnection).slowest?.sql);
    this.releases.delete(conn);
  }
  async destroy(): Promise<void> {
    // The owner of the PGlite instance closes it.
  }
}

export class PGliteDialect implements Dialect {
  /** Who gets the one connection next: requests before background work (pglite-gate.ts). */
  readonly gate = new PriorityGate();
  /** Whether writes must be refused now (the disk is full; set by the app, lib/disk-space.ts). */
  writesBlocked: () => boolean = () => false;
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg, this.gate, this);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
