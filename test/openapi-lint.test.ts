import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { useTestService } from './support/world.js';

/**
 * The OpenAPI document passes Redocly's `recommended` rules (what `npx @redocly/cli lint` runs) with no error and
 * no warning: every operation has an operationId, a summary and its 4xx answers in our error form.
 */
describe('the OpenAPI document', () => {
  const service = useTestService();

  it("passes Redocly's recommended lint rules without a problem", async () => {
    const source = (await service.runtime.app.inject({ method: 'GET', url: '/api-v1/openapi.json' })).body;
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
    expect(problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it('documents every refusal with the error body the service sends', async () => {
    const spec = (await service.runtime.app.inject({ method: 'GET', url: '/api-v1/openapi.json' })).json();
    const refused = await service.runtime.app.inject({ method: 'GET', url: '/api-v1/documents/doc_nope' });
    expect(refused.statusCode).toBe(401);
    expect(Object.keys(refused.json())).toEqual(['error']);
    const documented = spec.paths['/api-v1/documents/{id}'].get.responses['401'].content['application/json'].schema;
    expect(documented).toEqual({ $ref: '#/components/schemas/Error' });
    expect(spec.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    const ids = Object.values(spec.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
