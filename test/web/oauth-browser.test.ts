import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/adapters/http/server.js';
import { type Backend, createBackend, testConfig } from '../support/backends.js';
import { axeViolations, CHROMIUM } from '../support/chromium.js';
import { MemoryOAuthClient } from '../support/oauth-client.js';
import { freePort } from '../support/ports.js';
import { buildWorld, type World } from '../support/world.js';

/**
 * The MCP SDK client's OAuth flow with the user in Debian's Chromium: sign-in, the consent page, the redirect to
 * the client's loopback callback, tools, then Revoke in Connected apps. `DOCS_SCREENSHOTS=docs/screenshots`
 * rewrites the README's pictures of the consent page.
 */
const DOCS = process.env.DOCS_SCREENSHOTS;
const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };

/** The `mcp-remote` bridge, a devDependency: a missing one fails the test, it is never skipped. */
const MCP_REMOTE = createRequire(import.meta.url).resolve('mcp-remote/dist/proxy.js');


describe('connecting an MCP client with OAuth in Chromium', () => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;
  let browser: Browser;
  let base: string;
  let callback: Server;
  let callbackUrl: string;
  let received: Promise<URL>;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, publicUrl: base, port, oauth: true }));
    world = await buildWorld(runtime);
    await runtime.app.listen({ port, host: '127.0.0.1' });
    // The client's loopback redirect URI (RFC 8252), where the browser brings the code back.
    let arrive: (url: URL) => void;
    received = new Promise((resolve) => (arrive = resolve));
    callback = createServer((request, response) => {
      arrive(new URL(request.url!, callbackUrl));
      response.setHeader('content-type', 'text/plain').end('You can close this window.');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await browser?.close();
    callback?.close();
    await runtime?.close();
    await backend?.dispose();
  });

  async function shoot(page: Page, name: string) {
    if (!DOCS) return;
    for (const [width, suffix] of [[1280, ''], [390, '-mobile']] as const) {
      await page.setViewportSize({ width, height: 860 });
      await page.screenshot({ path: join(DOCS, `${name}${suffix}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  }

  /** Signs Ann in on the page the authorization URL led to, and waits for the consent page. */
  async function signInToConsent(page: Page, authorizationUrl: string) {
    await page.goto(authorizationUrl);
    await page.getByLabel('Email').fill(ANN.email);
    await page.getByLabel('Password').fill(ANN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oauth\/consent\?request=/);
  }

  it('signs in, consents to chosen scopes and one workspace, lists tools, and Revoke ends it', async () => {
    const provider = new MemoryOAuthClient(callbackUrl, 'Desk Assistant');
    const transport = () => new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
    await expect(new Client({ name: 'desk', version: '1.0.0' }).connect(transport())).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.pathname).toBe('/authorize');

    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    // Not signed in: the sign-in page first, then back to the consent page.
    await signInToConsent(page, provider.authorizationUrl!.href);

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Desk Assistant wants to use your diagrams');
    const callbackHost = new URL(callbackUrl).host;
    expect(await page.locator('.lead').textContent()).toContain(`${callbackHost} unverified`);
    await page.getByRole('checkbox', { name: /diagrams:write/ }).uncheck();
    await page.getByRole('checkbox', { name: /ai:generate/ }).uncheck();
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Ann main (owner)' });
    await shoot(page, 'oauth-consent');
    expect(await axeViolations(page, ['wcag2a', 'wcag2aa'])).toEqual([]);
    await page.getByRole('button', { name: 'Approve' }).click();

    const answer = await received;
    expect(answer.searchParams.get('state')).toBeTruthy();
    expect(answer.searchParams.get('iss')).toBe(base);
    await transport().finishAuth(answer.searchParams.get('code')!);
    expect(provider.saved?.scope).toBe('diagrams:read export');

    const client = new Client({ name: 'desk', version: '1.0.0' });
    await client.connect(transport());
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_workspaces');
    const workspaces = (await client.callTool({ name: 'list_workspaces', arguments: {} })) as CallToolResult;
    // Pinned to the one workspace Ann chose.
    expect((workspaces.structuredContent as { items: Array<{ id: string }> }).items.map((w) => w.id)).toEqual([world.annWorkspace]);

    await page.goto(`${base}/settings/developer`);
    const row = page.getByRole('row', { name: /Desk Assistant/ });
    expect(await row.textContent()).toMatch(/diagrams:read.*export.*Ann main/s);
    await row.getByRole('button', { name: 'Revoke Desk Assistant' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.getByRole('row', { name: /Desk Assistant/ }).count()).toBe(0);
    const after = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${provider.saved!.access_token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await client.close();
    await context.close();
  });

  it('connects mcp-remote: the URL it opens leads through consent, then tools come through its stdio', async () => {
    const config = mkdtempSync(join(tmpdir(), 'mcp-remote-'));
    const callbackPort = await freePort();
    // BROWSER=true: the "browser" it launches does nothing; the test opens the URL it prints in Chromium instead.
    const bridge = spawn(process.execPath, [MCP_REMOTE, `${base}/mcp`, String(callbackPort), '--transport', 'http-only'], {
      env: { ...process.env, MCP_REMOTE_CONFIG_DIR: config, BROWSER: 'true' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const log: string[] = [];
    const seen = (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`mcp-remote never printed ${pattern}:\n${log.join('\n')}`)), 20_000);
        const check = (line: string) => {
          const match = pattern.exec(line);
          if (match) clearTimeout(timer), resolve(match);
        };
        log.forEach(check);
        createInterface({ input: bridge.stderr! }).on('line', check);
      });
    createInterface({ input: bridge.stderr! }).on('line', (line) => log.push(line));
    const replies = createInterface({ input: bridge.stdout! });
    const reply = (id: number) =>
      new Promise<any>((resolve) => replies.on('line', (line) => { const message = JSON.parse(line); if (message.id === id) resolve(message); }));
    try {
      const [, url] = await seen(/^(http\S+\/authorize\?\S+)$/);
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await signInToConsent(page, url!);
      expect(await page.locator('.lead').textContent()).toContain(`localhost:${callbackPort} unverified`);
      await page.getByRole('button', { name: 'Approve' }).click();
      await seen(/Proxy established/);
      const send = (message: object) => bridge.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
      const initialized = reply(1);
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stdio-test', version: '1.0.0' } } });
      expect((await initialized).result.serverInfo.name).toBe('drawbridge');
      send({ method: 'notifications/initialized' });
      const listed = reply(2);
      send({ id: 2, method: 'tools/list' });
      expect((await listed).result.tools.map((t: { name: string }) => t.name)).toContain('list_workspaces');
      await context.close();
    } finally {
      bridge.kill();
      rmSync(config, { recursive: true, force: true });
    }
  });
});
