import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { availableBackends } from './support/backends.js';
import { bearer, box, useTestService } from './support/world.js';

const json = (res: LightMyRequestResponse) => res.json() as any;

describe.each(await availableBackends())('sharing on %s', (backend) => {
  const service = useTestService({ backend });
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: object) =>
    service.runtime.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
  const createDoc = async (workspaceId = service.world.annWorkspace, token = service.world.tokens.annAll) =>
    json(await call('POST', '/api-v1/documents', token, { workspaceId, name: 'Shared', elements: [box('api'), box('db', 300)] }));

  it('creates one unguessable public link, returns the same one again, and shows it on the document', async () => {
    const doc = await createDoc();
    expect(json(await call('GET', `/api-v1/documents/${doc.id}`, service.world.tokens.annAll)).share).toBeNull();
    const first = await call('POST', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll);
    expect(first.statusCode).toBe(201);
    const link = json(first);
    expect(link.token).toMatch(/^shr_[0-9A-Za-z]{32}$/); // 32 base62 characters ≈ 190 bits
    expect(link.url).toBe(`http://drawbridge.test/render/svg?token=${link.token}`);
    const again = await call('POST', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll);
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual(link);
    expect(json(await call('GET', `/api-v1/documents/${doc.id}`, service.world.tokens.annRead)).share).toEqual(link);
    const other = json(await call('POST', `/api-v1/documents/${(await createDoc()).id}/share`, service.world.tokens.annAll));
    expect(other.token).not.toBe(link.token);
  });

  it('revokes the link, and sharing again makes a new one', async () => {
    const doc = await createDoc();
    const link = json(await call('POST', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll));
    expect((await call('DELETE', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll)).statusCode).toBe(204);
    expect(json(await call('GET', `/api-v1/documents/${doc.id}`, service.world.tokens.annAll)).share).toBeNull();
    expect((await call('DELETE', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll)).statusCode).toBe(204);
    const fresh = json(await call('POST', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll));
    expect(fresh.token).not.toBe(link.token);
  });

  it('serves the shared diagram as a self-contained SVG with no API token, and stops at once when revoked', async () => {
    const doc = await createDoc();
    const link = json(await call('POST', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll));
    const path = new URL(link.url).pathname + new URL(link.url).search;
    const image = await call('GET', path);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toContain('image/svg+xml');
    expect(image.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; frame-ancestors 'none'");
    expect(image.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(image.body).toMatch(/^<svg[^>]*viewBox=/);
    expect(image.body).not.toMatch(/(href|src)="(https?:)?\/\//);
    const etag = image.headers.etag as string;
    for (const tag of [etag, `W/${etag}`, `"stale", ${etag}`]) {
      expect((await service.runtime.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': tag } })).statusCode, tag).toBe(304);
    }
    await call('PATCH', `/api-v1/documents/${doc.id}`, service.world.tokens.annAll, { name: 'Changed' });
    const changed = await service.runtime.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    await call('DELETE', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll);
    const revoked = await call('GET', path);
    expect(revoked.statusCode).toBe(404);
    expect(json(revoked).error.code).toBe('not_found');
    for (const token of ['', 'shr_nope', `shr_${'a'.repeat(32)}`]) expect((await call('GET', `/render/svg?token=${token}`)).statusCode, token).toBe(404);
    expect((await call('GET', '/render/svg')).statusCode).toBe(400);
  });

  it('renders hostile content harmlessly', async () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(1)>"\'&';
    const doc = json(
      await call('POST', '/api-v1/documents', service.world.tokens.annAll, {
        workspaceId: service.world.annWorkspace,
        name: hostile,
        elements: [
          { id: 'x', type: 'rectangle', x: 0, y: 0, width: 200, height: 80, text: hostile, link: 'https://example.com/?q="><script>' },
          { id: 't', type: 'text', x: 0, y: 120, text: ']]><foreignObject><iframe src="javascript:alert(1)"/></foreignObject>' },
        ],
      }),
    );
    const link = json(await call('POST', `/api-v1/documents/${doc.id}/share`, service.world.tokens.annAll));
    const svg = (await call('GET', new URL(link.url).pathname + new URL(link.url).search)).body;
    expect(svg).not.toMatch(/<script|<foreignObject|<iframe|\son\w+=/i);
    // The words may appear as escaped text, never as a URL an attribute would follow.
    expect(svg).not.toMatch(/=\s*["']\s*javascript:/i);
    expect(svg).toContain('&lt;script&gt;');
  });

  it('renders a document privately as SVG and PNG for its readers', async () => {
    const doc = await createDoc();
    const svg = await call('GET', `/api-v1/documents/${doc.id}/render?format=svg`, service.world.tokens.annRead);
    expect(svg.statusCode).toBe(200);
    expect(svg.body).toMatch(/^<svg/);
    const png = await call('GET', `/api-v1/documents/${doc.id}/render?format=png&scale=0.5`, service.world.tokens.annRead);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect((await call('GET', `/api-v1/documents/${doc.id}/render?format=gif`, service.world.tokens.annRead)).statusCode).toBe(400);
    expect((await call('GET', `/api-v1/documents/${doc.id}/render`, service.world.tokens.annWriteOnly)).statusCode).toBe(403);
    const hidden = await createDoc(service.world.annSecond);
    expect((await call('GET', `/api-v1/documents/${hidden.id}/render`, service.world.tokens.annPinned)).statusCode).toBe(404);
  });

  it('needs diagrams:write and an editor, and hides other workspaces', async () => {
    const doc = await createDoc();
    for (const method of ['POST', 'DELETE'] as const) {
      const res = await call(method, `/api-v1/documents/${doc.id}/share`, service.world.tokens.annRead);
      expect(res.statusCode).toBe(403);
      expect(json(res).error.message).toContain('diagrams:write');
    }
    const bobDoc = await createDoc(service.world.bobWorkspace, service.world.tokens.bobAll);
    expect(json(await call('POST', `/api-v1/documents/${bobDoc.id}/share`, service.world.tokens.annAll)).error.code).toBe('forbidden');
    const secondDoc = await createDoc(service.world.annSecond);
    expect((await call('POST', `/api-v1/documents/${secondDoc.id}/share`, service.world.tokens.annPinned)).statusCode).toBe(404);
    expect((await call('DELETE', `/api-v1/documents/${secondDoc.id}/share`, service.world.tokens.annPinned)).statusCode).toBe(404);
  });
});
