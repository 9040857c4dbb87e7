import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedIn, textById, WebClient } from '../support/web-client.js';
import { useTestService } from '../support/world.js';

const ANN = { email: 'ann@example.com', password: 'correct horse battery staple' };

describe('workspaces and members in the browser', () => {
  const service = useTestService();

  it('invites by a link shown once, which makes an account and joins once; only owners and admins manage; the last owner stays', async () => {
    const { app, services } = service.runtime;
    const ws = service.world.annWorkspace;
    const ann = await signedIn(app, ANN.email, ANN.password);
    await ann.get(`/workspaces/${ws}/members`);
    const made = await ann.post(`/workspaces/${ws}/invites`, { email: 'Dan@example.com', role: 'editor' });
    expect(made.statusCode).toBe(201);
    expect(made.body).toContain('Drawbridge sends no email');
    const link = textById(made.body, 'invite-link')!;
    expect(link).toMatch(/^http:\/\/drawbridge\.test\/invites\/inv_[0-9A-Za-z]{32}$/);
    const path = new URL(link).pathname;
    const token = path.split('/').pop()!;
    const { db } = services.sessions as unknown as { db: import('kysely').Kysely<import('../../src/infra/storage/schema.js').Database> };
    const stored = await db.selectFrom('invites').selectAll().execute();
    expect(stored.map((i) => i.token_hash)).toEqual([createHash('sha256').update(token).digest('hex')]);
    expect((await ann.get(`/workspaces/${ws}/members`)).body).toContain('dan@example.com');

    // Dan opens the link without an account.
    const dan = new WebClient(app, '198.51.100.20');
    const open = await dan.get(path);
    expect(open.body).toContain('Join Ann main');
    expect(open.body).toContain('Create account and join');
    const joined = await dan.post(path, { name: 'Dan', password: 'dan password 123' });
    expect(joined.statusCode).toBe(303);
    expect(joined.headers.location).toBe(`/workspaces/${ws}`);
    expect((await new WebClient(app).get(path)).statusCode).toBe(404);

    // An editor sees the people but cannot manage them; the server refuses anyway.
    const asEditor = await dan.get(`/workspaces/${ws}/members`);
    expect(asEditor.statusCode).toBe(200);
    expect(asEditor.body).not.toContain('Create invitation link');
    expect(asEditor.body).not.toContain('/members/remove');
    const refused = await dan.post(`/workspaces/${ws}/invites`, { email: 'eve@example.com', role: 'viewer' });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('only owners and admins manage members; you are an editor here');

    // Admin: may invite, but not make owners nor touch the owner.
    await ann.get(`/workspaces/${ws}/members`);
    expect((await ann.post(`/workspaces/${ws}/members/role`, { email: 'dan@example.com', role: 'admin' })).statusCode).toBe(303);
    await dan.get(`/workspaces/${ws}/members`);
    expect((await dan.post(`/workspaces/${ws}/members/role`, { email: 'dan@example.com', role: 'owner' })).statusCode).toBe(403);
    const removeOwner = await dan.post(`/workspaces/${ws}/members/remove`, { email: 'ann@example.com' });
    expect(removeOwner.statusCode).toBe(403);
    expect(removeOwner.body).toContain('only an owner can change or remove an owner');

    // The last owner cannot leave; removing a member takes the workspace away from them at once.
    await ann.get(`/workspaces/${ws}/members`);
    const leave = await ann.post(`/workspaces/${ws}/leave`);
    expect(leave.statusCode).toBe(400);
    expect(leave.body).toContain('you are the last owner of this workspace');
    expect((await ann.post(`/workspaces/${ws}/members/remove`, { email: 'dan@example.com' })).statusCode).toBe(303);
    expect((await dan.get(`/workspaces/${ws}/members`)).statusCode).toBe(404);
  });

  it('lets only the invited email use an invitation, and a member leave', async () => {
    const { app } = service.runtime;
    const ws = service.world.annSecond;
    const ann = await signedIn(app, ANN.email, ANN.password);
    await service.runtime.services.accounts.createUser({ email: 'fay@example.com', password: 'fay password 123' });
    await ann.get(`/workspaces/${ws}/members`);
    const link = textById((await ann.post(`/workspaces/${ws}/invites`, { email: 'gil@example.com', role: 'viewer' })).body, 'invite-link')!;
    const fay = await signedIn(app, 'fay@example.com', 'fay password 123');
    const page = await fay.get(new URL(link).pathname);
    expect(page.body).toContain('You are signed in as fay@example.com');
    const refused = await fay.post(new URL(link).pathname);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('this invitation is for gil@example.com');

    const viewerLink = textById((await ann.post(`/workspaces/${ws}/invites`, { email: 'fay@example.com', role: 'viewer' })).body, 'invite-link')!;
    await fay.get(new URL(viewerLink).pathname);
    expect((await fay.post(new URL(viewerLink).pathname)).statusCode).toBe(303);
    await fay.get(`/workspaces/${ws}/members`);
    expect((await fay.post(`/workspaces/${ws}/leave`)).headers.location).toBe('/workspaces');
    expect((await fay.get(`/workspaces/${ws}/members`)).statusCode).toBe(404);
  });

  it('withdraws a pending invitation, after which its link no longer works; only a manager may', async () => {
    const { app, services } = service.runtime;
    const ws = service.world.annSecond;
    const ann = await signedIn(app, ANN.email, ANN.password);
    await ann.get(`/workspaces/${ws}/members`);
    const link = textById((await ann.post(`/workspaces/${ws}/invites`, { email: 'hal@example.com', role: 'editor' })).body, 'invite-link')!;
    const list = await ann.get(`/workspaces/${ws}/members`);
    const inviteId = /hal@example\.com[\s\S]*?name="invite" value="([^"]+)"/.exec(list.body)?.[1];
    expect(inviteId).toBeDefined();
    expect(list.body).toContain('Withdraw the invitation for hal@example.com?');

    // Someone without the manager role in this workspace cannot withdraw it.
    await services.accounts.createUser({ email: 'ivy@example.com', password: 'ivy password 123' });
    await services.accounts.addMember({ workspaceId: ws, email: 'ivy@example.com', role: 'viewer' });
    const ivy = await signedIn(app, 'ivy@example.com', 'ivy password 123');
    await ivy.get(`/workspaces/${ws}/members`);
    const refused = await ivy.post(`/workspaces/${ws}/invites/withdraw`, { invite: inviteId! });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('only owners and admins manage members');
    expect((await new WebClient(app).get(new URL(link).pathname)).statusCode).toBe(200);

    const withdrawn = await ann.post(`/workspaces/${ws}/invites/withdraw`, { invite: inviteId! });
    expect(withdrawn.statusCode).toBe(303);
    expect(decodeURIComponent(withdrawn.headers.location as string)).toContain('The invitation for hal@example.com was withdrawn');
    expect((await new WebClient(app).get(new URL(link).pathname)).statusCode).toBe(404);
    await ann.get(`/workspaces/${ws}/members`);
    const again = await ann.post(`/workspaces/${ws}/invites/withdraw`, { invite: inviteId! });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain('it was used or withdrawn');
  });
});
