import { describe, expect, it } from 'vitest';
import { principalOf } from '../../src/adapters/web/session.js';
import { TEMPLATES } from '../../src/adapters/web/templates.js';
import { signedIn } from '../support/web-client.js';
import { useTestService } from '../support/world.js';

const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };

describe('new diagrams from the web app', () => {
  const service = useTestService();
  const stored = async (id: string) => {
    const ann = principalOf({ id: service.world.annUserId, email: ANN.email, name: 'Ann', plan: 'free' });
    const doc = await service.runtime.services.diagrams.getDocument(ann, id);
    return { name: doc.summary.name, elements: JSON.parse(doc.elementsJson) as Array<{ type: string; icon?: unknown }> };
  };
  const created = (location: unknown) => /^\/diagrams\/(doc_\w+)(\/edit)?/.exec(String(location))![1]!;

  it('starts a blank canvas in the editor', async () => {
    const ann = await signedIn(service.runtime.app, ANN.email, ANN.password);
    const page = await ann.get(`/workspaces/${service.world.annWorkspace}/new`);
    expect(page.body).toContain('Blank canvas');
    const blank = await ann.post(`/workspaces/${service.world.annWorkspace}/new`, { kind: 'blank' });
    expect(blank.statusCode).toBe(303);
    expect(blank.headers.location).toMatch(/^\/diagrams\/doc_\w+\/edit$/);
    expect(await stored(created(blank.headers.location))).toEqual({ name: 'Untitled diagram', elements: [] });
  });

  it.each(TEMPLATES.map((t) => [t.id, t] as const))('draws the %s template with our own input, laid out, without a warning', async (_id, template) => {
    const ann = await signedIn(service.runtime.app, ANN.email, ANN.password);
    await ann.get(`/workspaces/${service.world.annWorkspace}/new`);
    const made = await ann.post(`/workspaces/${service.world.annWorkspace}/new`, { kind: 'template', template: template.id });
    expect(made.statusCode).toBe(303);
    const doc = await stored(created(made.headers.location));
    expect(doc.name).toBe(template.title);
    expect(doc.elements.length).toBeGreaterThan(5);
    expect(doc.elements.filter((e) => e.type === 'arrow').length).toBeGreaterThan(2);
    // The same input through the service says what it dropped or changed: nothing.
    const ws = service.world.annWorkspace;
    const principal = principalOf({ id: service.world.annUserId, email: ANN.email, name: 'Ann', plan: 'free' });
    const again =
      'code' in template
        ? await service.runtime.services.diagrams.createFromCode(principal, { workspaceId: ws, name: 'x', code: template.code })
        : await service.runtime.services.diagrams.createDocument(principal, { workspaceId: ws, name: 'x', elements: template.elements, layout: 'auto', autoIcons: false });
    expect(again.warnings).toEqual([]);
    if (template.id === 'aws-3-tier' || template.id === 'kubernetes-services') expect(doc.elements.filter((e) => e.icon).length).toBeGreaterThanOrEqual(5);
  });

  it('refuses a template that does not exist, naming those that do', async () => {
    const ann = await signedIn(service.runtime.app, ANN.email, ANN.password);
    await ann.get(`/workspaces/${service.world.annWorkspace}/new`);
    const refused = await ann.post(`/workspaces/${service.world.annWorkspace}/new`, { kind: 'template', template: 'gantt' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('no template &quot;gantt&quot;; the templates are aws-3-tier');
  });

  it('names a diagram from its content: the title in the code, else the dropped file name, else the notation', async () => {
    const ann = await signedIn(service.runtime.app, ANN.email, ANN.password);
    const ws = service.world.annWorkspace;
    await ann.get(`/workspaces/${ws}`);
    const titled = await ann.post(`/workspaces/${ws}/new`, { kind: 'code', code: '---\ntitle: Checkout flow\n---\nflowchart LR\n  a --> b', fileName: 'flow.mmd' });
    expect((await stored(created(titled.headers.location))).name).toBe('Checkout flow');
    const fromFile = await ann.post(`/workspaces/${ws}/new`, { kind: 'code', code: 'flowchart LR\n  a --> b', fileName: 'billing-flow.mmd' });
    expect((await stored(created(fromFile.headers.location))).name).toBe('billing-flow');
    const plain = await ann.post(`/workspaces/${ws}/new`, { kind: 'code', code: 'flowchart LR\n  a --> b' });
    expect((await stored(created(plain.headers.location))).name).toBe('Mermaid diagram');
    const scene = JSON.stringify({ type: 'excalidraw', version: 2, elements: [] });
    const imported = await ann.post(`/workspaces/${ws}/new`, { kind: 'excalidraw', scene, fileName: 'whiteboard.excalidraw' });
    expect((await stored(created(imported.headers.location))).name).toBe('whiteboard');
  });
});
