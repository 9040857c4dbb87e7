import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** STYLE rule 1, enforced: the core is pure, so it imports no server, protocol, file, network or process modules. */
const FORBIDDEN = /from\s+['"](node:)?(fs|fs\/promises|net|http|https|http2|child_process|process|dgram|tls|worker_threads)['"]|from\s+['"](fastify|@fastify\/[^'"]+|@modelcontextprotocol\/[^'"]+|pg|better-sqlite3|ioredis|kysely)['"]|\bprocess\.(env|exit|argv)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('architecture', () => {
  it('keeps src/core free of I/O', () => {
    const offenders = sourceFiles('src/core').filter((file) => FORBIDDEN.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
