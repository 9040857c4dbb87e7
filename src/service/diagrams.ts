import { type Kysely, sql } from 'kysely';
import type { LRUCache } from 'lru-cache';
import { AppError } from '../core/errors.js';
import { type ExportResult, parseExportFormat } from '../core/export/index.js';
import type { IconVendor } from '../core/icons/index.js';
import type { Detail } from '../core/graph/fold.js';
import { type GraphIR, NOTATION_TITLES } from '../core/graph/types.js';
import { d2ToGraph } from '../core/notations/d2/index.js';
import { checkGraphSize, isD2Code } from '../core/notations/index.js';
import { titleFromCode } from '../core/notations/title.js';
import { canWrite, type Role } from '../core/scopes.js';
import { intakeScene, type Element, type SceneFormat, type SceneIntake } from '../core/scene/intake.js';
import { operationsFor } from '../core/scene/scene-delta.js';
import type { ExcalidrawScene } from '../core/scene/to-excalidraw.js';
import { summarizeScene } from '../core/scene/summary.js';
import { applyOperations, type Operation, type Touched } from '../core/scene/operations.js';
import { carryOver } from '../core/scene/redraw.js';
import { preparedQuery } from '../infra/storage/prepared.js';
import type { Database } from '../infra/storage/schema.js';
import { newId, nowIso, randomBase62 } from './ids.js';
import { type CursorCodec, type Page, toPage } from './pagination.js';
import { type Principal, requireScope } from './principal.js';
import { keepLabels, unplaceAll } from '../core/scene/relayout.js';
import { prepareLaidOutScene, prepareScene } from './scene.js';
import type { DocumentSummary, FolderSummary, WorkspaceSummary } from './schemas.js';
import { etagMatches } from './etag.js';
import type { StoredVersion, VersionHistory, VersionSummary } from './history.js';
import type { D2Compiler, DrawnCode, DrawnGraph, HeavyWork, PngRequest } from './heavy-work.js';

type DocumentRow = Database['documents'];
type ShareRow = { token: string; createdAt: string };

/** Bumped when drawings change for the same scene, so cached images are not reused across such a release. */
const RENDER_VERSION = 'r1';

export type Rendered =
  | { etag: string; notModified: true }
  | { etag: string; notModified: false; contentType: string; body: string | Buffer };

/** How a document is shared publicly: the image URL anyone can load, and its token. */
export interface ShareInfo {
  url: string;
  token: string;
  createdAt: string;
}

interface StampingInput {
  vendor?: IconVendor | undefined;
  autoIcons?: boolean | undefined;
  /** "auto": elements without coordinates are placed by the layout engine; "all" (updates only): every element is. */
  layout?: 'auto' | 'all' | undefined;
}

/** A stored document with its elements still as the JSON text they are kept in (REST sends it without re-parsing). */
/** What a diagram drawn from code was drawn from, kept so it can be corrected and redrawn. */
export interface DiagramSource {
  notation: string;
  code: string;
  /** How much was drawn when it is not the default (`full`: nothing folded); a redraw draws as much again. */
  detail?: Detail;
}

export interface StoredDocument {
  summary: DocumentSummary & { createdBy: string; share: ShareInfo | null; vendor: IconVendor | null; source: DiagramSource | null };
  elementsJson: string;
}

export interface WriteResult {
  document: StoredDocument;
  warnings: string[];
  format: SceneFormat;
}

const notFound = (what: string, id: string) => new AppError('not_found', `${what} ${id} not found`);

/**
 * The diagram use cases. Every method checks the token's scope, its workspace pin and the caller's membership
 * itself, so no adapter can forget to: a workspace the caller may not see answers exactly like one that does not exist.
 */
