import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/adapters/http/server.js';
import { type Backend, createBackend, testConfig } from '../support/backends.js';
import { axeViolations, CHROMIUM } from '../support/chromium.js';
import { freePort } from '../support/ports.js';

/**
 * The path in a real browser (Debian's Chromium, driven by playwright-core): first-run setup → sign in →
 * a token with two scopes and one workspace → its MCP block copied → REST and MCP with that token → revoke → 401.
 * Every page is checked with axe-core and photographed at desktop and phone widths (SCREENSHOTS=dir keeps them).
 */
const SHOTS = process.env.SCREENSHOTS ?? join(tmpdir(), 'drawbridge-screens');
/** `DOCS_SCREENSHOTS=docs/screenshots` rewrites the README's two pictures (on purpose only, never in CI). */
const DOCS = process.env.DOCS_SCREENSHOTS;
const COMPOSE = readFileSync('test/fixtures/compose/awesome-nginx-golang-mysql.compose.yaml', 'utf8');
const OWNER = { name: 'Ann Example', email: 'ann@example.com', password: 'correct horse battery' };

describe('the web app in Chromium', () => {
  let backend: Backend;
  let runtime: Runtime;
  let browser: Browser;
  let base: string;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, publicUrl: base, port }));
    await runtime.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
    await backend?.dispose();
  });

  /** axe-core's WCAG A/AA rules on the page as it is, and a photo at the desktop and the phone width. */
  async function check(page: Page, name: string, docsName?: string) {
    if (DOCS && docsName) {
      await page.setViewportSize({ width: 1100, height: 760 });
      await page.screenshot({ path: join(DOCS, `${docsName}.png`) });
    }
    expect(await axeViolations(page, ['wcag2a', 'wcag2aa', 'best-practice']), name).toEqual([]);
    for (const [width, height, label] of [
      [1280, 900, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: join(SHOTS, `${name}-${label}.png`), fullPage: true });
      // Nothing on the page is wider than the screen (long tokens and links wrap or scroll inside their box).
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width}px`).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** Tab through the page from the top: every visible form control is reached, and each has a label. */
  async function tabReachesEveryControl(page: Page, formSelector: string) {
    const controls = await page.$$eval(`${formSelector} input:not([type=hidden]), ${formSelector} select, ${formSelector} textarea, ${formSelector} button`, (els) =>
      els.filter((el) => (el as HTMLElement).offsetParent !== null).map((el) => (el as HTMLElement).id || (el as HTMLElement).textContent!.trim()),
    );
    await page.locator('body').focus();
    const reached = new Set<string>();
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.id || document.activeElement?.textContent?.trim() || ''));
    }
    expect(controls.filter((c) => !reached.has(c))).toEqual([]);
    const unlabelled = await page.$$eval(`${formSelector} input:not([type=hidden]), ${formSelector} select, ${formSelector} textarea`, (els) =>
      els.filter((el) => !(el as HTMLInputElement).labels?.length && !el.getAttribute('aria-label')).map((el) => el.outerHTML),
    );
    expect(unlabelled).toEqual([]);
  }

  it('goes from first run to a working token, its MCP block, and a revoked token', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });

    await page.goto(base);
    expect(new URL(page.url()).pathname).toBe('/setup');
    await check(page, 'setup');
    await tabReachesEveryControl(page, 'main form');
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByLabel('First workspace').fill('Platform team');
    await page.getByRole('button', { name: 'Create owner and sign in' }).click();
    await page.waitForURL(`${base}/workspaces`);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/sign-in`);
    await check(page, 'sign-in');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/workspaces`);
    await check(page, 'workspaces');

    // A diagram, drawn from code through the page, to see the browser and the viewer.
    await page.getByRole('link', { name: /Platform team/ }).click();
    await check(page, 'workspace-empty');
    await page.getByRole('link', { name: 'New diagram' }).first().click();
    await check(page, 'new-diagram');
    await page.locator('#code-name').fill('Web stack');
    await page.locator('#code').fill(COMPOSE);
    await page.getByRole('button', { name: 'Draw it' }).click();
    await page.waitForURL(/\/diagrams\/doc_/);
    await page.locator('#drawing').evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? null : new Promise((r) => img.addEventListener('load', r))));
    expect(await page.locator('#drawing').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    await page.getByRole('button', { name: 'Share a read-only link' }).click();
    await page.waitForURL(/notice=/);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await page.locator('#zoom-level').textContent()).toMatch(/^\d+%$/);
    await page.getByRole('button', { name: 'Fit' }).click();
    await check(page, 'diagram', 'diagram-viewer');
    await page.goto(`${base}/workspaces`);
    await page.getByRole('link', { name: /Platform team/ }).click();
    await check(page, 'workspace');

    // Settings → Developer: two scopes, one workspace.
    await page.getByRole('link', { name: 'Developer' }).click();
    await check(page, 'developer');
    await tabReachesEveryControl(page, 'form[action="/settings/developer/tokens"]');
    await page.getByLabel('Name', { exact: true }).fill('claude desktop');
    await page.getByRole('checkbox', { name: /diagrams:write/ }).uncheck();
    await page.getByRole('checkbox', { name: /^export/ }).check();
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Platform team (owner)' });
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: /Your new token/ }).waitFor();
    // Post, redirect, get: the page showing the token is a plain GET, so a reload offers no resubmission.
    expect(new URL(page.url()).search).toMatch(/^\?created=tok_\w+$/);
    await check(page, 'developer-new-token', 'developer-new-token');

    await page.getByRole('button', { name: 'Copy: MCP client with remote HTTP servers' }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const block = JSON.parse(copied) as { mcpServers: { drawbridge: { type: string; url: string; headers: { Authorization: string } } } };
    expect(block.mcpServers.drawbridge).toMatchObject({ type: 'http', url: `${base}/mcp` });
    const headers = block.mcpServers.drawbridge.headers;

    const rest = await fetch(`${base}/api-v1/workspaces`, { headers });
    expect(rest.status).toBe(200);
    const { items } = (await rest.json()) as { items: Array<{ name: string }> };
    expect(items.map((w) => w.name)).toEqual(['Platform team']);
    const mcp = await fetch(block.mcpServers.drawbridge.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_diagrams', arguments: { workspaceId: (await (await fetch(`${base}/api-v1/workspaces`, { headers })).json() as { items: Array<{ id: string }> }).items[0]!.id } } }),
    });
    expect(mcp.status).toBe(200);
    expect(await mcp.text()).toContain('Web stack');

    await page.goto(`${base}/settings/developer`);
    // On a phone the token list is one card per token: its Revoke button is on screen, not past a sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    const revokeBox = (await page.getByRole('link', { name: 'Revoke claude desktop' }).boundingBox())!;
    expect(revokeBox.x + revokeBox.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Revoke claude desktop' }).click();
    await check(page, 'revoke');
    await page.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('revoked: requests with it now get 401').waitFor();
    const after = await fetch(`${base}/api-v1/workspaces`, { headers });
    expect(after.status).toBe(401);
    expect((await fetch(`${base}/mcp`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' })).status).toBe(401);

    // The other pages, for axe and the photos.
    await page.goto(`${base}/settings/ai`);
    await check(page, 'ai');
    await page.goto(`${base}/settings/password`);
    await check(page, 'account');
    await page.getByRole('link', { name: 'Diagrams' }).click();
    await page.getByRole('link', { name: /Platform team/ }).click();
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Email').fill('bo@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    await check(page, 'members');
    const invite = (await page.locator('#invite-link').textContent())!;
    const guest = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const guestPage = await guest.newPage();
    await guestPage.goto(invite);
    await check(guestPage, 'invite');
    await guest.close();
    await page.goto(`${base}/diagrams/doc_doesnotexist00000000`);
    await check(page, 'error');
    expect(await page.title()).toBe('Page not found · Drawbridge');
    await page.goto(`${base}/no/such/page`);
    expect(await page.title()).toBe('Page not found · Drawbridge');
    expect(await page.locator('h1').textContent()).toBe('Page not found');

    expect(cspViolations).toEqual([]);
    await context.close();
  }, 300_000);
});
