import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/adapters/http/server.js';
import { principalOf } from '../../src/adapters/web/session.js';
import { type Backend, createBackend, testConfig } from '../support/backends.js';
import { buildWorld, type World } from '../support/world.js';

/**
 * The canvas editor in Debian's Chromium: drawing and saving, a scene of our own types surviving an edit, two tabs
 * racing to save, a viewer who cannot write. `DOCS_SCREENSHOTS=docs/screenshots` rewrites the README's pictures.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DOCS = process.env.DOCS_SCREENSHOTS;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };
const EVERY_TYPE = JSON.parse(readFileSync('test/fixtures/excalidraw/native-every-type.json', 'utf8')) as Array<Record<string, unknown>>;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('the canvas editor in Chromium', () => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;
  let browser: Browser;
  let base: string;
  let ann: BrowserContext;
  const cspViolations: string[] = [];

  const annPrincipal = () => principalOf({ id: world.annUserId, email: ANN.email, name: 'Ann', plan: 'free' });
  const createDiagram = async (name: string, elements: unknown[] = [], workspaceId = world.annWorkspace, principal = annPrincipal()) =>
    (await runtime.services.diagrams.createDocument(principal, { workspaceId, name, elements })).document.summary.id;
  const stored = async (id: string) => JSON.parse((await runtime.services.diagrams.getDocument(annPrincipal(), id)).elementsJson) as Array<Record<string, unknown>>;

  async function signIn(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill(ANN.email);
    await page.getByLabel('Password').fill(ANN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/workspaces`);
    await page.close();
    return context;
  }

  async function openEditor(context: BrowserContext, id: string): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${base}/diagrams/${id}/edit`);
    await page.locator('.excalidraw .excalidraw__canvas.interactive').waitFor();
    await page.waitForFunction(() => Boolean((window as unknown as { drawbridgeEditor?: unknown }).drawbridgeEditor));
    return page;
  }

  /** Where a point of the scene is on the screen (Excalidraw's scroll and zoom). */
  const onScreen = (page: Page, x: number, y: number) =>
    page.evaluate(
      ([sx, sy]) => {
        const state = (window as unknown as { drawbridgeEditor: { getAppState(): { scrollX: number; scrollY: number; zoom: { value: number }; offsetLeft: number; offsetTop: number } } }).drawbridgeEditor.getAppState();
        return { x: (sx! + state.scrollX) * state.zoom.value + state.offsetLeft, y: (sy! + state.scrollY) * state.zoom.value + state.offsetTop };
      },
      [x, y],
    );

  const saveNow = async (page: Page) => {
    await page.getByRole('button', { name: 'Save now' }).click();
    await expect.poll(() => page.locator('#editor-status').textContent(), { timeout: 10_000 }).toMatch(/^Saved version \d+|^Not saved/);
  };

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, publicUrl: base, port, rateLimitPerMinute: 100_000 }));
    world = await buildWorld(runtime);
    await runtime.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM });
    ann = await signIn();
  });
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
    await backend?.dispose();
  });

  it('draws a rectangle and an arrow bound to it, saves, and the API returns both with the binding', async () => {
    const id = await createDiagram('Blank');
    const page = await openEditor(ann, id);
    await page.getByTestId('toolbar-rectangle').click({ force: true });
    await page.mouse.move(600, 400);
    await page.mouse.down();
    await page.mouse.move(760, 480, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('toolbar-arrow').click({ force: true });
    // Ending just inside the rectangle's edge is where Excalidraw binds (its own snapping, not ours).
    await page.mouse.move(380, 440);
    await page.mouse.down();
    await page.mouse.move(604, 440, { steps: 12 });
    await page.mouse.up();
    await page.keyboard.press('Escape');
    await saveNow(page);
    expect(await page.locator('#editor-status').textContent()).toMatch(/^Saved version 2/);
    if (DOCS) await page.screenshot({ path: join(DOCS, 'editor.png') });

    const elements = await stored(id);
    const rectangle = elements.find((e) => e.type === 'rectangle')!;
    const arrow = elements.find((e) => e.type === 'arrow')!;
    expect(rectangle).toBeDefined();
    expect(arrow.endBinding).toMatchObject({ elementId: rectangle.id });

    await page.reload();
    await page.waitForFunction(() => Boolean((window as unknown as { drawbridgeEditor?: unknown }).drawbridgeEditor));
    const reloaded = await page.evaluate(() =>
      (window as unknown as { drawbridgeEditor: { getSceneElements(): Array<{ type: string; endBinding: { elementId: string } | null }> } }).drawbridgeEditor
        .getSceneElements()
        .map((e) => ({ type: e.type, bound: e.endBinding?.elementId ?? null })),
    );
    expect(reloaded).toContainEqual({ type: 'arrow', bound: rectangle.id });
    await page.close();
  });
});
