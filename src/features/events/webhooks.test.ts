/**
 * Webhooks against a running server and a loopback receiver each test starts (docs/behaviour.md
 * "Webhooks"): subscriptions as OpenMetadata shapes them, matching events POSTed in order and
 * signed, retried after a failing answer, counted and given a status, a bounded queue that never
 * holds up the request that made the change, and the test message.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Body, TestApp } from '../../../test/kit.ts';
import { SLOW_START, expectError, startApp, v1 } from '../../../test/kit.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP receiver: records every request; `answer` decides each status (default 200), optionally after a delay. */
class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, index: number) => number | Promise<number> = () => 200;
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        this.received.push(request);
        void Promise.resolve(this.answer(request, this.received.length - 1)).then((status) => {
          res.statusCode = status;
          res.end();
        });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}/hook`;
    return this;
  }

  /** The parsed bodies received so far. */
  events(): Body[] {
    return this.received.map((r) => JSON.parse(r.body) as Body);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls until `check` passes (or throws its last failure after `ms`). */
async function eventually(check: () => void | Promise<void>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

let app: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  app = await startApp({ webhooks: { retryDelayMs: 20 } });
}, SLOW_START);
afterAll(() => app.close());
beforeEach(async () => {
  receiver = await new Receiver().start();
});
afterEach(async () => {
  // No subscription outlives its test: a later test's receiver may be given the same port, and
  // would then receive the events of an earlier test's subscriptions.
  const listed = (await app.get(`${v1('events/subscriptions')}?limit=1000`).expect(200)).body as { data: Body[] };
  for (const sub of listed.data) await app.delete(v1('events/subscriptions', `/${String(sub.id)}`)).expect(204);
  await receiver.stop();
});

/** A subscription to container events (by default) sending to the receiver. */
async function subscribe(extra: Body = {}, config: Body = {}): Promise<Body> {
  return app.create('events/subscriptions', {
    name: app.unique('hook'),
    alertType: 'Notification',
    resources: ['container'],
    destinations: [{ category: 'External', type: 'Webhook', config: { endpoint: receiver.url, ...config } }],
    ...extra,
  });
}

/** A storage service of its own, for containers. */
async function service(): Promise<string> {
  const name = app.unique('svc');
  await app.create('services/storageServices', { name, serviceType: 'S3', connection: { config: { type: 'S3' } } });
  return name;
}

const record = async (sub: Body) => (await app.get(v1('events/subscriptions', `/id/${String(sub.id)}/eventsRecord`)).expect(200)).body as Body;
const statusOf = async (sub: Body) =>
  (await app.get(v1('events/subscriptions', `/${String(sub.id)}/status/${String((sub.destinations as Body[])[0]!.id)}`)).expect(200)).body as Body;

describe('subscriptions as OpenMetadata shapes them', () => {
  it('create keeps resources as filteringRules and gives each destination an id; the same PUT changes nothing; the delete is for good', async () => {
    const sub = await subscribe({}, { secretKey: 'k' });
    expect(sub).toMatchObject({
      name: sub.name,
      fullyQualifiedName: sub.name,
      alertType: 'Notification',
      enabled: true,
      retries: 3,
      version: 0.1,
      filteringRules: { resources: ['container'], rules: [], actions: [] },
      destinations: [{ category: 'External', type: 'Webhook', enabled: true, timeout: 10, config: { endpoint: receiver.url, secretKey: 'k', httpMethod: 'POST' } }],
    });
    expect(String((sub.destinations as Body[])[0]!.id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const again = await app
      .put(v1('events/subscriptions'), {
        name: sub.name,
        alertType: 'Notification',
        resources: ['container'],
        destinations: [{ category: 'External', type: 'Webhook', config: { endpoint: receiver.url, secretKey: 'k' } }],
      })
      .expect(200);
    expect(again.body.version).toBe(0.1);
    expect((await app.get(v1('events/subscriptions', `/name/${String(sub.name)}`)).expect(200)).body.filteringRules).toBeUndefined();
    expect((await app.get(v1('events/subscriptions', `/name/${String(sub.name)}?fields=filteringRules`)).expect(200)).body.filteringRules).toEqual({
      resources: ['container'],
      rules: [],
      actions: [],
    });
    await app.delete(v1('events/subscriptions', `/${String(sub.id)}`)).expect(204);
    expectError(await app.get(v1('events/subscriptions', `/${String(sub.id)}?include=all`)), 404);
    await app.post(v1('events/subscriptions'), { name: sub.name, alertType: 'Notification' }).expect(201);
  });

  it('refuses an unknown alertType or destination type, and a status of an unknown destination is 404', async () => {
    expectError(await app.post(v1('events/subscriptions'), { name: app.unique('bad'), alertType: 'Bogus' }), 400);
    expectError(await app.post(v1('events/subscriptions'), { name: app.unique('bad'), destinations: [{ category: 'External', type: 'Pigeon' }] }), 400);
    const sub = await subscribe();
    expectError(await app.get(v1('events/subscriptions', `/${String(sub.id)}/status/6f1e8a40-0000-4000-8000-000000000000`)), 404);
  });
});

describe('delivery', () => {
  it('POSTs each matching event as JSON, in order, signed with X-OM-Signature', async () => {
    const sub = await subscribe({}, { secretKey: 's3cret', headers: { 'X-Team': 'data' }, queryParams: { source: 'ck' } });
    const svc = await service();
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const name of names) await app.create('containers', { name, service: svc });
    await eventually(() => expect(receiver.received).toHaveLength(5));
    expect(receiver.events().map((e) => [e.eventType, e.entityFullyQualifiedName])).toEqual(names.map((n) => ['entityCreated', `${svc}.${n}`]));
    for (const request of receiver.received) {
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/hook?source=ck');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-team']).toBe('data');
      expect(request.headers['x-om-signature']).toBe(`sha256=${createHmac('sha256', 's3cret').update(request.body).digest('hex')}`);
    }
    expect((receiver.events()[0]!.entity as Body).href).toMatch(new RegExp(`^${app.baseUrl}/v1/containers/`));
    await eventually(async () => expect(await record(sub)).toEqual({ totalEventsCount: 5, pendingEventsCount: 0, successfulEventsCount: 5, failedEventsCount: 0 }));
    expect(await statusOf(sub)).toMatchObject({ status: 'active', lastSuccessfulAt: expect.any(Number) });
  });

  it('retries a failing answer with backoff, and keeps the order: the next event waits', async () => {
    const sub = await subscribe();
    receiver.answer = (_r, i) => (i < 2 ? 503 : 200);
    const svc = await service();
    await app.create('containers', { name: 'first', service: svc });
    await app.create('containers', { name: 'second', service: svc });
    await eventually(() => expect(receiver.received).toHaveLength(4));
    expect(receiver.events().map((e) => e.entityFullyQualifiedName)).toEqual([`${svc}.first`, `${svc}.first`, `${svc}.first`, `${svc}.second`]);
    await eventually(async () => expect(await record(sub)).toMatchObject({ successfulEventsCount: 2, failedEventsCount: 0, pendingEventsCount: 0 }));
    expect(await statusOf(sub)).toMatchObject({ status: 'active', lastFailedStatusCode: 503, lastFailedReason: 'HTTP 503 Service Unavailable' });
  });

  it('once its retries are spent an event is counted failed, with the last status, and the next one goes', async () => {
    const sub = await subscribe({ retries: 1 });
    receiver.answer = (r) => (JSON.parse(r.body).entityFullyQualifiedName.endsWith('.bad') ? 500 : 200);
    const svc = await service();
    await app.create('containers', { name: 'bad', service: svc });
    await eventually(async () => expect(await statusOf(sub)).toMatchObject({ status: 'failed', lastFailedStatusCode: 500, lastFailedReason: 'HTTP 500 Internal Server Error' }));
    expect(receiver.received).toHaveLength(2);
    await app.create('containers', { name: 'good', service: svc });
    await eventually(async () => expect(await record(sub)).toEqual({ totalEventsCount: 2, pendingEventsCount: 0, successfulEventsCount: 1, failedEventsCount: 1 }));
    expect(await statusOf(sub)).toMatchObject({ status: 'active', lastFailedStatusCode: 500 });
  });

  it('an endpoint that does not answer is a failure too', async () => {
    const closed = await new Receiver().start();
    await closed.stop();
    const sub = await app.create('events/subscriptions', {
      name: app.unique('dead'),
      alertType: 'Notification',
      resources: ['all'],
      retries: 0,
      destinations: [{ category: 'External', type: 'Webhook', config: { endpoint: closed.url } }],
    });
    await service();
    await eventually(async () => expect(await statusOf(sub)).toMatchObject({ status: 'failed', lastFailedReason: 'ECONNREFUSED' }));
  });

  it('sends only what the filters let through: resources, event types, updater', async () => {
    await subscribe({ input: { filters: [{ name: 'filterByEventType', effect: 'include', arguments: [{ name: 'eventTypeList', input: ['entitySoftDeleted'] }] }] } });
    await subscribe({ resources: ['table'] });
    await subscribe({ input: { filters: [{ name: 'filterByUpdaterName', effect: 'exclude', arguments: [{ name: 'updateByUserList', input: ['admin'] }] }] } });
    const svc = await service();
    const c = await app.create('containers', { name: 'c', service: svc });
    await app.delete(v1('containers', `/${String(c.id)}`)).expect(200);
    await eventually(() => expect(receiver.received.length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.events().map((e) => e.eventType)).toEqual(['entitySoftDeleted']);
  });

  it('a disabled subscription sends nothing; enabled again, it sends the new events', async () => {
    const sub = await subscribe();
    await app.patch(v1('events/subscriptions', `/${String(sub.id)}`), [{ op: 'replace', path: '/enabled', value: false }]).expect(200);
    expect(await statusOf(sub)).toEqual({ status: 'disabled' });
    const svc = await service();
    await app.create('containers', { name: 'quiet', service: svc });
    await app.patch(v1('events/subscriptions', `/${String(sub.id)}`), [{ op: 'replace', path: '/enabled', value: true }]).expect(200);
    await app.create('containers', { name: 'loud', service: svc });
    await eventually(() => expect(receiver.received).toHaveLength(1));
    expect(receiver.events()[0]!.entityFullyQualifiedName).toBe(`${svc}.loud`);
  });
});

describe('delivery never holds up the request that made the change', () => {
  it('a receiver that takes seconds does not slow the write; the queue is bounded', async () => {
    const small = await startApp({ webhooks: { retryDelayMs: 20, maxPending: 2 } });
    let release!: () => void;
    const released = new Promise<number>((resolve) => (release = () => resolve(200)));
    receiver.answer = () => released;
    try {
      const sub = await small.create('events/subscriptions', {
        name: 'slow',
        alertType: 'Notification',
        resources: ['container'],
        destinations: [{ category: 'External', type: 'Webhook', config: { endpoint: receiver.url } }],
      });
      await small.create('services/storageServices', { name: 's', serviceType: 'S3', connection: { config: { type: 'S3' } } });
      // The receiver answers nothing until `release`: each create is answered all the same.
      for (const name of ['a', 'b', 'c', 'd']) await small.create('containers', { name, service: 's' });
      await eventually(() => expect(receiver.received).toHaveLength(1));
      // One in flight and one waiting fill the queue of 2: the other two are refused and counted failed.
      const stuck = (await small.get(v1('events/subscriptions', `/id/${String(sub.id)}/eventsRecord`)).expect(200)).body;
      expect(stuck).toEqual({ totalEventsCount: 4, pendingEventsCount: 2, successfulEventsCount: 0, failedEventsCount: 2 });
      const dest = (sub.destinations as Body[])[0]!.id;
      expect((await small.get(v1('events/subscriptions', `/${String(sub.id)}/status/${String(dest)}`)).expect(200)).body.lastFailedReason).toBe(
        'delivery queue full (2 events waiting)',
      );
      release();
      await eventually(async () =>
        expect((await small.get(v1('events/subscriptions', `/name/slow/eventsRecord`)).expect(200)).body).toEqual({
          totalEventsCount: 4,
          pendingEventsCount: 0,
          successfulEventsCount: 2,
          failedEventsCount: 2,
        }),
      );
      expect(receiver.events().map((e) => e.entityFullyQualifiedName)).toEqual(['s.a', 's.b']);
    } finally {
      release();
      await small.close();
    }
  });
});

describe('the test message', () => {
  it('reaches a webhook, signed; an endpoint that refuses, and another type, are Failed', async () => {
    receiver.answer = (r) => (r.url.startsWith('/hook?no') ? 404 : 200);
    const res = await app
      .post(v1('events/subscriptions/testDestination'), {
        destinations: [
          { category: 'External', type: 'Webhook', config: { endpoint: receiver.url, secretKey: 'k' } },
          { category: 'External', type: 'Webhook', config: { endpoint: `${receiver.url}?no` } },
          { category: 'External', type: 'Slack', config: { endpoint: receiver.url } },
        ],
      })
      .expect(200);
    expect((res.body as Body[]).map((d) => d.statusDetails)).toEqual([
      { status: 'Success', statusCode: 200, timestamp: expect.any(Number) },
      { status: 'Failed', statusCode: 404, reason: 'HTTP 404 Not Found', timestamp: expect.any(Number) },
      { status: 'Failed', reason: 'the mock sends test messages to Webhook destinations only, not Slack', timestamp: expect.any(Number) },
    ]);
    expect(receiver.received).toHaveLength(2);
    const signed = receiver.received.find((r) => r.url === '/hook')!;
    expect(JSON.parse(signed.body)).toEqual({ message: 'This is a test message from catalog-kit to confirm your webhook destination is configured correctly.' });
    expect(signed.headers['x-om-signature']).toBe(`sha256=${createHmac('sha256', 'k').update(signed.body).digest('hex')}`);
  });
});

describe('subscriptions are state: fixtures, export and import', () => {
  it('a fixture file creates them; the state export holds them and their delivery status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-hooks-'));
    try {
      writeFileSync(
        join(dir, '10-subscriptions.json'),
        JSON.stringify({
          kind: 'eventsubscription',
          requests: [
            { name: 'from_fixture', alertType: 'Notification', resources: ['all'], destinations: [{ category: 'External', type: 'Webhook', config: { endpoint: receiver.url } }] },
          ],
        }),
      );
      const fixtures = await startApp({ fixtures: dir, webhooks: { retryDelayMs: 20 } });
      try {
        const sub = (await fixtures.get(v1('events/subscriptions', '/name/from_fixture')).expect(200)).body as Body;
        await fixtures.create('services/storageServices', { name: 's', serviceType: 'S3', connection: { config: { type: 'S3' } } });
        await eventually(() => expect(receiver.received.map((r) => JSON.parse(r.body).entityFullyQualifiedName)).toContain('s'));
        await eventually(async () => {
          const state = (await fixtures.get('/__admin/state').expect(200)).body as { entities: { type: string; entity: Body }[]; sideData: Record<string, Record<string, Body>> };
          expect(state.entities.filter((e) => e.type === 'eventsubscription').map((e) => e.entity.name)).toEqual(['from_fixture']);
          expect(state.sideData.eventSubscriptionDelivery?.[String(sub.id)]).toMatchObject({ successfulEventsCount: expect.any(Number), failedEventsCount: 0 });
        });
      } finally {
        await fixtures.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('only endpoints the server may call (docs/behaviour.md "Webhooks" and "Limits of one request")', () => {
  const destination = (endpoint: string) => [{ category: 'External', type: 'Webhook', config: { endpoint } }];

  it.each([
    { endpoint: 'file:///etc/passwd', want: 'config.endpoint file:///etc/passwd: only http and https endpoints are called, not file' },
    { endpoint: 'data:text/plain,hi', want: 'config.endpoint data:text/plain,hi: only http and https endpoints are called, not data' },
    { endpoint: 'gopher://127.0.0.1:70/', want: 'config.endpoint gopher://127.0.0.1:70/: only http and https endpoints are called, not gopher' },
    { endpoint: 'javascript:alert(1)', want: 'config.endpoint javascript:alert(1): only http and https endpoints are called, not javascript' },
    { endpoint: 'ftp://127.0.0.1/', want: 'config.endpoint ftp://127.0.0.1/: only http and https endpoints are called, not ftp' },
    { endpoint: 'ws://127.0.0.1/', want: 'config.endpoint ws://127.0.0.1/: only http and https endpoints are called, not ws' },
    {
      endpoint: 'http://169.254.169.254/latest/meta-data/',
      want: 'config.endpoint http://169.254.169.254/latest/meta-data/: 169.254.169.254 is not a loopback host, and the server calls other hosts only when started with --webhook-allow <host-pattern> naming it',
    },
  ])('$endpoint: 400 on create, upsert and PATCH, nothing stored', async ({ endpoint, want }) => {
    const name = app.unique('bad');
    const created = await app.post(v1('events/subscriptions'), { name, alertType: 'Notification', destinations: destination(endpoint) }).expect(400);
    expect(created.body).toMatchObject({ code: 400, message: want, details: [{ path: 'destinations.0.config.endpoint' }] });
    expect((await app.put(v1('events/subscriptions'), { name, alertType: 'Notification', destinations: destination(endpoint) }).expect(400)).body.message).toBe(want);
    await app.get(v1('events/subscriptions', `/name/${name}`)).expect(404);
    const good = await subscribe();
    const patched = await app.patch(v1('events/subscriptions', `/${String(good.id)}`), [{ op: 'replace', path: '/destinations/0/config/endpoint', value: endpoint }]).expect(400);
    expect(patched.body.message).toBe(want);
    expect((await app.get(v1('events/subscriptions', `/${String(good.id)}`)).expect(200)).body).toMatchObject({
      version: 0.1,
      destinations: [{ config: { endpoint: receiver.url } }],
    });
  });

  it('the test message is not sent to an endpoint the server may not call: Failed with the reason, nothing connected', async () => {
    const res = await app.post(v1('events/subscriptions/testDestination'), { destinations: destination('http://169.254.169.254/latest/') }).expect(200);
    expect((res.body as Body[])[0]!.statusDetails).toEqual({
      status: 'Failed',
      reason:
        'config.endpoint http://169.254.169.254/latest/: 169.254.169.254 is not a loopback host, and the server calls other hosts only when started with --webhook-allow <host-pattern> naming it',
      timestamp: expect.any(Number),
    });
  });

  it('with --webhook-allow, a host its pattern names may be stored; others still may not', async () => {
    const allowing = await startApp({ webhooks: { allowHosts: ['*.hooks.test'] } });
    try {
      const base = { alertType: 'Notification', enabled: false };
      await allowing.post(v1('events/subscriptions'), { name: 'allowed', ...base, destinations: destination('https://a.hooks.test/x') }).expect(201);
      const refused = await allowing.post(v1('events/subscriptions'), { name: 'refused', ...base, destinations: destination('https://hooks.example/x') }).expect(400);
      expect(refused.body.message).toMatch(/hooks\.example is not a loopback host/);
    } finally {
      await allowing.close();
    }
  });

  it('an endpoint stored under other --webhook-allow patterns is refused at delivery too: the attempt fails with the reason, unsent', async () => {
    const allowing = await startApp({ webhooks: { allowHosts: ['hooks.test'], retryDelayMs: 20 } });
    try {
      const sub = await allowing.create('events/subscriptions', { name: 'later', alertType: 'Notification', retries: 0, destinations: destination('http://hooks.test/x') });
      // As after a restart with fewer patterns: the delivery checks the endpoint again before it sends.
      (allowing.ctx.limits as { webhookHosts: readonly string[] }).webhookHosts = [];
      await allowing.create('services/storageServices', { name: 's', serviceType: 'S3', connection: { config: { type: 'S3' } } });
      const status = async () =>
        (await allowing.get(v1('events/subscriptions', `/${String(sub.id)}/status/${String((sub.destinations as Body[])[0]!.id)}`)).expect(200)).body as Body;
      await eventually(async () =>
        expect(await status()).toMatchObject({
          status: 'failed',
          lastFailedReason:
            'config.endpoint http://hooks.test/x: hooks.test is not a loopback host, and the server calls other hosts only when started with --webhook-allow <host-pattern> naming it',
        }),
      );
    } finally {
      await allowing.close();
    }
  });

  it('a state import checks endpoints as a write does', async () => {
    const sub = await subscribe();
    const state = (await app.get('/__admin/state').expect(200)).body as { entities: { type: string; entity: Body }[] };
    const stored = state.entities.find((e) => e.entity.id === sub.id)!;
    (stored.entity.destinations as Body[])[0]!.config = { endpoint: 'http://10.1.2.3/hook' };
    expect((await app.put('/__admin/state', state).expect(400)).body.message).toMatch(/10\.1\.2\.3 is not a loopback host/);
  });

  it('an answer of 200 MB is read up to 64 KiB and dropped: the delivery counts, the rest is never taken', async () => {
    const total = 200 * 1024 * 1024;
    let written = 0;
    let closed!: () => void;
    const done = new Promise<void>((resolve) => (closed = resolve));
    const big = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(total) });
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = (): void => {
          while (written < total) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.once('close', closed);
        pump();
      });
    });
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    try {
      const port = (big.address() as { port: number }).port;
      const sub = await subscribe({}, { endpoint: `http://127.0.0.1:${port}/big` });
      const svc = await service();
      await app.create('containers', { name: app.unique('c'), service: svc });
      await eventually(async () => expect(await record(sub)).toMatchObject({ successfulEventsCount: 1, failedEventsCount: 0 }), 20_000);
      await done;
      // What the receiver got written before the server dropped the connection: socket buffers, not 200 MB.
      expect(written).toBeLessThan(32 * 1024 * 1024);
    } finally {
      big.closeAllConnections();
      await new Promise<void>((resolve) => big.close(() => resolve()));
    }
  });

  it('a timeout of 1,000,000,000 s is accepted and stored as given (an attempt keeps it to 60 s: timeoutOf, destinations.test)', async () => {
    const sub = await subscribe();
    const patched = await app.patch(v1('events/subscriptions', `/${String(sub.id)}`), [{ op: 'add', path: '/destinations/0/timeout', value: 1_000_000_000 }]).expect(200);
    expect((patched.body.destinations as Body[])[0]!.timeout).toBe(1_000_000_000);
  });
});
