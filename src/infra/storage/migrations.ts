import { randomBytes } from 'node:crypto';
import { linkLooseLabels } from '../../core/scene/structure.js';
import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';
import { packScene } from './scene-packing.js';

/**
 * Migrations live in code, named and ordered, and run at start-up. Only portable column types are used so one
 * migration serves SQLite and PostgreSQL alike.
 */
const migrations: Record<string, Migration> = {
  '0001_foundation': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('memberships')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['workspace_id', 'user_id'])
        .execute();
      await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();
      await db.schema
        .createTable('folders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('folders_workspace_page').on('folders').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema
        .createTable('documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('folder_id', 'text', (c) => c.references('folders.id').onDelete('set null'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('elements', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
        .execute();
      await db.schema.createIndex('documents_workspace_page').on('documents').columns(['workspace_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('documents_folder_page').on('documents').columns(['folder_id', 'created_at', 'id']).execute();
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('display_prefix', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db
        .insertInto('server_secrets')
        .values({ name: 'cursor_key', value: randomBytes(32).toString('base64url') })
        .execute();
    },
  },
  '0002_document_shares': {
    async up(db: Kysely<any>) {
      // A public read-only link: the token is the capability, so it is kept as given (to hand the same link out
      // again) and is useless for anything but rendering that one document.
      await db.schema
        .createTable('document_shares')
        .addColumn('document_id', 'text', (c) => c.primaryKey().references('documents.id').onDelete('cascade'))
        .addColumn('token', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
        .execute();
    },
  },
  '0003_ai_settings': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ai_settings')
        .addColumn('owner', 'text', (c) => c.primaryKey())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('base_url', 'text')
        .addColumn('key_sealed', 'text', (c) => c.notNull())
        .addColumn('key_last4', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .execute();
    },
  },
  '0004_web_accounts': {
    async up(db: Kysely<any>) {
      // Browser sessions: the cookie holds a random secret, the table only its SHA-256 (a leaked table opens no
      // session). The CSRF token is the synchronizer token of that session.
      await db.schema
        .createTable('web_sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();
      // The hosted edition's plan per account; the self-hosted edition never reads it.
      await db.schema.alterTable('users').addColumn('plan', 'text', (c) => c.notNull().defaultTo('free')).execute();
      // Invite links: like tokens, only the hash is kept; the link is shown once to the person who made it.
      await db.schema
        .createTable('invites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('accepted_at', 'text')
        .execute();
    },
  },
  '0005_token_expiry': {
    async up(db: Kysely<any>) {
      // Optional: a token made without an expiry (every token before this) works until it is revoked.
      await db.schema.alterTable('api_tokens').addColumn('expires_at', 'text').execute();
    },
  },
  '0006_document_versions': {
    async up(db: Kysely<any>) {
      // One row per version of a document, the current one included, so who made each version travels with it. The
      // name and elements are packed (scene-packing.ts): whole copies, compressed.
      const binary = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
      await db.schema
        .createTable('document_versions')
        .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('content', binary, (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.notNull())
        // null: the version was written before history was kept.
        .addColumn('door', 'text')
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_versions_pk', ['document_id', 'version'])
        .execute();
      // Each existing document's current version becomes its first history row, so the next write has one to keep.
      const documents = await db.selectFrom('documents').select(['id', 'name', 'elements', 'version', 'updated_at', 'created_by']).execute();
      for (const d of documents) {
        await db
          .insertInto('document_versions')
          .values({ document_id: d.id, version: d.version, content: packScene(d.name, d.elements), author_id: d.created_by, door: null, summary: 'before history was kept', created_at: d.updated_at })
          .execute();
      }
    },
  },
  '0007_document_structure': {
    async up(db: Kysely<any>) {
      // What a document keeps besides its elements: the icon vendor it was drawn for, and the code it was drawn from.
      await db.schema.alterTable('documents').addColumn('vendor', 'text').execute();
      await db.schema.alterTable('documents').addColumn('source', 'text').execute();
      // Stored scenes get the links they lost when they were laid out (titles and edge labels to what they label).
      const rows = await db.selectFrom('documents').select(['id', 'elements']).execute();
      for (const row of rows as Array<{ id: string; elements: string }>) {
        const linked = JSON.stringify(linkLooseLabels(JSON.parse(row.elements)));
        if (linked !== row.elements) await db.updateTable('documents').set({ elements: linked }).where('id', '=', row.id).execute();
      }
    },
  },
  '0008_oauth': {
    async up(db: Kysely<any>) {
      // OAuth 2.1 for /mcp (service/oauth.ts). Clients registered dynamically (RFC 7591); clients known by a metadata
      // document URL are fetched and cached, not stored. Codes and tokens are kept as their SHA-256 only.
      await db.schema
        .createTable('oauth_clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // One grant per consent: the family every code and token it yields belongs to, and what Revoke ends.
      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_name', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_grants_user').on('oauth_grants').column('user_id').execute();
      await db.schema
        .createTable('oauth_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createTable('oauth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
        // access or refresh
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        // A refresh token once exchanged: shown again, it revokes the whole grant (OAuth 2.1 §4.3.1).
        .addColumn('rotated_at', 'text')
        .execute();
      await db.schema.createIndex('oauth_tokens_grant').on('oauth_tokens').column('grant_id').execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<void> {
  // With a schema of its own, the migrator's bookkeeping tables are looked for there by name: Kysely's existence check
  // would otherwise find another schema's `kysely_migration_lock` and never create this one's.
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Used by readiness checks: a round trip to the database. */
export async function pingDatabase(db: Kysely<any>): Promise<void> {
  await sql`select 1`.execute(db);
}
