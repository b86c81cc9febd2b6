/**
 * Bots and tokens (docs/behaviour.md "Users and teams"), through HTTP: a bot names its bot user;
 * a bot's generated token and a user's personal access token are JWTs the server accepts, kept
 * until revoked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, startApp } from '../../../test/kit.ts';

let c: TestApp;
let botUser: Body;
beforeAll(async () => {
  c = await startApp();
  botUser = (await c.post('/api/v1/users', { name: 'ingestion-bot', email: 'ingestion-bot@example.com', isBot: true, roles: ['DataSteward'] }).expect(201)).body as Body;
}, SLOW_START);

describe('bots', () => {
  it('a bot names a bot user; read by name and patched; a user who is no bot is 400', async () => {
    const bot = (await c.post('/api/v1/bots', { name: 'ingestion', botUser: 'ingestion-bot', description: 'Runs ingestion' }).expect(201)).body as Body;
    expect(bot).toMatchObject({ botUser: { id: botUser.id, type: 'user' }, provider: 'user' });
    await c.get('/api/v1/bots/name/ingestion').expect(200);
    expect((await c.patch(`/api/v1/bots/${String(bot.id)}`, [{ op: 'replace', path: '/description', value: 'Runs it' }]).expect(200)).body.description).toBe('Runs it');
    await c.post('/api/v1/bots', { name: 'not-a-bot', botUser: 'admin' }).expect(400);
  });
});

describe('tokens', () => {
  it("a bot's generated token is accepted as the bot, with its roles; its mechanism is read; a revoke forgets it", async () => {
    const jwt = (await c.post('/api/v1/users/generateToken', { id: botUser.id, JWTTokenExpiry: '7' }).expect(200)).body as Body;
    expect(jwt).toMatchObject({ JWTTokenExpiry: '7', JWTToken: expect.stringMatching(/^eyJ/) });
    const me = await c.get('/api/v1/users/loggedInUser', String(jwt.JWTToken)).expect(200);
    expect(me.body.name).toBe('ingestion-bot');
    await c.post('/api/v1/tables', {}, String(jwt.JWTToken)).expect(400);
    expect((await c.get(`/api/v1/users/auth-mechanism/${String(botUser.id)}`).expect(200)).body).toEqual({ authType: 'JWT', config: jwt });
    await c.put('/api/v1/users/revokeToken', { id: botUser.id }).expect(200);
    await c.get(`/api/v1/users/auth-mechanism/${String(botUser.id)}`).expect(404);
    const admin = (await c.get('/api/v1/users/name/admin').expect(200)).body as Body;
    await c.post('/api/v1/users/generateToken', { id: admin.id }).expect(400);
  });

  it("a user's personal access tokens: created (accepted as the user), listed, revoked by token or all", async () => {
    const first = (await c.put('/api/v1/users/security/token', { tokenName: 'laptop', JWTTokenExpiry: '30' }).expect(200)).body as Body;
    const second = (await c.put('/api/v1/users/security/token', { tokenName: 'ci' }).expect(200)).body as Body;
    expect(first).toMatchObject({ tokenName: 'laptop', tokenType: 'PERSONAL_ACCESS' });
    expect((await c.get('/api/v1/users/loggedInUser', String(first.token)).expect(200)).body.name).toBe('admin');
    expect((await c.get('/api/v1/users/security/token').expect(200)).body.data.map((t: Body) => t.tokenName)).toEqual(['laptop', 'ci']);
    const left = (await c.put('/api/v1/users/security/token/revoke', { tokens: [first.token] }).expect(200)).body;
    expect(left.data.map((t: Body) => t.tokenName)).toEqual(['ci']);
    expect((await c.put('/api/v1/users/security/token/revoke?removeAll=true', {}).expect(200)).body).toEqual({ data: [], paging: { total: 0 } });
    expect(second.token).not.toBe(first.token);
  });
});
