/**
 * Contract "Authentication" 1–2 and docs/behaviour.md "Authentication": every
 * forged, broken or stale token is 401 in the error shape with `WWW-Authenticate: Bearer`, and
 * nobody is created or changed by the attempt.
 */
import { SignJWT, UnsecuredJWT, exportSPKI, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_SECRET, signToken } from '../../src/auth/tokens.ts';
import type { TestApp } from '../kit.ts';
import { expectError, startApp, storeDump } from '../kit.ts';

const LIST = '/api/v1/services/storageServices';
const key = (secret: string) => new TextEncoder().encode(secret);
const now = () => Math.floor(Date.now() / 1000);
const claims = { roles: ['Admin'] };

async function expect401(catalog: TestApp, authorization: string | undefined): Promise<string> {
  const before = storeDump(catalog.ctx);
  let test = catalog.post(LIST, { name: 'never', serviceType: 'CustomStorage', connection: { config: { type: 'CustomStorage' } } }, '');
  if (authorization !== undefined) test = test.set('Authorization', authorization);
  const res = await test;
  const { message } = expectError(res, 401);
  expect(res.body.errorType).toBe('UNAUTHORIZED');
  expect(res.headers['www-authenticate']).toBe('Bearer');
  expect(storeDump(catalog.ctx)).toBe(before);
  return message;
}

describe('with the development key (the default)', () => {
  let catalog: TestApp;
  beforeAll(async () => {
    catalog = await startApp();
  });

  it('accepts a token signed with the development key (the baseline the attacks below vary)', async () => {
    await catalog.get(LIST, await signToken({ user: 'alice' })).expect(200);
  });

  it.each([
    ['no Authorization header', undefined, 'Not Authorized! Token not present'],
    // A header in another form says what to send instead (src/http/authenticate.ts).
    ['"Bearer" with nothing after it', 'Bearer', 'Not Authorized! Token not present: expected "Authorization: Bearer <token>", got "Bearer" without a token'],
    ['"Bearer " and spaces', 'Bearer    ', 'Not Authorized! Token not present: expected "Authorization: Bearer <token>", got "Bearer" without a token'],
    [
      'a bare token without "Bearer "',
      'eyJhbGciOiJIUzI1NiJ9.e30.sig',
      'Not Authorized! Token not present: expected "Authorization: Bearer <token>", got a value without the "Bearer " prefix',
    ],
    ['another scheme (Basic)', 'Basic YWRtaW46YWRtaW4=', 'Not Authorized! Token not present: expected "Authorization: Bearer <token>", got the Basic scheme'],
    ['two tokens', 'Bearer a.b.c d.e.f', 'Not Authorized! Token not present: expected "Authorization: Bearer <token>", got more than one value after "Bearer"'],
  ])('%s is 401', async (_label, header, message) => {
    expect(await expect401(catalog, header)).toBe(message);
  });

  it.each([
    ['not a JWT at all', 'garbage'],
    ['three segments of garbage', 'a.b.c'],
    ['a JWT with its signature cut off', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.'],
    ['a header that is not JSON', `${Buffer.from('{not json').toString('base64url')}.e30.sig`],
    ['a 10,000-character token', 'x'.repeat(10_000)],
  ])('a malformed token (%s) is 401', async (_label, token) => {
    expect(await expect401(catalog, `Bearer ${token}`)).toMatch(/^Not Authorized! /);
  });

  it('an unsigned token (alg "none") is 401', async () => {
    const token = new UnsecuredJWT(claims).setSubject('admin').setExpirationTime('1h').encode();
    expect(await expect401(catalog, `Bearer ${token}`)).toMatch(/^Not Authorized! /);
  });

  it('a token signed with another secret is 401', async () => {
    const token = await signToken({ user: 'admin', secret: 'some-other-secret-of-sufficient-length-000000' });
    expect(await expect401(catalog, `Bearer ${token}`)).toBe('Not Authorized! signature verification failed');
  });

  it('a token whose payload was edited after signing (role raised) is 401', async () => {
    const [header, , signature] = (await signToken({ user: 'eve', role: 'DataConsumer' })).split('.');
    const payload = Buffer.from(JSON.stringify({ sub: 'eve', roles: ['Admin'], exp: now() + 3600 })).toString('base64url');
    expect(await expect401(catalog, `Bearer ${header}.${payload}.${signature}`)).toBe('Not Authorized! signature verification failed');
  });

  it('an expired token is 401 "Expired token!"', async () => {
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin')
      .setIssuedAt(now() - 7200)
      .setExpirationTime(now() - 3600)
      .sign(key(DEVELOPMENT_SECRET));
    expect(await expect401(catalog, `Bearer ${token}`)).toBe('Expired token!');
  });

  it('a token that is not yet valid (nbf in the future) is 401', async () => {
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin')
      .setNotBefore(now() + 3600)
      .setExpirationTime(now() + 7200)
      .sign(key(DEVELOPMENT_SECRET));
    expect(await expect401(catalog, `Bearer ${token}`)).toMatch(/^Not Authorized! .*nbf/);
  });

  it('a token without a subject is 401', async () => {
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now() + 3600)
      .sign(key(DEVELOPMENT_SECRET));
    expect(await expect401(catalog, `Bearer ${token}`)).toBe('Not Authorized! Token has no subject');
  });

  it('a token signed with HS512 by the same key is accepted, RS256-labelled HMAC is not', async () => {
    const hs512 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('admin')
      .setExpirationTime(now() + 3600)
      .sign(key(DEVELOPMENT_SECRET));
    await catalog.get(LIST, hs512).expect(200);
    const [, payload, signature] = hs512.split('.');
    const relabelled = `${Buffer.from(JSON.stringify({ alg: 'RS256' })).toString('base64url')}.${payload}.${signature}`;
    await expect401(catalog, `Bearer ${relabelled}`);
  });

  it('a token with a user name that is not a valid name is 401, and no user is created', async () => {
    const token = await signToken({ user: 'bad"name' });
    expect(await expect401(catalog, `Bearer ${token}`)).toBe('Not Authorized! Invalid user name bad"name');
  });
});

