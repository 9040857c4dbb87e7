import { afterAll, beforeAll } from 'vitest';
import { createRuntime, type Runtime } from '../../src/adapters/http/server.js';
import type { Scope } from '../../src/core/scopes.js';
import type { Config } from '../../src/infra/config.js';
import { type Backend, type BackendName, createBackend, testConfig } from './backends.js';

export const ALL_SCOPES: Scope[] = ['diagrams:read', 'diagrams:write', 'export', 'ai:generate'];

/**
 * A small install: Ann owns two workspaces and is a viewer in Bob's; Bob owns his own. Tokens cover every case the
 * authorisation rules distinguish.
 */
export async function buildWorld(runtime: Runtime) {
  const { accounts, tokens } = runtime.services;
  const ann = await accounts.createUser({ email: 'ann@example.com', name: 'Ann', password: 'correct horse battery staple', workspaceName: 'Ann main' });
  const { workspaceId: annSecond } = await accounts.createWorkspace({ email: 'ann@example.com', name: 'Ann second' });
  const bob = await accounts.createUser({ email: 'bob@example.com', name: 'Bob', workspaceName: 'Bob main' });
  await accounts.addMember({ workspaceId: bob.workspaceId, email: 'ann@example.com', role: 'viewer' });
  const token = async (userId: string, scopes: Scope[], workspaceId?: string) =>
    (await tokens.create({ userId, name: `t-${scopes.join('+')}`, scopes, workspaceId })).token;
  return {
    annWorkspace: ann.workspaceId,
    annSecond,
    bobWorkspace: bob.workspaceId,
    annUserId: ann.userId,
    tokens: {
      annAll: await token(ann.userId, ALL_SCOPES),
      annRead: await token(ann.userId, ['diagrams:read']),
      annWriteOnly: await token(ann.userId, ['diagrams:write']),
      annPinned: await token(ann.userId, ALL_SCOPES, ann.workspaceId),
      bobAll: await token(bob.userId, ALL_SCOPES),
    },
  };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A minimal valid element: the full scene schema fills in every other field. */
export const box = (id: string, x = 0, y = 0) => ({ id, type: 'rectangle', x, y, width: 120, height: 60, text: id });

/**
 * A fresh service with the world above, on SQLite unless `backend` says otherwise, for the enclosing test file or
 * describe block (call it there, e.g. once per backend inside `describe.each`): set up before its tests, torn down after.
 * Read `runtime`, `world` (and `mcpUrl` with `listen`) inside tests: they exist once the block's beforeAll has run.
 */
export function useTestService(options: { listen?: boolean; backend?: BackendName; config?: Partial<Config> } = {}): { readonly runtime: Runtime; readonly world: World; readonly mcpUrl: string; readonly databaseUrl: string } {
  let backend: Backend | undefined;
  const state: { runtime?: Runtime; world?: World; mcpUrl?: string } = {};
  beforeAll(async () => {
    backend = await createBackend(options.backend ?? 'sqlite');
    state.runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, rateLimitPerMinute: 100_000, ...options.config }));
    state.world = await buildWorld(state.runtime);
    // Real clients need a real socket; inject() serves the rest.
    if (options.listen) state.mcpUrl = `${await state.runtime.app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
  });
  afterAll(async () => {
    await state.runtime?.close();
    await backend?.dispose();
  });
  return {
    get runtime() {
      return state.runtime!;
    },
    get world() {
      return state.world!;
    },
    get mcpUrl() {
      return state.mcpUrl!;
    },
    /** For what no door shows or can do (stored rows, an expiry in the past). */
    get databaseUrl() {
      return backend!.databaseUrl;
    },
  };
}
