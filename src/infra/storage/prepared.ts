import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { sqliteHandles } from './database.js';

/**
 * Kysely builds and compiles a query tree on every call. The reads that run on every request (token lookup,
 * document read) compile once and bind fresh values afterwards. The arguments are located in the compiled
 * parameters through unique sentinels, so their order in the SQL never matters. On SQLite the compiled statement
 * runs straight on better-sqlite3 (a synchronous call); Kysely's async connection hand-off cost more than the query.
 */
export function preparedQuery<A extends string[], R>(db: Kysely<any>, build: (...args: A) => Compilable<R>): (...args: A) => Promise<R[]> {
  let cached: { sql: string; positions: number[] } | undefined;
  return async (...args: A) => {
    if (!cached) {
      const sentinels = args.map((_, i) => `\u0000prepared-argument-${i}`);
      const compiled = build(...(sentinels as A)).compile();
      const positions = compiled.parameters.map((parameter) => {
        const index = sentinels.indexOf(parameter as string);
        if (index < 0) throw new Error(`prepared query has a parameter that is not an argument: ${compiled.sql}`);
        return index;
      });
      cached = { sql: compiled.sql, positions };
    }
    const parameters = cached.positions.map((i) => args[i]);
    const sqlite = sqliteHandles.get(db);
    if (sqlite) return sqlite.prepare(cached.sql).all(parameters) as R[];
    const { rows } = await db.executeQuery<R>(CompiledQuery.raw(cached.sql, parameters));
    return rows;
  };
}