describe('with a configured public key (RS256)', () => {
  let catalog: TestApp;
  let privateKey: CryptoKey;
  let pem: string;
  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    pem = await exportSPKI(pair.publicKey);
    catalog = await startApp({ auth: { publicKey: pem, issuer: 'https://idp.example', audience: 'catalog-kit' } });
  });
  const rs256 = (edit: (jwt: SignJWT) => SignJWT = (j) => j) =>
    edit(
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256' })
        .setSubject('carol')
        .setIssuer('https://idp.example')
        .setAudience('catalog-kit')
        .setExpirationTime(now() + 3600),
    ).sign(privateKey);

  it('accepts a token signed with the matching private key, issuer and audience', async () => {
    await catalog.get(LIST, await rs256()).expect(200);
  });

  it('refuses an HS256 token signed with the public key as the HMAC secret (algorithm confusion)', async () => {
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('carol')
      .setIssuer('https://idp.example')
      .setAudience('catalog-kit')
      .setExpirationTime(now() + 3600)
      .sign(key(pem));
    expect(await expect401(catalog, `Bearer ${token}`)).toMatch(/^Not Authorized! .*alg/);
  });

  it('refuses an HS256 token signed with the development key', async () => {
    await expect401(catalog, `Bearer ${await signToken({ user: 'carol', issuer: 'https://idp.example', audience: 'catalog-kit' })}`);
  });

  it('refuses a token signed with another RSA key', async () => {
    const other = await generateKeyPair('RS256');
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('carol')
      .setIssuer('https://idp.example')
      .setAudience('catalog-kit')
      .setExpirationTime(now() + 3600)
      .sign(other.privateKey);
    expect(await expect401(catalog, `Bearer ${token}`)).toBe('Not Authorized! signature verification failed');
  });

  it('refuses a wrong issuer', async () => {
    expect(await expect401(catalog, `Bearer ${await rs256((j) => j.setIssuer('https://evil.example'))}`)).toMatch(/^Not Authorized! .*iss/);
  });

  it('refuses a wrong audience', async () => {
    expect(await expect401(catalog, `Bearer ${await rs256((j) => j.setAudience('someone-else'))}`)).toMatch(/^Not Authorized! .*aud/);
  });

  it('refuses a token with no issuer or audience at all', async () => {
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('carol')
      .setExpirationTime(now() + 3600)
      .sign(privateKey);
    await expect401(catalog, `Bearer ${token}`);
  });

  it('refuses an expired RS256 token', async () => {
    expect(await expect401(catalog, `Bearer ${await rs256((j) => j.setExpirationTime(now() - 60))}`)).toBe('Expired token!');
  });

  it('refuses an RS256 token that is not yet valid', async () => {
    await expect401(catalog, `Bearer ${await rs256((j) => j.setNotBefore(now() + 3600))}`);
  });
});

describe('with a configured secret', () => {
  it('refuses tokens signed with the development key', async () => {
    const catalog = await startApp({ auth: { secret: 'team-secret-team-secret-team-secret-0123' } });
    await expect401(catalog, `Bearer ${await signToken({ user: 'admin' })}`);
    await catalog.get(LIST, await signToken({ user: 'admin', secret: 'team-secret-team-secret-team-secret-0123' })).expect(200);
  });
});

describe('user names in valid tokens', () => {
  it.each([
    ['too long', 'u'.repeat(300)],
    ['containing "::"', 'a::b'],
    ['a newline', 'line\nbreak'],
  ])('a subject that cannot be a user name (%s) is refused without a 5xx or a hang', async (_label, user) => {
    const catalog = await startApp();
    const before = storeDump(catalog.ctx);
    const res = await catalog.get(LIST, await signToken({ user }));
    expectError(res);
    expect(res.status).toBeLessThan(500);
    expect(storeDump(catalog.ctx)).toBe(before);
  });
});
