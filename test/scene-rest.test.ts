import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ELEMENT_TYPES } from '../src/core/scene/constants.js';
import { availableBackends } from './support/backends.js';
import { bearer, useTestService } from './support/world.js';

const json = (res: LightMyRequestResponse) => res.json() as any;
const everyType = JSON.parse(readFileSync('test/fixtures/excalidraw/native-every-type.json', 'utf8')) as { type: string }[];

describe.each(await availableBackends())('scenes through REST on %s', (backend) => {
  const service = useTestService({ backend });

  it('accepts every element type, fills defaults, and reads back what it stored; sending it back changes nothing', async () => {
    expect(new Set(everyType.map((e) => e.type))).toEqual(new Set(ELEMENT_TYPES));
    const created = await service.runtime.app.inject({
      method: 'POST',
      url: '/api-v1/documents',
      headers: bearer(service.world.tokens.annAll),
      payload: { workspaceId: service.world.annWorkspace, name: 'Every type', elements: everyType },
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = json(created);
    expect(body.format).toBe('native');
    expect(body.elements).toHaveLength(everyType.length);
    for (const element of body.elements) {
      expect(element).toHaveProperty('strokeColor');
      expect(element).toHaveProperty('seed');
    }
    const read = json(await service.runtime.app.inject({ method: 'GET', url: `/api-v1/documents/${body.id}`, headers: bearer(service.world.tokens.annAll) }));
    expect(read.elements).toEqual(body.elements);
    const resent = json(
      await service.runtime.app.inject({ method: 'PATCH', url: `/api-v1/documents/${body.id}`, headers: bearer(service.world.tokens.annAll), payload: { elements: read.elements } }),
    );
    expect(resent.elements).toEqual(read.elements);
    expect(resent.warnings).toEqual([]);
  });

  it('reads a real .excalidraw file and says so', async () => {
    const scene = JSON.parse(readFileSync('test/fixtures/excalidraw/kubekey-ha-registry.excalidraw', 'utf8'));
    const res = json(
      await service.runtime.app.inject({ method: 'POST', url: '/api-v1/documents', headers: bearer(service.world.tokens.annAll), payload: { workspaceId: service.world.annWorkspace, name: 'kubekey', elements: scene } }),
    );
    expect(res.format).toBe('excalidraw');
    expect(res.elements.filter((e: any) => e.type === 'arrow' && e.startBinding && e.endBinding)).toHaveLength(4);
  });

  it('names the element, the field and the expectation in a validation error, and reports dropped fields', async () => {
    const bad = await service.runtime.app.inject({
      method: 'POST',
      url: '/api-v1/documents',
      headers: bearer(service.world.tokens.annAll),
      payload: {
        workspaceId: service.world.annWorkspace,
        name: 'Bad',
        elements: [
          { id: 'a', type: 'rectangle', x: 0, y: 0, width: 10, height: 10 },
          { id: 'b', type: 'rectangle', x: 0, y: 0, width: 10, height: 10 },
          { id: 'c', type: 'rectangle', x: 0, y: 0, width: 10, height: 10 },
          { id: 'db', type: 'cylinder', x: 0, y: 0, width: 10, height: 10, strokeWidth: 12 },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).error.message).toContain('elements[3] (id "db"): strokeWidth must be between 1 and 8');
    const extra = json(
      await service.runtime.app.inject({
        method: 'POST',
        url: '/api-v1/documents',
        headers: bearer(service.world.tokens.annAll),
        payload: { workspaceId: service.world.annWorkspace, name: 'Extra', elements: [{ id: 'a', type: 'rectangle', x: 0, y: 0, width: 10, height: 10, sparkle: true }] },
      }),
    );
    expect(extra.warnings.join('\n')).toMatch(/elements\[0\].*sparkle/);
    expect(extra.elements[0]).not.toHaveProperty('sparkle');
  });
});