export class DiagramService {
  private readonly documentForMember;
  private readonly documentForPinnedMember;
  private readonly documentByShareToken;
  private readonly sharedVersion;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly cursors: CursorCodec,
    private readonly publicUrl: string,
    private readonly work: HeavyWork,
    /** Public SVGs by document id and version: anyone may load a shared link in a loop, so each version renders once. */
    private readonly publicSvgs: LRUCache<string, string>,
    private readonly d2: D2Compiler,
    private readonly history: VersionHistory,
  ) {
    const visible = (userId: string, id: string) =>
      db
        .selectFrom('documents')
        .innerJoin('memberships', (join) => join.onRef('memberships.workspace_id', '=', 'documents.workspace_id').on('memberships.user_id', '=', userId))
        .leftJoin('document_shares', 'document_shares.document_id', 'documents.id')
        .selectAll('documents')
        .select(['memberships.role', 'document_shares.token as share_token', 'document_shares.created_at as share_created_at'])
        .where('documents.id', '=', id);
    this.documentForMember = preparedQuery(db, visible);
    this.documentByShareToken = preparedQuery(db, (token: string) =>
      db.selectFrom('documents').innerJoin('document_shares', 'document_shares.document_id', 'documents.id').selectAll('documents').where('document_shares.token', '=', token),
    );
    // Only the id and version: a cached or unchanged drawing is answered without reading the scene.
    this.sharedVersion = preparedQuery(db, (token: string) =>
      db
        .selectFrom('documents')
        .innerJoin('document_shares', 'document_shares.document_id', 'documents.id')
        .select(['documents.id', 'documents.version'])
        .where('document_shares.token', '=', token),
    );
    this.documentForPinnedMember = preparedQuery(db, (userId: string, id: string, workspaceId: string) =>
      visible(userId, id).where('documents.workspace_id', '=', workspaceId),
    );
  }

  async listWorkspaces(p: Principal): Promise<{ items: WorkspaceSummary[] }> {
    requireScope(p, 'diagrams:read');
    let query = this.db
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select(['workspaces.id', 'workspaces.name', 'memberships.role'])
      .where('memberships.user_id', '=', p.userId)
      // A short unpaginated list: alphabetical is what people scan.
      .orderBy('workspaces.name')
      .orderBy('workspaces.id');
    if (p.workspaceId) query = query.where('workspaces.id', '=', p.workspaceId);
    const rows = await query.execute();
    return { items: rows.map((r) => ({ id: r.id, name: r.name, role: r.role as Role })) };
  }

  async listFolders(p: Principal, q: { workspace: string; limit: number; cursor?: string | undefined }): Promise<Page<FolderSummary>> {
    requireScope(p, 'diagrams:read');
    await this.roleIn(p, q.workspace);
    const listing = `folders:${q.workspace}`;
    let query = this.db.selectFrom('folders').selectAll().where('workspace_id', '=', q.workspace);
    if (q.cursor) {
      const after = this.cursors.decode(listing, q.cursor);
      query = query.where((eb) =>
        eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(q.limit + 1).execute();
    return toPage(rows, q.limit, this.cursors, listing, (r) => ({ id: r.id, name: r.name, workspaceId: r.workspace_id, createdAt: r.created_at }));
  }

  async createFolder(p: Principal, input: { workspaceId: string; name: string }): Promise<FolderSummary> {
    requireScope(p, 'diagrams:write');
    await this.writableRoleIn(p, input.workspaceId);
    const row = { id: newId('folder'), workspace_id: input.workspaceId, name: input.name, created_at: nowIso() };
    await this.db.insertInto('folders').values(row).execute();
    return { id: row.id, name: row.name, workspaceId: row.workspace_id, createdAt: row.created_at };
  }

  async listDocuments(
    p: Principal,
    q: { workspace?: string | undefined; folder?: string | undefined; limit: number; cursor?: string | undefined; name?: string | undefined },
  ): Promise<Page<DocumentSummary>> {
    requireScope(p, 'diagrams:read');
    let listing: string;
    let query = this.db
      .selectFrom('documents')
      .select(['id', 'name', 'workspace_id', 'folder_id', 'version', 'created_at', 'updated_at']);
    if (q.folder) {
      await this.visibleFolder(p, q.folder);
      listing = `documents:folder:${q.folder}`;
      query = query.where('folder_id', '=', q.folder);
    } else if (q.workspace) {
      await this.roleIn(p, q.workspace);
      listing = `documents:workspace:${q.workspace}`;
      query = query.where('workspace_id', '=', q.workspace);
    } else {
      throw new AppError('bad_request', 'give exactly one of the query parameters workspace or folder');
    }
    const name = q.name?.trim().toLowerCase();
    if (name) {
      // Case-insensitive "contains", the same on SQLite and PostgreSQL; a cursor belongs to its search.
      listing += `:name:${name}`;
      const pattern = `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
    }
    if (q.cursor) {
      const after = this.cursors.decode(listing, q.cursor);
      query = query.where((eb) =>
        eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(q.limit + 1).execute();
    return toPage(rows, q.limit, this.cursors, listing, toSummary);
  }

  async getDocument(p: Principal, id: string): Promise<StoredDocument> {
    requireScope(p, 'diagrams:read');
    const { row, share } = await this.visibleDocument(p, id);
    return toStored(row, this.shareInfo(share));
  }

  /**
   * What a write into this workspace (and folder) requires: scope, membership, a role that may write. Callers about
   * to do paid or slow work for a write (a model's answer) ask first, so a refused caller costs nothing.
   */
  async checkWritable(p: Principal, workspaceId: string, folderId?: string): Promise<void> {
    requireScope(p, 'diagrams:write');
    await this.writableRoleIn(p, workspaceId);
    if (folderId) {
      const folder = await this.visibleFolder(p, folderId);
      if (folder.workspace_id !== workspaceId) throw notFound('folder', folderId);
    }
  }

  async createDocument(
    p: Principal,
    input: { workspaceId: string; name: string; folderId?: string | undefined; elements?: unknown; source?: DiagramSource | undefined } & StampingInput,
  ): Promise<WriteResult> {
    await this.checkWritable(p, input.workspaceId, input.folderId);
    const options = { vendor: input.vendor, autoIcons: input.autoIcons };
    const scene = input.layout === 'auto' ? await prepareLaidOutScene(input.elements ?? [], options, this.work) : prepareScene(input.elements ?? [], options);
    const now = nowIso();
    const row: DocumentRow = {
      id: newId('document'),
      workspace_id: input.workspaceId,
      folder_id: input.folderId ?? null,
      name: input.name,
      elements: JSON.stringify(scene.elements),
      version: 1,
      created_at: now,
      updated_at: now,
      created_by: p.userId,
      vendor: input.vendor ?? null,
      source: input.source === undefined ? null : JSON.stringify(input.source),
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('documents').values(row).execute();
      await this.history.keep(trx, p, null, row);
    });
    return { document: toStored(row, null), warnings: scene.warnings, format: scene.format };
  }

  /**
   * Draws a diagram from code (docker-compose, Kubernetes, DOT, …) and stores it like any created document: the
   * generated elements pass the same intake and stamping. Nothing is stored when the code does not parse.
   */
  async createFromCode(
    p: Principal,
    input: { workspaceId: string; code: string; folderId?: string | undefined; name?: string | undefined; notation?: string | undefined; detail?: Detail | undefined } & StampingInput,
  ): Promise<WriteResult & { notation: string }> {
    requireScope(p, 'diagrams:write');
    await this.writableRoleIn(p, input.workspaceId);
    const generated = await this.drawCode(input.code, input.notation, input.vendor, input.detail);
    const result = await this.createDocument(p, {
      workspaceId: input.workspaceId,
      folderId: input.folderId,
      // What the code calls itself, before the notation's name ("Mermaid diagram" says nothing about it).
      name: input.name ?? titleFromCode(input.code) ?? `${NOTATION_TITLES[generated.notation]} diagram`,
      elements: generated.elements,
      vendor: input.vendor,
      source: { notation: generated.notation, code: input.code, ...(input.detail !== undefined && { detail: input.detail }) },
      // Icons come from what the notation says a node is; label guesses would land on boxes sized without one.
      autoIcons: input.autoIcons ?? false,
    });
    return { ...result, notation: generated.notation, warnings: [...generated.warnings, ...result.warnings] };
  }

  private drawCode(code: string, notation: string | undefined, vendor: IconVendor | undefined, detail?: Detail): Promise<DrawnCode> {
    return isD2Code(code, notation) ? this.fromD2(code, vendor) : this.work.fromCode(code, { notation, vendor, detail });
  }

  /**
   * New code for a diagram drawn from code: both codes are drawn (the new one, and the previous one again to tell what
   * was changed by hand, see core/scene/redraw.ts) and the user's changes carried onto the new drawing. A parse error
   * of the new code throws before anything is written.
   */
  private async redraw(
    stored: readonly Element[],
    source: DiagramSource,
    change: { code: string; notation?: string | undefined; detail?: Detail | undefined; autoIcons?: boolean | undefined },
    vendor: IconVendor | undefined,
  ): Promise<{ scene: SceneIntake; source: DiagramSource }> {
    // As from-code stores them: icons from what the notation says a node is, none guessed from labels.
    const options = { vendor, autoIcons: change.autoIcons ?? false };
    const draw = async (code: string, notation: string, detail: Detail | undefined) => {
      const drawn = await this.drawCode(code, notation, vendor, detail);
      return { ...drawn, scene: prepareScene(drawn.elements, options) };
    };
    const notation = change.notation ?? source.notation;
    const detail = change.detail ?? source.detail;
    const next = draw(change.code, notation, detail);
    // Drawn side by side; a previous code that no longer draws (a stricter parser since) only costs the carry-over.
    const unchanged = change.code === source.code && notation === source.notation && detail === source.detail;
    const previous = unchanged ? next : draw(source.code, source.notation, source.detail).catch(() => undefined);
    const after = await next;
    const before = await previous;
    const merged = carryOver(stored, before?.scene.elements, after.scene.elements);
    const scene = prepareScene(merged.elements, { ...options, previous: stored });
    return {
      scene: { ...scene, warnings: [...new Set([...after.warnings, ...after.scene.warnings, ...merged.warnings, ...scene.warnings])] },
      source: { notation: after.notation, code: change.code, ...(detail !== undefined && { detail }) },
    };
  }

  /**
   * D2 is compiled by D2's own compiler (its thread, its time limit), then laid out and drawn by ours in the job pool
   * like any graph; a graph over the from-code limits is refused before it reaches the pool.
   */
  private async fromD2(code: string, vendor: IconVendor | undefined): Promise<DrawnCode> {
    const graph = d2ToGraph(await this.d2.compile(code));
    checkGraphSize(graph);
    const drawn = await this.work.fromGraph(graph, vendor);
    return { elements: drawn.elements, notation: 'd2', warnings: drawn.warnings };
  }

  /**
   * Stores a diagram drawn from a graph made elsewhere (AI generation): laid out and stamped as from-code does, and,
   * with `replace`, written over that document as a normal versioned update.
   */
  async createFromGraph(
    p: Principal,
    input: {
      workspaceId: string;
      name: string;
      folderId?: string | undefined;
      vendor?: IconVendor | undefined;
      /**
       * Write over this document instead: `merge` turns the drawn graph into its new scene, or into operations on the
       * stored one (none: nothing is written); `note` heads the version's summary in the history.
       */
      replace?: {
        id: string;
        expectedVersion?: number | undefined;
        note?: string;
        merge(drawn: DrawnGraph): { elements: unknown[]; warnings: string[] } | { operations: Operation[]; warnings: string[] };
      };
    },
    graph: GraphIR,
  ): Promise<WriteResult> {
    requireScope(p, 'diagrams:write');
    await this.writableRoleIn(p, input.workspaceId);
    const drawn = await this.work.fromGraph(graph, input.vendor);
    if (input.replace) {
      const merged = input.replace.merge(drawn);
      const content = 'operations' in merged ? { operations: merged.operations } : { elements: merged.elements };
      if (content.operations?.length === 0) {
        const unchanged = await this.getDocument(p, input.replace.id);
        return { document: unchanged, warnings: [...merged.warnings, 'the answer changes nothing in the diagram, so no version was written'], format: 'native' };
      }
      const result = await this.updateDocument(p, input.replace.id, { ...content, vendor: input.vendor, autoIcons: false, note: input.replace.note }, input.replace.expectedVersion);
      return { ...result, warnings: [...drawn.warnings, ...merged.warnings, ...result.warnings] };
    }
    const result = await this.createDocument(p, { workspaceId: input.workspaceId, folderId: input.folderId, name: input.name, elements: drawn.elements, vendor: input.vendor, autoIcons: false });
    return { ...result, warnings: [...drawn.warnings, ...result.warnings] };
  }

  /**
   * Applies a change atomically: the write only lands on the version that was read, so two concurrent updates can
   * never interleave (a client that sent If-Match gets 412; one that did not is retried on the fresh version).
   */
  async updateDocument(
    p: Principal,
    id: string,
    change: { name?: string | undefined; elements?: unknown; operations?: readonly Operation[] | undefined; code?: string | undefined; notation?: string | undefined; detail?: Detail | undefined; note?: string | undefined } & StampingInput,
    expectedVersion?: number,
  ): Promise<WriteResult & { touched?: Touched }> {
    requireScope(p, 'diagrams:write');
    if (change.notation !== undefined && change.code === undefined) throw new AppError('validation_failed', 'notation goes with code: it says how to read the new code');
    if (change.detail !== undefined && change.code === undefined) throw new AppError('validation_failed', 'detail goes with code: it says how much of the new code to draw');
    if (change.name === undefined && change.elements === undefined && change.operations === undefined && change.code === undefined && change.layout !== 'all') {
      throw new AppError('validation_failed', 'give at least one of name, elements, operations or code to change (or layout "all")');
    }
    if (change.elements !== undefined && change.operations !== undefined) {
      throw new AppError('validation_failed', 'give either elements (the whole scene) or operations (edits by element), not both');
    }
    if (change.code !== undefined && (change.elements !== undefined || change.operations !== undefined || change.layout !== undefined)) {
      throw new AppError('validation_failed', 'code redraws the whole diagram from its code: send it without elements, operations or layout');
    }
    for (let attempt = 0; ; attempt++) {
      const { row, role, share } = await this.visibleDocument(p, id);
      assertWritable(role, row.workspace_id);
      if (expectedVersion !== undefined && row.version !== expectedVersion) throw versionMismatch(row.version, expectedVersion);
      const previous = JSON.parse(row.elements) as Element[];
      const edited = change.operations === undefined ? undefined : applyOperations(previous, change.operations);
      // An edit by element (or a new layout) guesses no icons onto elements nobody touched: only what the client names gets one.
      // The vendor the diagram was drawn for holds until a write names another (an AWS "VPC" stays an AWS VPC).
      const vendor = change.vendor ?? (row.vendor as IconVendor | null) ?? undefined;
      const restamp = (change.vendor !== undefined && change.vendor !== row.vendor) || (change.elements !== undefined && change.autoIcons !== undefined);
      // An updated element's stamped icon is dropped by the edit (applyOperations), so only untouched ones keep theirs.
      const options = { previous, vendor, autoIcons: change.autoIcons ?? (edited || change.layout === 'all' ? false : undefined), keepGuessedIcons: edited !== undefined, restamp };
      let scene: SceneIntake | undefined;
      let source: DiagramSource | undefined;
      if (change.code !== undefined) {
        if (row.source === null) {
          throw new AppError('bad_request', `document ${id} was not drawn from code, so there is no code to redraw: change it with elements or operations (code is for diagrams created from code)`);
        }
        ({ scene, source } = await this.redraw(previous, JSON.parse(row.source) as DiagramSource, { code: change.code, notation: change.notation, detail: change.detail, autoIcons: change.autoIcons }, vendor));
      } else {
        // layout "all" takes the scene as it stands after the edit (the stored one when nothing else is sent).
        const relaid = change.layout === 'all' ? unplaceAll(change.elements === undefined ? ((edited?.elements ?? previous) as Element[]) : prepareScene(change.elements, options).elements) : undefined;
        const sent = relaid?.elements ?? edited?.elements ?? change.elements;
        // Operations may add or move elements without a position: those are placed by layout whatever was asked.
        const layout = relaid ? 'auto' : (change.layout ?? (edited?.elements.some((e) => e.x === undefined && !LINEAR_TYPES.has(e.type)) ? 'auto' : undefined));
        if (sent !== undefined) {
          scene = layout === 'auto' ? await prepareLaidOutScene(sent, options, this.work) : prepareScene(sent, options);
          if (relaid !== undefined) scene.elements = keepLabels(scene.elements, relaid.labels);
          if (edited !== undefined) scene.warnings.unshift(...edited.warnings);
          else scene.warnings.push(...droppedByReplace(previous, scene.elements));
        }
      }
      const content = { name: change.name, elements: scene && JSON.stringify(scene.elements), vendor: change.vendor, source: source && JSON.stringify(source) };
      const updated = await this.writeOver(p, row, content, source ? 'redrawn from code' : change.note, scene && { before: previous, after: scene.elements });
      if (updated) {
        return { document: toStored(updated, this.shareInfo(share)), warnings: scene?.warnings ?? [], format: scene?.format ?? 'native', ...(edited && { touched: edited.touched }) };
      }
      if (expectedVersion !== undefined || attempt >= 3) {
        const current = await this.db.selectFrom('documents').select('version').where('id', '=', id).executeTakeFirst();
        if (!current) throw notFound('document', id);
        throw versionMismatch(current.version, expectedVersion ?? row.version);
      }
    }
  }

  /**
   * A whole scene from a client that knows which elements it changed (the canvas editor): written as edits by element
   * when they say it exactly, so the untouched elements stay as stored and the history counts only the changed ones;
   * as the whole scene otherwise. Either way one versioned write, refused (412) when `expectedVersion` is stale.
   */
  async updateChangedElements(
    p: Principal,
    id: string,
    change: { elements: unknown; changed: readonly string[] } & StampingInput,
    expectedVersion: number,
  ): Promise<WriteResult & { asOperations: boolean }> {
    requireScope(p, 'diagrams:write');
    const { row, role } = await this.visibleDocument(p, id);
    assertWritable(role, row.workspace_id);
    if (row.version !== expectedVersion) throw versionMismatch(row.version, expectedVersion);
    const previous = JSON.parse(row.elements) as Element[];
    const next = intakeScene(change.elements, { previous, vendor: change.vendor, autoIcons: change.autoIcons });
    const operations = operationsFor(previous, next.elements, new Set(change.changed));
    const { elements: _whole, changed: _changed, ...stamping } = change;
    const result = await this.updateDocument(p, id, operations ? { ...stamping, operations } : { ...stamping, elements: change.elements }, expectedVersion);
    return { ...result, asOperations: operations !== undefined };
  }

  /**
   * The one path that changes a document's content: the write lands only on the version that was read, and the new
   * version goes into the history in the same transaction. `undefined` when another write got there first.
   */
  private async writeOver(
    p: Principal,
    row: DocumentRow,
    content: { name?: string | undefined; elements?: string | undefined; vendor?: IconVendor | undefined; source?: string | undefined },
    note?: string,
    parsed?: { before: readonly Element[]; after: readonly Element[] },
  ): Promise<DocumentRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('documents')
        .set({
          ...(content.name !== undefined ? { name: content.name } : {}),
          ...(content.elements !== undefined ? { elements: content.elements } : {}),
          ...(content.vendor !== undefined ? { vendor: content.vendor } : {}),
          ...(content.source !== undefined ? { source: content.source } : {}),
          version: row.version + 1,
          updated_at: nowIso(),
        })
        .where('id', '=', row.id)
        .where('version', '=', row.version)
        .returningAll()
        .executeTakeFirst();
      if (updated) await this.history.keep(trx, p, row, updated, note, parsed);
      return updated;
    });
  }

  /** The kept versions of a document, newest first (the current one included), for anyone who may read it. */
  async listVersions(p: Principal, id: string, q: { limit: number; cursor?: string | undefined }): Promise<Page<VersionSummary>> {
    requireScope(p, 'diagrams:read');
    await this.visibleDocument(p, id);
    return this.history.list(id, q);
  }

  /** One kept version: its name and elements as they were stored. */
  async getVersion(p: Principal, id: string, version: number): Promise<StoredVersion> {
    requireScope(p, 'diagrams:read');
    await this.visibleDocument(p, id);
    return this.history.get(id, version);
  }

  /** One kept version drawn as SVG, as its own version was drawn: the history's preview. */
  async renderVersion(p: Principal, id: string, version: number): Promise<string> {
    const kept = await this.getVersion(p, id, version);
    return this.work.svg(JSON.parse(kept.elementsJson) as Element[]);
  }

  /**
   * Writes version `version`'s name and elements back as a new version, exactly as they were stored (no intake runs
   * again), so the history keeps what was undone. With `expectedVersion`, refused (412) when the document moved on.
   */
  async restoreVersion(p: Principal, id: string, version: number, expectedVersion?: number): Promise<WriteResult> {
    requireScope(p, 'diagrams:write');
    for (let attempt = 0; ; attempt++) {
      const { row, role, share } = await this.visibleDocument(p, id);
      assertWritable(role, row.workspace_id);
      if (expectedVersion !== undefined && row.version !== expectedVersion) throw versionMismatch(row.version, expectedVersion);
      const kept = await this.history.get(id, version);
      // The code a version was drawn from comes back with it, so a later redraw starts from what is shown.
      const updated = await this.writeOver(p, row, { name: kept.name, elements: kept.elementsJson, source: kept.source && JSON.stringify(kept.source) }, `restored version ${version}`);
      if (updated) return { document: toStored(updated, this.shareInfo(share)), warnings: [], format: 'native' };
      if (expectedVersion !== undefined || attempt >= 3) throw versionMismatch(row.version + 1, expectedVersion ?? row.version);
    }
  }

  /** Needs only the export scope: a token made for exporting need not read documents any other way. */
  async exportDocument(p: Principal, id: string, format: string): Promise<ExportResult> {
    requireScope(p, 'export');
    const exportFormat = parseExportFormat(format);
    const { row } = await this.visibleDocument(p, id);
    // D2 links icons to this service's public icon endpoint.
    return this.work.export(exportFormat, JSON.parse(row.elements) as Element[], this.publicUrl);
  }

  /**
   * The document as an `.excalidraw` scene together with the version and role it was read at, from one read: the
   * editor's starting point, whose next save sends that version as If-Match.
   */
  async sceneForEditing(
    p: Principal,
    id: string,
  ): Promise<{ summary: DocumentSummary; writable: boolean; scene: ExcalidrawScene; warnings: string[]; source: DiagramSource | null }> {
    requireScope(p, 'diagrams:read');
    const { row, role } = await this.visibleDocument(p, id);
    const exported = await this.work.export('excalidraw', JSON.parse(row.elements) as Element[], this.publicUrl);
    if (exported.format !== 'excalidraw') throw new AppError('internal', 'the excalidraw export answered another format');
    // The code tab shows the code of the version the canvas shows.
    const source = row.source === null ? null : (JSON.parse(row.source) as DiagramSource);
    return { summary: toSummary(row), writable: canWrite(role), scene: exported.scene, warnings: exported.warnings, source };
  }

  /** Moves a diagram into a folder of its own workspace, or out of any folder (`null`). */
  async moveDocument(p: Principal, id: string, folderId: string | null): Promise<DocumentSummary> {
    requireScope(p, 'diagrams:write');
    const { row, role } = await this.visibleDocument(p, id);
    assertWritable(role, row.workspace_id);
    if (folderId !== null) {
      const folder = await this.visibleFolder(p, folderId);
      if (folder.workspace_id !== row.workspace_id) throw notFound('folder', folderId);
    }
    const updated = await this.db
      .updateTable('documents')
      .set({ folder_id: folderId, updated_at: nowIso() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSummary(updated);
  }

  async deleteDocument(p: Principal, id: string): Promise<void> {
    requireScope(p, 'diagrams:write');
    const { row, role } = await this.visibleDocument(p, id);
    assertWritable(role, row.workspace_id);
    await this.db.deleteFrom('documents').where('id', '=', id).execute();
  }

  /** The caller's role in a workspace it may see; otherwise the same 404 as a workspace that does not exist. */
  private async roleIn(p: Principal, workspaceId: string): Promise<Role> {
    if (p.workspaceId !== null && p.workspaceId !== workspaceId) throw notFound('workspace', workspaceId);
    const row = await this.db
      .selectFrom('memberships')
      .select('role')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', p.userId)
      .executeTakeFirst();
    if (!row) throw notFound('workspace', workspaceId);
    return row.role as Role;
  }

  private async writableRoleIn(p: Principal, workspaceId: string): Promise<Role> {
    const role = await this.roleIn(p, workspaceId);
    assertWritable(role, workspaceId);
    return role;
  }

  private async visibleFolder(p: Principal, folderId: string): Promise<Database['folders']> {
    const folder = await this.db.selectFrom('folders').selectAll().where('id', '=', folderId).executeTakeFirst();
    if (!folder) throw notFound('folder', folderId);
    try {
      await this.roleIn(p, folder.workspace_id);
    } catch {
      throw notFound('folder', folderId);
    }
    return folder;
  }

  private async visibleDocument(p: Principal, id: string): Promise<{ row: DocumentRow; role: Role; share: ShareRow | null }> {
    const [found] = p.workspaceId === null ? await this.documentForMember(p.userId, id) : await this.documentForPinnedMember(p.userId, id, p.workspaceId);
    if (!found) throw notFound('document', id);
    const { role, share_token, share_created_at, ...row } = found;
    return { row, role: role as Role, share: share_token && share_created_at ? { token: share_token, createdAt: share_created_at } : null };
  }

  private shareInfo(share: ShareRow | null): ShareInfo | null {
    return share && { url: `${this.publicUrl}/render/svg?token=${share.token}`, token: share.token, createdAt: share.createdAt };
  }

  /** The public read-only link; asking again for a shared document gives the same link. */
  async share(p: Principal, id: string): Promise<ShareInfo & { created: boolean }> {
    requireScope(p, 'diagrams:write');
    const { row, role, share } = await this.visibleDocument(p, id);
    assertWritable(role, row.workspace_id);
    if (share) return { ...this.shareInfo(share)!, created: false };
    const created = { token: `shr_${randomBase62(32)}`, createdAt: nowIso() };
    // Two concurrent shares of one document: the primary key keeps one; both callers then report that one.
    await this.db
      .insertInto('document_shares')
      .values({ document_id: id, token: created.token, created_at: created.createdAt, created_by: p.userId })
      .onConflict((oc) => oc.column('document_id').doNothing())
      .execute();
    const stored = await this.db.selectFrom('document_shares').select(['token', 'created_at']).where('document_id', '=', id).executeTakeFirstOrThrow();
    return { ...this.shareInfo({ token: stored.token, createdAt: stored.created_at })!, created: stored.token === created.token };
  }

  /** Removes the public link; the old token stops working at once. Unsharing an unshared document is a no-op. */
  async unshare(p: Principal, id: string): Promise<void> {
    requireScope(p, 'diagrams:write');
    const { row, role } = await this.visibleDocument(p, id);
    assertWritable(role, row.workspace_id);
    await this.db.deleteFrom('document_shares').where('document_id', '=', id).execute();
  }

  /**
   * A shared document as SVG, for the unauthenticated public endpoint. Unknown and revoked tokens are the same
   * not_found. `ifNoneMatch` saves the render when the viewer's copy is current.
   */
  async renderShared(token: string, ifNoneMatch?: string): Promise<Rendered> {
    const invalid = () => new AppError('not_found', 'this share link does not exist or has been revoked');
    if (!/^shr_[0-9A-Za-z]{32}$/.test(token)) throw invalid();
    const [head] = await this.sharedVersion(token);
    if (!head) throw invalid();
    const etag = renderEtag('svg', {}, head.version);
    if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };
    const cached = this.publicSvgs.get(`${head.id}@${head.version}`);
    if (cached !== undefined) return { etag, notModified: false, contentType: SVG_TYPE, body: cached };
    const [row] = await this.documentByShareToken(token);
    if (!row) throw invalid();
    const rendered = await this.rendered(row, 'svg');
    if (!rendered.notModified) this.publicSvgs.set(`${row.id}@${row.version}`, rendered.body as string);
    return rendered;
  }

  /** The document as an image, for its readers: SVG with embedded fonts, or PNG from the same drawing. */
  async renderDocument(p: Principal, id: string, format: 'svg' | 'png', options: PngRequest & { ifNoneMatch?: string | undefined } = {}): Promise<Rendered> {
    requireScope(p, 'diagrams:read');
    const { row } = await this.visibleDocument(p, id);
    return this.rendered(row, format, options.ifNoneMatch, options);
  }

  private async rendered(row: DocumentRow, format: 'svg' | 'png', ifNoneMatch?: string, png: PngRequest = {}): Promise<Rendered> {
    const etag = renderEtag(format, png, row.version);
    if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };
    const elements = JSON.parse(row.elements) as Element[];
    return format === 'svg'
      ? { etag, notModified: false, contentType: SVG_TYPE, body: await this.work.svg(elements) }
      : { etag, notModified: false, contentType: 'image/png', body: await this.work.png(elements, png) };
  }

}

const SVG_TYPE = 'image/svg+xml; charset=utf-8';

/** The tag names the renderer too, so a new release's drawing is not hidden behind an old cached one. */
const renderEtag = (format: 'svg' | 'png', png: PngRequest, version: number | string) =>
  `"${RENDER_VERSION}-${format}-${png.scale ?? 1}${png.fitWithin ? `-fit${png.fitWithin}` : ''}-${version}"`;

function assertWritable(role: Role, workspaceId: string): void {
  if (!canWrite(role)) throw new AppError('forbidden', `your role in workspace ${workspaceId} is ${role}, which cannot change diagrams`);
}

const LINEAR_TYPES = new Set(['arrow', 'line', 'freedraw', 'highlight']);

/**
 * A whole-scene write replaces the scene (that is what it is for), but a client that meant to change a few elements
 * and sent only those would lose the rest without a word: it is said, with the way to edit by element.
 */
function droppedByReplace(previous: readonly Element[], next: readonly Element[]): string[] {
  const kept = new Set(next.map((element) => element.id));
  const dropped = previous.filter((element) => !kept.has(element.id));
  if (dropped.length === 0) return [];
  const named = dropped.slice(0, 10).map((element) => `"${element.id}"`).join(', ');
  return [`elements replaced the whole scene: ${dropped.length} element${dropped.length > 1 ? 's' : ''} not sent ${dropped.length > 1 ? 'were' : 'was'} removed (${named}${dropped.length > 10 ? ', …' : ''}); to change some elements only, send operations`];
}

export function versionMismatch(current: number, expected: number): AppError {
  return new AppError('version_mismatch', `the document is at version ${current}, not ${expected}: fetch it again and reapply your change`, {
    currentVersion: current,
  });
}

function toSummary(row: Pick<DocumentRow, 'id' | 'name' | 'workspace_id' | 'folder_id' | 'version' | 'created_at' | 'updated_at'>): DocumentSummary {
  return {
    id: row.id,
    name: row.name,
    workspaceId: row.workspace_id,
    folderId: row.folder_id,
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toStored(row: DocumentRow, share: ShareInfo | null): StoredDocument {
  const source = row.source === null ? null : (JSON.parse(row.source) as DiagramSource);
  return { summary: { ...toSummary(row), createdBy: row.created_by, share, vendor: row.vendor as IconVendor | null, source }, elementsJson: row.elements };
}

/** The document as a JSON string, splicing the stored elements text in without a parse/serialise round trip. */
export type AnswerForm = 'ids' | 'summary' | 'full';

/**
 * What a write answers, for every door: the whole document (its JSON text), or lean — id, version, warnings, the ids
 * touched by an edit and, for `summary`, each shape's id, text and box — so that a small edit costs a small answer.
 * Edits by element default to `ids`; whole-scene writes to `fallback` (REST sends the document, MCP a summary).
 */
export function writeAnswer(
  result: WriteResult & { touched?: Touched | undefined },
  form: AnswerForm | undefined,
  fallback: AnswerForm,
  more: Record<string, unknown> = {},
): Record<string, unknown> | string {
  const chosen = form ?? (result.touched ? 'ids' : fallback);
  const extra = { ...more, warnings: result.warnings, format: result.format, ...(result.touched && { touched: result.touched }) };
  if (chosen === 'full') return documentJson(result.document, extra);
  // The source a diagram was drawn from can be long: it comes with the document, not with every lean answer.
  const { source: _source, ...summary } = result.document.summary;
  const lean = { ...summary, ...extra };
  return chosen === 'summary' ? { ...lean, summary: summarizeScene(JSON.parse(result.document.elementsJson) as Element[]) } : lean;
}

export function documentJson(doc: StoredDocument, extra?: Record<string, unknown>): string {
  return withElementsJson({ ...doc.summary, ...extra }, doc.elementsJson);
}

/** `head` as JSON with an `elements` field holding the stored elements text as is. */
export function withElementsJson(head: Record<string, unknown>, elementsJson: string): string {
  return `${JSON.stringify(head).slice(0, -1)},"elements":${elementsJson}}`;
}

