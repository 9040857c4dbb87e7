import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.js';
import { EXPORT_FORMATS } from '../../../core/export/index.js';
import { NOTATION_TITLES } from '../../../core/graph/types.js';
import { titleFromCode } from '../../../core/notations/title.js';
import { canWrite } from '../../../core/scopes.js';
import type { Services } from '../../../service/index.js';
import { page } from '../plugin.js';
import { TEMPLATES } from '../templates.js';
import { aiReady } from './editor.js';
import { principalOf } from '../session.js';
import { formError } from './account.js';
import { checkName, field, type Form, noticeOf } from './forms.js';
import { seeOther } from '../redirect.js';

const PAGE_SIZE = 24;
const DOWNLOADS = ['svg', 'png', ...EXPORT_FORMATS] as const;
const EXTENSIONS: Record<(typeof DOWNLOADS)[number], string> = { svg: 'svg', png: 'png', excalidraw: 'excalidraw', mermaid: 'mmd', d2: 'd2' };

/** A file name from a diagram name: letters, digits, dashes. */
const fileName = (name: string, extension: string) => `${name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 80) || 'diagram'}.${extension}`;

/** RFC 6266: an ASCII name for old clients and the UTF-8 one (a header value must be Latin-1, or Node refuses it). */
const attachment = (name: string, extension: string) => {
  const unicode = fileName(name, extension);
  const ascii = fileName(name.normalize('NFKD').replace(/[^\x20-\x7e]/g, ''), extension);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(unicode)}`;
};

/** Browsing, viewing and managing diagrams: every action is a DiagramService call as the signed-in person. */
export const diagramPages: FastifyPluginAsync<{ services: Services }> = async (app, { services }) => {
  const { diagrams, members } = services;
  const who = (request: FastifyRequest) => principalOf(request.web.user!);

  const allFolders = async (request: FastifyRequest, workspaceId: string) => (await diagrams.listFolders(who(request), { workspace: workspaceId, limit: 100 })).items;

  const workspaceView = async (request: FastifyRequest, extra: Record<string, unknown> = {}) => {
    const workspaceId = (request.params as { id: string }).id;
    const query = request.query as Form;
    const workspace = await members.workspace(request.web.user!.id, workspaceId);
    const folders = await allFolders(request, workspaceId);
    const folderId = typeof query.folder === 'string' && query.folder ? query.folder : undefined;
    const q = typeof query.q === 'string' ? query.q.slice(0, 200) : '';
    const cursor = typeof query.cursor === 'string' && query.cursor ? query.cursor : undefined;
    const list = await diagrams.listDocuments(who(request), folderId ? { folder: folderId, limit: PAGE_SIZE, cursor, name: q } : { workspace: workspaceId, limit: PAGE_SIZE, cursor, name: q });
    const folderNames = new Map(folders.map((f) => [f.id, f.name]));
    const link = (params: Record<string, string | undefined>) => {
      const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])));
      return `/workspaces/${workspaceId}${search.size ? `?${search}` : ''}`;
    };
    return page(request, workspace.name, {
      workspace,
      writable: canWrite(workspace.role),
      folders,
      folderId,
      q,
      items: list.items.map((d) => ({ ...d, folderName: d.folderId ? folderNames.get(d.folderId) : undefined })),
      next: list.nextCursor ? link({ folder: folderId, q, cursor: list.nextCursor }) : null,
      paged: Boolean(cursor),
      first: link({ folder: folderId, q }),
      folderLink: (id?: string) => link({ folder: id, q }),
      values: {},
      ...extra,
    });
  };

  app.get('/workspaces/:id', async (request, reply) => {
    return reply.view('workspace.eta', await workspaceView(request, noticeOf(request.query)));
  });

  app.post('/workspaces/:id/folders', async (request, reply) => {
    const workspaceId = (request.params as { id: string }).id;
    const name = field(request.body as Form, 'name').trim();
    try {
      const folder = await diagrams.createFolder(who(request), { workspaceId, name: checkName(name) });
      return seeOther(reply, `/workspaces/${workspaceId}?folder=${folder.id}`);
    } catch (error) {
      return formError(request, reply, error, 'workspace.eta', 'Workspace', await workspaceView(request, { values: { folder: name } }));
    }
  });

  const newView = async (request: FastifyRequest, extra: Record<string, unknown> = {}) => {
    const workspaceId = (request.params as { id: string }).id;
    const workspace = await members.workspace(request.web.user!.id, workspaceId);
    if (!canWrite(workspace.role)) throw new AppError('forbidden', `your role in this workspace is ${workspace.role}, which cannot add diagrams`);
    return page(request, `New diagram · ${workspace.name}`, {
      workspace,
      folders: await allFolders(request, workspaceId),
      notations: Object.entries(NOTATION_TITLES).map(([id, title]) => ({ id, title })),
      templates: TEMPLATES,
      ai: await aiReady(services, request, workspaceId),
      values: { kind: 'code', folderId: (request.query as Form).folder ?? '' },
      ...extra,
    });
  };

  app.get('/workspaces/:id/new', async (request, reply) => reply.view('new-diagram.eta', await newView(request)));

  app.post('/workspaces/:id/new', async (request, reply) => {
    const workspaceId = (request.params as { id: string }).id;
    const body = request.body as Form;
    const values = { kind: field(body, 'kind'), name: field(body, 'name').trim(), code: field(body, 'code'), notation: field(body, 'notation'), folderId: field(body, 'folderId'), scene: field(body, 'scene'), prompt: field(body, 'prompt') };
    // A file dropped on the workspace page brings its name, the default when the content names itself nothing.
    const fileName = field(body, 'fileName').replace(/\.[^.]*$/, '').trim().slice(0, 200);
    try {
      const folderId = values.folderId || undefined;
      let id: string;
      let warnings: string[];
      if (values.kind === 'prompt') {
        const prompt = field(body, 'prompt');
        if (!prompt.trim()) throw new AppError('validation_failed', 'describe the diagram to draw');
        const result = await services.generation.generate(who(request), { workspaceId, folderId, prompt, name: values.name ? checkName(values.name) : undefined });
        const notice = result.warnings.length ? `?notice=${encodeURIComponent(`Drawn by ${result.model}, with notes: ${result.warnings.slice(0, 5).join(' · ')}`.slice(0, 1500))}` : '';
        return seeOther(reply, `/diagrams/${result.document.summary.id}${notice}`);
      }
      if (values.kind === 'blank' || values.kind === 'template') {
        const template = TEMPLATES.find((t) => t.id === field(body, 'template'));
        if (values.kind === 'template' && !template) throw new AppError('validation_failed', `no template "${field(body, 'template')}"; the templates are ${TEMPLATES.map((t) => t.id).join(', ')}`);
        const name = template?.title ?? 'Untitled diagram';
        const result = !template
          ? await diagrams.createDocument(who(request), { workspaceId, folderId, name, elements: [] })
          : 'code' in template
            ? await diagrams.createFromCode(who(request), { workspaceId, folderId, name, code: template.code })
            : await diagrams.createDocument(who(request), { workspaceId, folderId, name, elements: template.elements, layout: 'auto', autoIcons: false });
        return seeOther(reply, `/diagrams/${result.document.summary.id}/edit`);
      }
      if (values.kind === 'excalidraw') {
        let scene: unknown;
        try {
          scene = JSON.parse(values.scene);
        } catch {
          throw new AppError('validation_failed', 'the .excalidraw content is not JSON: choose the file again or paste it whole');
        }
        const result = await diagrams.createDocument(who(request), { workspaceId, folderId, name: checkName(values.name || fileName || 'Imported drawing'), elements: scene });
        ({ id } = result.document.summary);
        warnings = result.warnings;
      } else {
        if (!values.code.trim()) throw new AppError('validation_failed', 'paste some code to draw (Mermaid, D2, docker-compose, Kubernetes, DOT, PlantUML, Terraform, Helm or SQL)');
        const named = values.name || (titleFromCode(values.code) ? '' : fileName);
        const result = await diagrams.createFromCode(who(request), { workspaceId, folderId, name: named ? checkName(named) : undefined, code: values.code, notation: values.notation || undefined });
        ({ id } = result.document.summary);
        warnings = result.warnings;
      }
      const notice = warnings.length ? `Drawn, with notes: ${warnings.slice(0, 5).join(' · ')}` : '';
      return seeOther(reply, `/diagrams/${id}${notice ? `?notice=${encodeURIComponent(notice.slice(0, 1500))}` : ''}`);
    } catch (error) {
      return formError(request, reply, error, 'new-diagram.eta', 'New diagram', await newView(request, { values }));
    }
  });

  const diagramView = async (request: FastifyRequest, extra: Record<string, unknown> = {}) => {
    const id = (request.params as { id: string }).id;
    const { summary } = await diagrams.getDocument(who(request), id);
    const workspace = await members.workspace(request.web.user!.id, summary.workspaceId);
    const folders = await allFolders(request, summary.workspaceId);
    const share = summary.share;
    return page(request, summary.name, {
      // The drawing takes the page's width: wide diagrams are the common case (architectures, pipelines).
      wide: true,
      diagram: summary,
      workspace,
      writable: canWrite(workspace.role),
      folders,
      folderName: folders.find((f) => f.id === summary.folderId)?.name,
      downloads: DOWNLOADS,
      share: share && {
        url: share.url,
        markdown: `![${summary.name.replace(/[[\]]/g, '')}](${share.url})`,
        html: `<img src="${share.url}" alt="${summary.name.replace(/["<>&]/g, '')}">`,
      },
      values: {},
      ...extra,
    });
  };

  app.get('/diagrams/:id', async (request, reply) => {
    return reply.view('diagram.eta', await diagramView(request, noticeOf(request.query)));
  });

  app.get('/diagrams/:id/image.svg', async (request, reply) => {
    const rendered = await diagrams.renderDocument(who(request), (request.params as { id: string }).id, 'svg', { ifNoneMatch: request.headers['if-none-match'] });
    reply.header('ETag', rendered.etag).header('Cache-Control', 'private, no-cache');
    if (rendered.notModified) return reply.code(304).send();
    return reply.type(rendered.contentType).send(rendered.body);
  });

  app.get('/diagrams/:id/download', async (request, reply) => {
    const id = (request.params as { id: string }).id;
    const format = (request.query as Form).format;
    const { summary } = await diagrams.getDocument(who(request), id);
    const send = (body: string | Buffer, type: string, extension: string) =>
      reply.header('Content-Disposition', attachment(summary.name, extension)).type(type).send(body);
    if (format === 'svg' || format === 'png') {
      const rendered = await diagrams.renderDocument(who(request), id, format);
      if (rendered.notModified) throw new AppError('internal', 'a render without If-None-Match answered not-modified');
      return send(rendered.body as string | Buffer, rendered.contentType, format);
    }
    if (format === 'excalidraw' || format === 'mermaid' || format === 'd2') {
      const result = await diagrams.exportDocument(who(request), id, format);
      if (result.format === 'excalidraw') return send(JSON.stringify(result.scene, null, 2), 'application/json; charset=utf-8', EXTENSIONS.excalidraw);
      return send(result.code, 'text/plain; charset=utf-8', EXTENSIONS[result.format]);
    }
    throw new AppError('unsupported_format', `download format must be one of ${DOWNLOADS.join(', ')}`);
  });

  const act = (path: string, run: (request: FastifyRequest, id: string) => Promise<string | { redirect: string }>) =>
    app.post(`/diagrams/:id/${path}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const id = (request.params as { id: string }).id;
      try {
        const outcome = await run(request, id);
        return seeOther(reply, typeof outcome === 'string' ? `/diagrams/${id}?notice=${encodeURIComponent(outcome)}` : outcome.redirect);
      } catch (error) {
        return formError(request, reply, error, 'diagram.eta', 'Diagram', await diagramView(request));
      }
    });

  act('rename', async (request, id) => {
    const name = checkName(field(request.body as Form, 'name').trim());
    await diagrams.updateDocument(who(request), id, { name });
    return `Renamed to “${name}”.`;
  });
  act('move', async (request, id) => {
    const folderId = field(request.body as Form, 'folderId') || null;
    await diagrams.moveDocument(who(request), id, folderId);
    return folderId ? 'Moved.' : 'Moved out of its folder.';
  });
  act('share', async (request, id) => {
    await diagrams.share(who(request), id);
    return 'Shared: anyone with the link sees a read-only picture.';
  });
  act('unshare', async (request, id) => {
    await diagrams.unshare(who(request), id);
    return 'No longer shared: the old link stops working.';
  });
  act('delete', async (request, id) => {
    const { summary } = await diagrams.getDocument(who(request), id);
    await diagrams.deleteDocument(who(request), id);
    return { redirect: `/workspaces/${summary.workspaceId}?notice=${encodeURIComponent(`Deleted “${summary.name}”.`)}` };
  });
};
