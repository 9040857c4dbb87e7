import type { Generated } from 'kysely';

/**
 * Table shapes shared by SQLite and PostgreSQL. Timestamps are ISO-8601 text (UTC, millisecond precision) in both,
 * so ordering, keyset cursors and the query code are identical; elements are JSON text.
 */
export interface Database {
  /** `plan` (free, pro, enterprise) matters in the hosted edition only; see service/plans.ts. */
  users: { id: string; email: string; display_name: string; password_hash: string | null; created_at: string; plan: Generated<string> };
  workspaces: { id: string; name: string; created_at: string };
  memberships: { workspace_id: string; user_id: string; role: string; created_at: string };
  folders: { id: string; workspace_id: string; name: string; created_at: string };
  documents: {
    id: string;
    workspace_id: string;
    folder_id: string | null;
    name: string;
    elements: string;
    version: number;
    created_at: string;
    updated_at: string;
    created_by: string;
    /** The icon vendor a diagram was drawn for (aws, gcp, …), used by later writes that do not name one. */
    vendor: string | null;
    /** JSON {notation, code} of a diagram drawn from code, so it can be corrected and redrawn. */
    source: string | null;
  };
  api_tokens: {
    id: string;
    user_id: string;
    name: string;
    token_hash: string;
    display_prefix: string;
    scopes: string;
    workspace_id: string | null;
    created_at: string;
    last_used_at: string | null;
    revoked_at: string | null;
    /** Null: no expiry. */
    expires_at: string | null;
  };
  /** Clients registered dynamically (RFC 7591): their metadata as JSON, as the SDK's client schema reads it. */
  oauth_clients: { id: string; metadata: string; created_at: string };
  /** A user's consent to one OAuth client: the family its codes and tokens belong to. */
  oauth_grants: {
    id: string;
    user_id: string;
    client_id: string;
    client_name: string;
    scopes: string;
    workspace_id: string | null;
    /** The audience (RFC 8707) every token of the grant is for: PUBLIC_URL + /mcp when it was granted. */
    resource: string;
    created_at: string;
    last_used_at: string | null;
    revoked_at: string | null;
  };
  oauth_codes: { code_hash: string; grant_id: string; code_challenge: string; redirect_uri: string; expires_at: string; used_at: string | null };
  oauth_tokens: { token_hash: string; grant_id: string; kind: 'access' | 'refresh'; expires_at: string; rotated_at: string | null };
  /** Every kept version of a document (the current one too): its packed name and elements, who, when, through which door. */
  document_versions: {
    document_id: string;
    version: number;
    content: Buffer;
    author_id: string;
    door: string | null;
    summary: string;
    created_at: string;
  };
  document_shares: { document_id: string; token: string; created_at: string; created_by: string };
  /** AI provider settings of a user (`user:<id>`) or shared by a workspace (`workspace:<id>`); the key sealed. */
  ai_settings: {
    owner: string;
    provider: string;
    model: string;
    base_url: string | null;
    key_sealed: string;
    key_last4: string;
    updated_at: string;
    updated_by: string;
  };
  /** A signed-in browser: the cookie's secret is known by its SHA-256 only; expiry slides with use. */
  web_sessions: { id_hash: string; user_id: string; csrf_token: string; created_at: string; expires_at: string; last_seen_at: string };
  /** A pending invitation to a workspace; the link's secret is known by its SHA-256 only. */
  invites: {
    id: string;
    token_hash: string;
    workspace_id: string;
    email: string;
    role: string;
    created_by: string;
    created_at: string;
    expires_at: string;
    accepted_at: string | null;
  };
  /** Instance-wide secrets shared by every instance on the same database (e.g. the cursor signing key). */
  server_secrets: { name: string; value: string };
}
