import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../src/adapters/http/server.js';
import { ERROR_CODES } from '../src/core/errors.js';
import { type Backend, createBackend, testConfig } from './support/backends.js';

const readme = readFileSync('README.md', 'utf8');
/** README rows write a route as METHOD `path` (query after `?`); OpenAPI writes parameters as {name}. */
const tableRows = readme.split('\n').filter((line) => line.startsWith('| '));

describe('the README documents what the service does', () => {
  let backend: Backend;
  let runtime: Runtime;
  beforeAll(async () => {
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl }));
  });
  afterAll(async () => {
    await runtime?.close();
    await backend?.dispose();
  });

  it('lists every route of the OpenAPI document, and the hidden ones, in its route table', async () => {
    const spec = (await runtime.app.inject({ method: 'GET', url: '/api-v1/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{(\w+)\}/g, ':$1') })),
    );
    routes.push({ method: 'POST', path: '/mcp' }, { method: 'GET', path: '/metrics' }, { method: 'GET', path: '/docs' }, { method: 'GET', path: '/api-v1/openapi.json' });
    const missing = routes.filter(
      ({ method, path }) => !tableRows.some((row) => row.includes(method) && new RegExp(`\`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?(\`|\\?)`).test(row)),
    );
    expect(routes.length).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });

  it('names every error code', () => {
    expect(ERROR_CODES.filter((code) => !readme.includes(`\`${code}\``))).toEqual([]);
  });

  it('documents every environment variable the configuration reads', () => {
    const source = readFileSync('src/infra/config.ts', 'utf8');
    const variables = [...new Set([...source.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!))];
    expect(variables.length).toBeGreaterThan(8);
    expect(variables.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });

  it('keeps every table whole: a row after a blank line starts a new table with its header', () => {
    const lines = readme.split('\n');
    const orphans = lines.flatMap((line, i) => (line.startsWith('|') && lines[i - 1]?.trim() === '' && !/^\|[-| :]+\|$/.test(lines[i + 1] ?? '') ? [`line ${i + 1}: ${line.slice(0, 60)}`] : []));
    expect(orphans).toEqual([]);
  });

  it('lists every CLI command the CLI has', () => {
    const usage = readFileSync('src/adapters/cli/main.ts', 'utf8');
    // `member add` and `member role` are written together as `member add|role`.
    const commands = [...usage.matchAll(/^ {2}drawbridge ([a-z]+ [a-z]+)/gm)].map((m) => m[1]!.replace(/^member (add|role)$/, 'member add|role'));
    expect(commands.length).toBeGreaterThan(8);
    expect(commands.filter((command) => !readme.includes(command))).toEqual([]);
  });
});
