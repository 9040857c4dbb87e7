/** Token scopes of the spec. Every route and MCP tool names the one it needs from this list. */
export const SCOPES = ['diagrams:read', 'diagrams:write', 'export', 'ai:generate'] as const;
export type Scope = (typeof SCOPES)[number];

/** Membership roles, weakest last. Viewers read; editors and up write. */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
export const canWrite = (role: Role): boolean => role !== 'viewer';
