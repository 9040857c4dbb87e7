import { describe, expect, it } from 'vitest';
import { decodeEntities, signedIn, textById } from '../support/web-client.js';
import { availableBackends } from '../support/backends.js';
import { bearer, box, useTestService } from '../support/world.js';

const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };
const COMPOSE = 'services:\n  web:\n    image: nginx\n    depends_on: [db]\n  db:\n    image: postgres:16\n';

describe('diagrams in the browser', () => {
  const service = useTestService();

  it('draws from code, shows the drawing with downloads, and renames, moves, shares and deletes it', async () => {
    const { app } = service.runtime;
    const ws = service.world.annWorkspace;
    const ann = await signedIn(app, ANN.email, ANN.password);
    expect((await ann.get(`/workspaces/${ws}`)).body).toContain('No diagrams here yet.');

    await ann.get(`/workspaces/${ws}/new`);
    const empty = await ann.post(`/workspaces/${ws}/new`, { kind: 'code', code: '  ', name: '' });
    expect(empty.statusCode).toBe(400);
    const bad = await ann.post(`/workspaces/${ws}/new`, { kind: 'code', code: 'digraph { a -> ', name: 'Broken' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('digraph { a -&gt; </textarea>');

    const created = await ann.post(`/workspaces/${ws}/new`, { kind: 'code', code: COMPOSE, name: 'Checkout stack', notation: '' });
    expect(created.statusCode).toBe(303);
    const path = created.headers.location as string;
    const id = /^\/diagrams\/(doc_\w+)/.exec(path)![1]!;

    const view = await ann.get(path);
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain('<h1>Checkout stack</h1>');
    expect(view.body).toContain(`src="/diagrams/${id}/image.svg"`);
    expect(view.body).toContain('/assets/viewer.js');
    const svg = await ann.get(`/diagrams/${id}/image.svg`);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toMatch(/^<svg /);
    expect(svg.headers.etag).toBeDefined();

    const mermaid = await ann.get(`/diagrams/${id}/download?format=mermaid`);
    expect(mermaid.headers['content-disposition']).toBe(`attachment; filename="Checkout-stack.mmd"; filename*=UTF-8''Checkout-stack.mmd`);
    expect(mermaid.body).toMatch(/^flowchart/m);
    expect((await ann.get(`/diagrams/${id}/download?format=png`)).headers['content-type']).toBe('image/png');
    expect((await ann.get(`/diagrams/${id}/download?format=d2`)).body).toContain('->');
    expect(JSON.parse((await ann.get(`/diagrams/${id}/download?format=excalidraw`)).body).type).toBe('excalidraw');
    expect((await ann.get(`/diagrams/${id}/download?format=pdf`)).statusCode).toBe(400);

    // A folder, and the diagram moved into it.
    await ann.get(`/workspaces/${ws}`);
    const folder = await ann.post(`/workspaces/${ws}/folders`, { name: 'Payments' });
    const folderId = /folder=(fld_\w+)/.exec(folder.headers.location as string)![1]!;
    await ann.get(path);
    expect((await ann.post(`/diagrams/${id}/move`, { folderId })).statusCode).toBe(303);
    expect((await ann.get(`/workspaces/${ws}?folder=${folderId}`)).body).toContain('Checkout stack');

    await ann.get(path);
    await ann.post(`/diagrams/${id}/rename`, { name: 'Schéma réseau 東京' });
    expect((await ann.get(`/diagrams/${id}/download?format=d2`)).headers['content-disposition']).toBe(
      `attachment; filename="Schema-reseau.d2"; filename*=UTF-8''${encodeURIComponent('Schéma-réseau-東京.d2')}`,
    );
    await ann.get(path);
    await ann.post(`/diagrams/${id}/rename`, { name: 'Checkout v2' });
    expect((await ann.get(path)).body).toContain('<h1>Checkout v2</h1>');
    // Web writes are kept in the version history as the web door.
    const history = await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${id}/versions`, headers: bearer(service.world.tokens.annAll) });
    expect(history.json().items.map((v: any) => v.door)).toEqual(['web', 'web', 'web']);
    expect(history.json().items[0].summary).toBe('renamed "Schéma réseau 東京" → "Checkout v2"');

    const shared = await ann.get((await ann.post(`/diagrams/${id}/share`)).headers.location as string);
    const url = decodeEntities(/id="share-url" readonly value="([^"]+)"/.exec(shared.body)![1]!);
    expect(url).toMatch(/^http:\/\/drawbridge\.test\/render\/svg\?token=shr_\w{32}$/);
    expect(decodeEntities(/id="share-md" readonly value="([^"]+)"/.exec(shared.body)![1]!)).toBe(`![Checkout v2](${url})`);
    expect(decodeEntities(/id="share-html" readonly value="([^"]+)"/.exec(shared.body)![1]!)).toBe(`<img src="${url}" alt="Checkout v2">`);
    const publicUrl = new URL(url);
    expect((await app.inject({ url: publicUrl.pathname + publicUrl.search })).statusCode).toBe(200);
    await ann.post(`/diagrams/${id}/unshare`);
    expect((await app.inject({ url: publicUrl.pathname + publicUrl.search })).statusCode).toBe(404);

    await ann.get(path);
    const deleted = await ann.post(`/diagrams/${id}/delete`);
    expect(deleted.headers.location).toMatch(new RegExp(`^/workspaces/${ws}\\?notice=`));
    expect((await ann.get(path)).statusCode).toBe(404);
  });

  it('creates a workspace, refusing an empty or control-character name', async () => {
    const ann = await signedIn(service.runtime.app, ANN.email, ANN.password);
    await ann.get('/workspaces');
    const empty = await ann.post('/workspaces', { name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('the name must not be empty');
    expect((await ann.post('/workspaces', { name: 'a\u0007b' })).statusCode).toBe(400);
    const made = await ann.post('/workspaces', { name: 'Research' });
    expect(made.statusCode).toBe(303);
    const page = await ann.get(made.headers.location as string);
    expect(page.body).toContain('<h1>Research</h1>');
    expect(page.body).toContain('You are <span class="badge">owner</span>');
  });

  it('imports an .excalidraw file', async () => {
    const { app } = service.runtime;
    const ws = service.world.annSecond;
    const ann = await signedIn(app, ANN.email, ANN.password);
    await ann.get(`/workspaces/${ws}/new`);
    const scene = { type: 'excalidraw', version: 2, source: 'https://excalidraw.com', elements: [{ id: 'r1', type: 'rectangle', x: 0, y: 0, width: 100, height: 50, angle: 0, strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', roughness: 1, opacity: 100, seed: 1, version: 1, versionNonce: 1, isDeleted: false, boundElements: null, updated: 1, link: null, locked: false, groupIds: [], frameId: null, roundness: null }], appState: {}, files: {} };
    const notJson = await ann.post(`/workspaces/${ws}/new`, { kind: 'excalidraw', scene: '{oops', name: 'x' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.body).toContain('the .excalidraw content is not JSON');
    const imported = await ann.post(`/workspaces/${ws}/new`, { kind: 'excalidraw', scene: JSON.stringify(scene), name: 'Sketch' });
    expect(imported.statusCode).toBe(303);
    expect((await ann.get(imported.headers.location as string)).body).toContain('<h1>Sketch</h1>');
  });

  it('shows a viewer no write controls, and the server refuses their writes anyway', async () => {
    const { app, services } = service.runtime;
    const bobWs = service.world.bobWorkspace;
    const bobId = await services.accounts.userIdByEmail('bob@example.com');
    const bob = { tokenId: 't', userId: bobId, scopes: ['diagrams:read' as const, 'diagrams:write' as const], workspaceId: null, door: 'web' as const };
    const doc = (await services.diagrams.createDocument(bob, { workspaceId: bobWs, name: 'Bob plan', elements: [box('a')] })).document.summary;
    const ann = await signedIn(app, ANN.email, ANN.password);

    const list = await ann.get(`/workspaces/${bobWs}`);
    expect(list.body).toContain('Bob plan');
    expect(list.body).not.toContain('New diagram');
    expect(list.body).not.toContain('Create folder');
    const view = await ann.get(`/diagrams/${doc.id}`);
    expect(view.body).toContain('read-only for you (viewer)');
    expect(view.body).not.toMatch(/action="\/diagrams\/[^"]+\/(rename|move|delete|share)"/);
    expect(view.body).toContain('download?format=svg');

    for (const [url, form] of [
      [`/diagrams/${doc.id}/rename`, { name: 'Hacked' }],
      [`/diagrams/${doc.id}/delete`, {}],
      [`/diagrams/${doc.id}/share`, {}],
      [`/workspaces/${bobWs}/folders`, { name: 'x' }],
      [`/workspaces/${bobWs}/new`, { kind: 'code', code: COMPOSE }],
    ] as const) {
      const refused = await ann.post(url, form);
      expect(refused.statusCode, url).toBe(403);
    }
    const refusedPage = await ann.get(`/workspaces/${bobWs}/new`);
    expect(refusedPage.statusCode).toBe(403);
    // A refusal and a missing page are told apart in the tab's title.
    expect(refusedPage.body).toContain('<title>Not allowed · Drawbridge</title>');
    expect((await ann.get('/diagrams/doc_doesnotexist00000000')).body).toContain('<title>Page not found · Drawbridge</title>');
    expect((await services.diagrams.getDocument(bob, doc.id)).summary.name).toBe('Bob plan');
    // Someone outside the workspace sees nothing of it.
    await services.accounts.createUser({ email: 'out@example.com', password: 'outsider password' });
    const outsider = await signedIn(app, 'out@example.com', 'outsider password');
    expect((await outsider.get(`/diagrams/${doc.id}`)).statusCode).toBe(404);
    expect((await outsider.get(`/diagrams/${doc.id}/image.svg`)).statusCode).toBe(404);
    expect(textById((await outsider.get(`/workspaces/${bobWs}`)).body, 'main')).toBeDefined();
  });
});

// The name search is SQL (lower() LIKE with an escape character): run it on every backend the suite has.
describe.each(await availableBackends())('diagram search on %s', (backend) => {
  const service = useTestService({ backend });

  it('searches by name and pages through a long list', async () => {
    const { app, services } = service.runtime;
    const { workspaceId: ws } = await services.accounts.createWorkspace({ email: ANN.email, name: 'Many' });
    const p = { tokenId: 't', userId: service.world.annUserId, scopes: ['diagrams:read', 'diagrams:write'] as const, workspaceId: null, door: 'web' as const };
    for (let i = 0; i < 27; i++) await services.diagrams.createDocument({ ...p, scopes: [...p.scopes] }, { workspaceId: ws, name: i % 9 === 0 ? `Billing ${i}` : `Other_${i}`, elements: [box('a')] });
    const ann = await signedIn(app, ANN.email, ANN.password);
    const first = await ann.get(`/workspaces/${ws}`);
    expect(first.body.match(/class="tile"/g)).toHaveLength(24);
    const next = decodeEntities(/href="([^"]+)">Next page/.exec(first.body)![1]!);
    const second = await ann.get(next);
    expect(second.body.match(/class="tile"/g)).toHaveLength(3);
    expect(second.body).not.toContain('Next page');

    const search = await ann.get(`/workspaces/${ws}?q=BILLING`);
    expect([...search.body.matchAll(/class="tile-title">([^<]+)</g)].map((m) => m[1])).toEqual(['Billing 0', 'Billing 9', 'Billing 18']);
    // LIKE wildcards are literal in a search: 24 names have an underscore, none a percent sign.
    expect((await ann.get(`/workspaces/${ws}?q=_`)).body.match(/class="tile"/g)).toHaveLength(24);
    expect((await ann.get(`/workspaces/${ws}?q=%25`)).body).toContain('No diagram matches');
  });
});
