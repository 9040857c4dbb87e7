/** Token scopes of the spec. Every route and MCP tool names the one it needs from this list. */
export const SCOPES = ['diagrams:read', 'diagrams:write', 'export', 'ai:generate'] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope permits, in the words the token form shows beside its checkbox. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'diagrams:read': 'List workspaces, folders and diagrams; read and render them (SVG, PNG).',
  'diagrams:write': 'Create, change, delete and share diagrams and folders, also from code.',
  export: 'Export diagrams as Mermaid, D2 or .excalidraw.',
  'ai:generate': 'Draw or change diagrams from a prompt with your AI key; manage that key.',
};

/**
 * Membership roles, weakest last. Viewers and guests read; editors and up write. A guest is someone from outside
 * invited to one workspace: the spec keeps API tokens from guests (see service/plans.ts).
 */
export const ROLES = ['owner', 'admin', 'editor', 'viewer', 'guest'] as const;
export type Role = (typeof ROLES)[number];
export const canWrite = (role: Role): boolean => role !== 'viewer' && role !== 'guest';
/** Owners and admins manage members and invitations. */
export const canManageMembers = (role: Role): boolean => role === 'owner' || role === 'admin';
