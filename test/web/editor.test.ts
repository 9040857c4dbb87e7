import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/adapters/http/server.js';
import { principalOf } from '../../src/adapters/web/session.js';
import { type Backend, createBackend, testConfig } from '../support/backends.js';
import { axeViolations, CHROMIUM } from '../support/chromium.js';
import { freePort } from '../support/ports.js';
import { ANSWERS } from '../fixtures/ai/answers.js';
import { type FakeProvider, startFakeProvider } from '../support/fake-ai.js';
import { buildWorld, type World } from '../support/world.js';

/**
 * The canvas editor in Debian's Chromium: drawing and saving, a scene of our own types surviving an edit, two tabs
 * racing to save, a viewer who cannot write. `DOCS_SCREENSHOTS=docs/screenshots` rewrites the README's pictures.
 */
const DOCS = process.env.DOCS_SCREENSHOTS;
const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };
const EVERY_TYPE = JSON.parse(readFileSync('test/fixtures/excalidraw/native-every-type.json', 'utf8')) as Array<Record<string, unknown>>;

describe('the canvas editor in Chromium', () => {
  let backend: Backend;
  let runtime: Runtime;
  let world: World;
  let browser: Browser;
  let base: string;
  let ann: BrowserContext;
  let fake: FakeProvider;
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
    page.setDefaultTimeout(10_000);
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

  /** axe-core's WCAG A/AA rules on the page as it is; and a photo for the README when asked. */
  async function check(page: Page, name: string, docsName?: string) {
    if (DOCS && docsName) await page.screenshot({ path: join(DOCS, `${docsName}.png`) });
    expect(await axeViolations(page, ['wcag2a', 'wcag2aa']), name).toEqual([]);
  }

  const saveNow = async (page: Page) => {
    await page.getByRole('button', { name: 'Save now' }).click();
    await expect.poll(() => page.locator('#editor-status').textContent(), { timeout: 10_000 }).toMatch(/^Saved version \d+|^Not saved/);
  };

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    backend = await createBackend('sqlite');
    runtime = await createRuntime(testConfig({ databaseUrl: backend.databaseUrl, publicUrl: base, port, rateLimitPerMinute: 100_000, aiAllowPrivateUrls: true, aiTimeoutSeconds: 5 }));
    fake = await startFakeProvider();
    world = await buildWorld(runtime);
    await runtime.app.listen({ port, host: '127.0.0.1' });
    browser = await chromium.launch({ executablePath: CHROMIUM });
    ann = await signIn();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
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

  it('keeps a scene of our own types (cylinder, icon, code, frame, math…) unchanged but for the one label edited', async () => {
    const id = await createDiagram('Every type', EVERY_TYPE);
    const before = await stored(id);
    const target = before.find((e) => e.id === 'svc')! as { x: number; y: number; width: number; height: number; text: string; iconRef: string };
    expect(target.iconRef).toBeDefined();
    const page = await openEditor(ann, id);
    const saves: Array<Promise<{ method: string; asOperations?: boolean }>> = [];
    page.on('response', (response) => {
      if (response.url().endsWith(`/diagrams/${id}/scene`) && response.request().method() !== 'GET') saves.push(response.json().then((body) => ({ method: response.request().method(), asOperations: body.asOperations })));
    });
    const centre = await onScreen(page, target.x + target.width / 2, target.y + target.height / 2);
    await page.mouse.dblclick(centre.x, centre.y);
    const editor = page.locator('textarea.excalidraw-wysiwyg');
    await editor.waitFor();
    await editor.press('Control+a');
    await editor.pressSequentially('Object store');
    await page.keyboard.press('Escape');
    await saveNow(page);
    expect(await page.locator('#editor-status').textContent()).toMatch(/^Saved version 2/);

    const after = await stored(id);
    expect(after.find((e) => e.id === 'svc')).toEqual({ ...before.find((e) => e.id === 'svc'), text: 'Object store' });
    expect(after.filter((e) => e.id !== 'svc')).toEqual(before.filter((e) => e.id !== 'svc'));

    // Saved as an edit by element: the history says one element changed, and over the API every other element is the
    // same text as before, byte for byte.
    const api = (path: string) => fetch(`${base}/api-v1${path}`, { headers: { authorization: `Bearer ${world.tokens.annAll}` } }).then((r) => r.json());
    const [latest] = (await api(`/documents/${id}/versions?limit=1`)).items;
    expect(await Promise.all(saves)).toEqual([{ method: 'PATCH', asOperations: true }]);
    expect(latest).toMatchObject({ version: 2, door: 'web', summary: '1 changed' });
    const bytes = async (version: number) =>
      new Map(((await api(`/documents/${id}/versions/${version}`)).elements as Array<{ id: string }>).map((e) => [e.id, JSON.stringify(e)]));
    const [v1, v2] = [await bytes(1), await bytes(2)];
    expect([...v2.keys()]).toEqual([...v1.keys()]);
    expect([...v2].filter(([key, text]) => v1.get(key) !== text).map(([key]) => key)).toEqual(['svc']);
    await page.close();
  });

  /** Draws a rectangle somewhere on the canvas: a change for the page to save. */
  async function drawBox(page: Page, x: number, y: number) {
    await page.getByTestId('toolbar-rectangle').click({ force: true });
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 120, y + 70, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.press('Escape');
  }

  it('offers the second of two tabs a clear choice when the first saved first, and each choice does what it says', async () => {
    const id = await createDiagram('Shared', [{ id: 'api', type: 'rectangle', x: 0, y: 0, width: 160, height: 80, text: 'API' }]);
    const first = await openEditor(ann, id);
    const second = await openEditor(ann, id);
    await drawBox(first, 500, 300);
    await drawBox(second, 500, 500);
    await saveNow(first);
    expect(await first.locator('#editor-status').textContent()).toMatch(/^Saved version 2/);
    // The second tab's autosave (after a pause) meets the first tab's save.
    const dialog = second.getByRole('dialog', { name: 'Someone else saved first' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button').allTextContents()).toEqual(['Reload theirs', 'Keep mine as a new version', 'Save mine as a copy']);
    await check(second, 'editor-conflict', 'editor-conflict');

    // Keep mine: saved on top of theirs as version 3, holding the second tab's box and not the first's.
    await dialog.getByRole('button', { name: 'Keep mine as a new version' }).click();
    await expect.poll(() => second.locator('#editor-status').textContent(), { timeout: 10_000 }).toMatch(/^Saved version 3/);
    expect(await dialog.isVisible()).toBe(false);
    expect((await stored(id)).filter((e) => e.type === 'rectangle')).toHaveLength(2);

    // The first tab notices the save it did not make; with nothing unsaved it shows theirs.
    await expect.poll(() => first.locator('#editor-status').textContent(), { timeout: 15_000 }).toMatch(/Someone else saved version 3/);

    // Save as a copy: a new diagram beside the original, which stays as it was.
    // The second tab's change is the older one, so its save (autosave or the button) lands first on a loaded machine too.
    await drawBox(second, 800, 500);
    await drawBox(first, 800, 300);
    await saveNow(second);
    expect(await second.locator('#editor-status').textContent()).toMatch(/^Saved version 4/);
    // No click needed: the first tab's autosave meets the conflict by itself.
    await first.getByRole('dialog', { name: 'Someone else saved first' }).getByRole('button', { name: 'Save mine as a copy' }).click();
    await first.waitForURL((url) => /^\/diagrams\/doc_\w+\/edit$/.test(url.pathname) && !url.pathname.includes(id));
    const copyId = /\/diagrams\/(doc_\w+)\/edit$/.exec(first.url())![1]!;
    expect(copyId).not.toBe(id);
    expect((await runtime.services.diagrams.getDocument(annPrincipal(), copyId)).summary.name).toBe('Shared (my copy)');
    expect((await runtime.services.diagrams.getDocument(annPrincipal(), id)).summary.version).toBe(4);
    await first.close();
    await second.close();
  }, 90_000);

  it('gives a viewer a read-only canvas with no write control, and the server refuses their writes', async () => {
    const bobId = await runtime.services.accounts.userIdByEmail('bob@example.com');
    const bob = principalOf({ id: bobId, email: 'bob@example.com', name: 'Bob', plan: 'free' });
    const id = await createDiagram('Bob plan', [{ id: 'web', type: 'rectangle', x: 0, y: 0, width: 160, height: 80, text: 'Web' }], world.bobWorkspace, bob);
    const page = await openEditor(ann, id);
    expect(await page.locator('#editor-status').textContent()).toBe('Read-only: your role here is viewer');
    expect(await page.getByRole('button', { name: 'Save now' }).count()).toBe(0);
    expect(await page.getByTestId('toolbar-rectangle').count()).toBe(0);
    await check(page, 'editor-viewer', 'editor-viewer');

    // The page's own session and CSRF token, sent by hand: the service refuses the write whatever the page shows.
    const refused = await page.evaluate(async (docId) => {
      const root = document.getElementById('editor-root')!;
      const response = await fetch(`/diagrams/${docId}/scene`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': root.dataset.csrf!, 'If-Match': '"1"' },
        body: JSON.stringify({ scene: { type: 'excalidraw', version: 2, elements: [] } }),
      });
      return { status: response.status, body: await response.json() };
    }, id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await runtime.services.diagrams.getDocument(bob, id)).summary.version).toBe(1);
    await page.close();
  });

  it('passes axe-core on the editor page and logs no CSP violation anywhere', async () => {
    const id = await createDiagram('Accessible', EVERY_TYPE);
    const page = await openEditor(ann, id);
    await check(page, 'editor', 'editor');
    await page.close();
    expect(cspViolations).toEqual([]);
  });

  it('starts from a template in the editor, and turns a file dropped on the workspace page into a diagram', async () => {
    const page = await ann.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${base}/workspaces/${world.annWorkspace}/new`);
    await check(page, 'new-diagram', 'new-diagram');
    await page.getByRole('button', { name: /AWS three-tier web app/ }).click();
    await page.waitForURL(/\/diagrams\/doc_\w+\/edit$/);
    await page.waitForFunction(() => Boolean((window as unknown as { drawbridgeEditor?: unknown }).drawbridgeEditor));
    await page.waitForTimeout(300);
    if (DOCS) await page.screenshot({ path: join(DOCS, 'editor-template.png') });

    await page.goto(`${base}/workspaces/${world.annWorkspace}`);
    await page.locator('[data-drop-into]').evaluate((zone) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['# Shop stack\nservices:\n  web:\n    image: nginx\n    depends_on: [db]\n  db:\n    image: postgres:16\n'], 'shop.compose.yaml', { type: 'text/yaml' }));
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await page.waitForURL(/\/diagrams\/doc_\w+(\?|$)/);
    expect(await page.locator('h1').textContent()).toBe('Shop stack');
    await page.close();
    expect(cspViolations).toEqual([]);
  });

  it('lets a phone pinch-zoom and pan the viewer', async () => {
    const id = await createDiagram('Wide', EVERY_TYPE);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, storageState: await ann.storageState() });
    const page = await phone.newPage();
    await page.goto(`${base}/diagrams/${id}`);
    await page.locator('#drawing').evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? null : new Promise((r) => img.addEventListener('load', r))));
    const before = await page.locator('#zoom-level').textContent();
    const box = (await page.locator('#stage').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const cdp = await phone.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: cx - spread, y: cy, id: 1 }, { x: cx + spread, y: cy, id: 2 }] });
    await touch('touchStart', 30);
    for (const spread of [50, 70, 90, 110]) await touch('touchMove', spread);
    await touch('touchEnd', 0);
    const after = await page.locator('#zoom-level').textContent();
    expect(Number.parseInt(after!, 10)).toBeGreaterThan(Number.parseInt(before!, 10) * 2);
    if (DOCS) await page.screenshot({ path: join(DOCS, 'viewer-phone.png') });
    await phone.close();
  });

  it('asks the AI to change the open diagram from the Ask AI panel, after a link to the AI settings when none is set up', async () => {
    const id = await createDiagram('Ask me', [{ id: 'api', type: 'rectangle', x: 0, y: 0, width: 160, height: 80, text: 'API' }]);
    let page = await openEditor(ann, id);
    await page.getByRole('button', { name: 'Ask AI' }).click();
    expect(await page.getByRole('link', { name: 'Set up AI' }).getAttribute('href')).toBe('/settings/ai');
    await page.close();

    await runtime.services.ai.set(annPrincipal(), { provider: 'openai', model: 'gpt-4.1-mini', key: 'sk-test-key-0000', baseUrl: `${fake.url}/openai/v1` });
    page = await openEditor(ann, id);
    await page.getByRole('button', { name: 'Ask AI' }).click();
    await check(page, 'editor-ask-ai', 'editor-ask-ai');
    fake.queue.push({ answer: ANSWERS.checkoutFlow });
    await page.getByLabel('What should change?').fill('Turn this into the checkout flow');
    await page.getByRole('button', { name: 'Change the diagram' }).click();
    await page.getByText(/^Changed by gpt-4.1-mini: version 2/).waitFor();
    expect(fake.received.at(-1)!.body.messages.at(-1).content).toContain('Turn this into the checkout flow');
    const elements = await stored(id);
    expect(elements.length).toBeGreaterThan(3);
    const onCanvas = await page.evaluate(() => (window as unknown as { drawbridgeEditor: { getSceneElements(): unknown[] } }).drawbridgeEditor.getSceneElements().length);
    expect(onCanvas).toBeGreaterThan(3);
    await page.close();
  });

  it('drags an icon from the panel onto a shape and onto the canvas, and the save stamps iconRef as the API does', async () => {
    const id = await createDiagram('Icons', [{ id: 'orders', type: 'rectangle', x: 0, y: 0, width: 160, height: 110, text: 'Orders' }]);
    const page = await openEditor(ann, id);
    await page.getByRole('button', { name: 'Icons' }).click();
    await page.getByLabel('Icon library').selectOption('aws');
    await page.getByLabel('Search icons').fill('dynamodb');
    const first = page.locator('.icon-result').first();
    await first.waitFor();
    const ref = (await first.getAttribute('title'))!;
    expect(ref).toMatch(/^aws\//);
    await check(page, 'editor-icons', 'editor-icons');

    const canvas = page.locator('#editor-root');
    const rootBox = (await canvas.boundingBox())!;
    const onShape = await onScreen(page, 80, 55);
    await first.dragTo(canvas, { targetPosition: { x: onShape.x - rootBox.x, y: onShape.y - rootBox.y } });
    const empty = await onScreen(page, 500, 55);
    await first.dragTo(canvas, { targetPosition: { x: empty.x - rootBox.x, y: empty.y - rootBox.y } });
    await saveNow(page);
    expect(await page.locator('#editor-status').textContent()).toMatch(/^Saved version 2/);

    const elements = (await stored(id)) as Array<{ id: string; type: string; iconRef?: string; icon?: { ref: string }; text?: string }>;
    expect(elements.find((e) => e.id === 'orders')).toMatchObject({ iconRef: ref, icon: { ref } });
    const added = elements.filter((e) => e.id !== 'orders' && e.iconRef === ref);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ type: 'rectangle', icon: { ref } });
    await page.close();
  });

  it('redraws a Mermaid-born diagram from the code tab, keeping a colour and a move made on the canvas; bad code is marked at its line and changes nothing', async () => {
    const v1 = ['flowchart LR', '  api[API] --> db[(Orders DB)]', '  api --> cache[Cache]'].join('\n');
    const v2 = `${v1}\n  api --> queue[Queue]`;
    const created = await runtime.services.diagrams.createFromCode(annPrincipal(), { workspaceId: world.annWorkspace, code: v1 });
    const id = created.document.summary.id;
    const page = await openEditor(ann, id);
    // Recoloured on the canvas, as the style panel does it: a new version of the element, saved by the editor.
    await page.evaluate(() => {
      const api = (window as unknown as { drawbridgeEditor: { getSceneElementsIncludingDeleted(): Array<Record<string, unknown>>; updateScene(scene: object): void } }).drawbridgeEditor;
      const elements = api.getSceneElementsIncludingDeleted().map((e) => (e.id === 'cache' ? { ...e, backgroundColor: '#ffc9c9', version: (e.version as number) + 1, versionNonce: 7 } : e));
      api.updateScene({ elements, captureUpdate: 'IMMEDIATELY' });
    });
    // And the API box dragged 100 px down with the mouse.
    const api = created.document && (JSON.parse(created.document.elementsJson) as Array<{ id: string; x: number; y: number; width: number; height: number }>).find((e) => e.id === 'api')!;
    const from = await onScreen(page, api.x + api.width / 2, api.y + api.height / 2);
    const to = await onScreen(page, api.x + api.width / 2, api.y + api.height / 2 + 100);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await page.mouse.up();
    await saveNow(page);
    expect(await page.locator('#editor-status').textContent()).toMatch(/^Saved version 2/);
    expect((await stored(id)).find((e) => e.id === 'cache')).toMatchObject({ fillColor: '#ffc9c9' });
    const moved = (await stored(id)).find((e) => e.id === 'api') as { y: number };
    expect(moved.y).toBeCloseTo(api.y + 100, 0);

    await page.locator('#editor-actions').getByRole('button', { name: 'Code' }).click();
    const code = page.getByLabel('The code this diagram is drawn from');
    expect(await code.inputValue()).toBe(v1);
    await code.fill(v2);
    await page.getByRole('button', { name: 'Redraw' }).click();
    await page.getByText(/^Redrawn: version 3/).waitFor();
    const redrawn = await stored(id);
    expect(redrawn.find((e) => e.id === 'queue')).toMatchObject({ text: 'Queue' });
    expect(redrawn.find((e) => e.id === 'cache')).toMatchObject({ fillColor: '#ffc9c9' });
    const plain = JSON.parse((await runtime.services.diagrams.createFromCode(annPrincipal(), { workspaceId: world.annWorkspace, code: v2 })).document.elementsJson) as Array<{ id: string; y: number }>;
    expect((redrawn.find((e) => e.id === 'api') as { y: number }).y).toBeCloseTo(plain.find((e) => e.id === 'api')!.y + 100, 0);
    // Only the colour was changed by hand: the editor's round trip of every other element must not read as a change.
    const warnings = await page.locator('.editor-warnings li').allTextContents();
    expect(warnings.filter((w) => w.startsWith('redraw '))).toEqual(['redraw kept your changes to: api (moved), cache (fillColor)']);
    const onCanvas = await page.evaluate(() => (window as unknown as { drawbridgeEditor: { getSceneElements(): Array<{ id: string }> } }).drawbridgeEditor.getSceneElements().map((e) => e.id));
    expect(onCanvas).toContain('queue');

    await code.fill(`${v2}\n  queue --> [oops`);
    await page.getByRole('button', { name: 'Redraw' }).click();
    await expect.poll(() => page.locator('#code-error').textContent()).toMatch(/^line 5, column \d+: Mermaid/);
    expect(await page.locator('.code-gutter .code-error-line').textContent()).toBe('5');
    // Nothing selected: Excalidraw's style panel for a selection has an axe finding of its own (a radix popover).
    await page.evaluate(() => (window as unknown as { drawbridgeEditor: { updateScene(scene: object): void } }).drawbridgeEditor.updateScene({ appState: { selectedElementIds: {} } }));
    await check(page, 'editor-code', 'editor-code');
    const after = await runtime.services.diagrams.getDocument(annPrincipal(), id);
    expect(after.summary.version).toBe(3);
    expect(after.summary.source?.code).toBe(v2);
    // Fixing the line clears its mark.
    await code.fill(v2);
    expect(await page.locator('.code-gutter .code-error-line').count()).toBe(0);
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  /** A diagram in three versions: "API" alone, then a database added, then the API renamed. */
  async function threeVersions(name: string, workspaceId = world.annWorkspace, principal = annPrincipal()) {
    const id = await createDiagram(name, [{ id: 'api', type: 'rectangle', x: 0, y: 0, width: 160, height: 80, text: 'API' }], workspaceId, principal);
    const { diagrams } = runtime.services;
    await diagrams.updateDocument(principal, id, { operations: [{ op: 'add', element: { id: 'db', type: 'cylinder', x: 300, y: 0, width: 140, height: 90, text: 'Orders DB' } }] });
    await diagrams.updateDocument(principal, id, { operations: [{ op: 'update', id: 'api', set: { text: 'Gateway' } }] });
    return id;
  }

  it('restores a version from the History panel: the canvas reloads and the API returns exactly that version', async () => {
    const id = await threeVersions('Restore me');
    const page = await openEditor(ann, id);
    await page.getByRole('button', { name: 'History' }).click();
    const panel = page.getByRole('complementary', { name: 'History' });
    const items = panel.locator('.history-item');
    await items.nth(2).waitFor();
    expect(await items.allInnerTexts()).toEqual([
      expect.stringMatching(/^Version 3\s*on the canvas\s*1 changed\s*Ann · .+ · web app$/),
      expect.stringMatching(/^Version 2\s*1 added\s*Ann · /),
      expect.stringMatching(/^Version 1\s*created with 1 element\s*Ann · /),
    ]);
    await check(page, 'editor-history-list');
    await items.nth(2).click();
    const preview = panel.getByRole('img', { name: 'Version 1 as it was drawn' });
    await preview.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? null : new Promise((r) => img.addEventListener('load', r))));
    expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await check(page, 'editor-history', 'editor-history');

    await panel.getByRole('button', { name: 'Restore version 1' }).click();
    await expect.poll(() => page.locator('#editor-status').textContent()).toBe('Restored version 1 as version 4');
    const kept = await runtime.services.diagrams.getVersion(annPrincipal(), id, 1);
    expect(await stored(id)).toEqual(JSON.parse(kept.elementsJson));
    const onCanvas = await page.evaluate(() =>
      (window as unknown as { drawbridgeEditor: { getSceneElements(): Array<{ type: string; text?: string }> } }).drawbridgeEditor
        .getSceneElements()
        .filter((e) => e.type === 'text')
        .map((e) => e.text),
    );
    expect(onCanvas).toEqual(['API']);
    // The list follows: the restore is the newest version, and it is what the canvas shows.
    await expect.poll(() => items.first().innerText()).toMatch(/^Version 4\s*on the canvas\s*restored version 1: /);
    // Autosave has nothing to write after a restore: the canvas is the stored version.
    await page.waitForTimeout(2000);
    expect((await runtime.services.diagrams.getDocument(annPrincipal(), id)).summary.version).toBe(4);
    await page.close();
  }, 60_000);

  it('shows a viewer the history and previews without Restore, and the server refuses a restore from their session', async () => {
    const bobId = await runtime.services.accounts.userIdByEmail('bob@example.com');
    const bob = principalOf({ id: bobId, email: 'bob@example.com', name: 'Bob', plan: 'free' });
    const id = await threeVersions('Bob history', world.bobWorkspace, bob);
    const page = await openEditor(ann, id);
    await page.getByRole('button', { name: 'History' }).click();
    const panel = page.getByRole('complementary', { name: 'History' });
    await panel.locator('.history-item').nth(2).click();
    await panel.getByRole('img', { name: 'Version 1 as it was drawn' }).waitFor();
    expect(await panel.getByRole('button', { name: /Restore/ }).count()).toBe(0);

    const refused = await page.evaluate(async (docId) => {
      const root = document.getElementById('editor-root')!;
      const response = await fetch(`/diagrams/${docId}/versions/1/restore`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': root.dataset.csrf!, 'If-Match': '"3"' }, body: '{}' });
      return { status: response.status, body: await response.json() };
    }, id);
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    expect((await runtime.services.diagrams.getDocument(bob, id)).summary.version).toBe(3);
    await page.close();
  });

  it('passes axe-core in dark mode on the editor, its History panel, the workspace and the developer settings', async () => {
    const id = await threeVersions('Dark');
    const dark = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'dark', storageState: await ann.storageState() });
    const page = await openEditor(dark, id);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 19, 24)');
    await check(page, 'editor dark');
    await page.getByRole('button', { name: 'History' }).click();
    const panel = page.getByRole('complementary', { name: 'History' });
    await panel.locator('.history-item').nth(2).waitFor();
    await check(page, 'editor-history dark list');
    await panel.locator('.history-item').nth(1).click();
    await panel.getByRole('img', { name: 'Version 2 as it was drawn' }).waitFor();
    await page.waitForTimeout(200);
    await check(page, 'editor-history dark', 'editor-history-dark');
    await page.goto(`${base}/workspaces/${world.annWorkspace}`);
    await check(page, 'workspace dark');
    await page.goto(`${base}/settings/developer`);
    await check(page, 'developer dark');
    await dark.close();
  }, 60_000);
});
