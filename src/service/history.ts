import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../core/errors.js';
import { summariseChange } from '../core/scene/version-summary.js';
import { packScene, unpackScene } from '../infra/storage/scene-packing.js';
import type { Database } from '../infra/storage/schema.js';
import { nowIso } from './ids.js';
import { type CursorCodec, type Page, toPage } from './pagination.js';
import type { Door, Principal } from './principal.js';

type DocumentRow = Database['documents'];

/** How long versions are kept: every version younger than `days`, and the last `keep` whatever their age. */
export interface HistoryRetention {
  days: number;
  keep: number;
}

export const DEFAULT_RETENTION: HistoryRetention = { days: 90, keep: 50 };

export interface VersionSummary {
  version: number;
  createdAt: string;
  author: { id: string; name: string | null; email: string | null };
  /** null for the version a document had when history started being kept. */
  door: Door | null;
  summary: string;
}

export interface StoredVersion extends VersionSummary {
  name: string;
  elementsJson: string;
  /** For a diagram drawn from code: the code, as it was at this version. */
  source?: { notation: string; code: string };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The version history of documents. `keep` runs inside the transaction of every document write (DiagramService
 * calls it from its one create and its one update path), so a version is stored exactly when it is written, and
 * retention is applied there too: one indexed delete per write instead of a sweeper.
 * Reading a version is the caller's to authorise (DiagramService checks scope, workspace and role first).
 */
export class VersionHistory {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly cursors: CursorCodec,
    private readonly retention: HistoryRetention,
  ) {}

  /** `parsed`: both rows' elements when the caller has them already (parsing a large scene twice more costs). */
  async keep(
    trx: Transaction<Database>,
    p: Principal,
    before: DocumentRow | null,
    after: DocumentRow,
    note?: string,
    parsed?: { before: readonly { id: string }[]; after: readonly { id: string }[] },
  ): Promise<void> {
    const change = summariseChange(before && { name: before.name, elements: parsed?.before ?? JSON.parse(before.elements) }, {
      name: after.name,
      elements: parsed?.after ?? JSON.parse(after.elements),
    });
    await trx
      .insertInto('document_versions')
      .values({
        document_id: after.id,
        version: after.version,
        content: packScene(after.name, after.elements, after.source),
        author_id: p.userId,
        door: p.door,
        summary: note ? `${note}: ${change}` : change,
        created_at: after.updated_at,
      })
      .execute();
    if (after.version > this.retention.keep) {
      await trx
        .deleteFrom('document_versions')
        .where('document_id', '=', after.id)
        .where('version', '<=', after.version - this.retention.keep)
        .where('created_at', '<', new Date(Date.parse(after.updated_at) - this.retention.days * DAY_MS).toISOString())
        .execute();
    }
  }

  /** Newest first. */
  async list(documentId: string, q: { limit: number; cursor?: string | undefined }): Promise<Page<VersionSummary>> {
    const listing = `versions:${documentId}`;
    let query = this.summaries().where('document_versions.document_id', '=', documentId);
    if (q.cursor) query = query.where('document_versions.version', '<', Number(this.cursors.decode(listing, q.cursor).id));
    const rows = await query.orderBy('document_versions.version', 'desc').limit(q.limit + 1).execute();
    return toPage(
      rows.map((row) => ({ ...row, id: String(row.version) })),
      q.limit,
      this.cursors,
      listing,
      toVersionSummary,
    );
  }

  async get(documentId: string, version: number): Promise<StoredVersion> {
    const row = await this.summaries()
      .select('document_versions.content')
      .where('document_versions.document_id', '=', documentId)
      .where('document_versions.version', '=', version)
      .executeTakeFirst();
    if (!row) throw new AppError('not_found', `document ${documentId} has no version ${version} (it was never written, or it is past the history's retention)`);
    const { sourceJson, ...scene } = unpackScene(row.content);
    return { ...toVersionSummary(row), ...scene, ...(sourceJson !== undefined && { source: JSON.parse(sourceJson) as StoredVersion['source'] }) };
  }

  private summaries() {
    return this.db
      .selectFrom('document_versions')
      .leftJoin('users', 'users.id', 'document_versions.author_id')
      .select([
        'document_versions.version',
        'document_versions.created_at',
        'document_versions.author_id',
        'document_versions.door',
        'document_versions.summary',
        'users.display_name',
        'users.email',
      ]);
  }
}

function toVersionSummary(row: {
  version: number;
  created_at: string;
  author_id: string;
  door: string | null;
  summary: string;
  display_name: string | null;
  email: string | null;
}): VersionSummary {
  return {
    version: Number(row.version),
    createdAt: row.created_at,
    author: { id: row.author_id, name: row.display_name, email: row.email },
    door: row.door as Door | null,
    summary: row.summary,
  };
}

