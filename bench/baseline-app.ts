/**
 * The baseline of `npm run bench` (docs/performance.md): the same container routes as the reference server (create, get by id and
 * by name, upsert, list page with `after`, soft delete, restore) in plain express 5 with a plain Map
 * store — no OpenAPI validation, no authentication, no authorisation. It answers the same statuses
 * and roughly the same bodies, so a ratio against it is the cost of the reference's extra work.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { Express, Request, Response } from 'express';

type Entity = Record<string, unknown> & { id: string; name: string; fullyQualifiedName: string; version: number; deleted: boolean };

export function createBaselineApp(): Express {
  const services = new Map<string, Entity>();
  const containers = new Map<string, Entity>();
  const byFqn = new Map<string, string>();
  /** `fqn\0id` keys in order, for cursor paging by binary search. */
  const ordered: string[] = [];

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));
  const href = (req: Request, id: string) => `${req.protocol}://${req.get('host')}/api/v1/containers/${id}`;
  const show = (req: Request, e: Entity) => ({ ...e, href: href(req, e.id) });
  const notFound = (res: Response, what: string) => res.status(404).json({ code: 404, message: `container instance for ${what} not found` });

  app.post('/api/v1/services/storageServices', (req, res) => {
    const body = req.body as { name: string; serviceType: string };
    const entity: Entity = { id: randomUUID(), ...body, fullyQualifiedName: body.name, version: 0.1, deleted: false, updatedAt: Date.now(), updatedBy: 'admin' };
    services.set(body.name, entity);
    res.status(201).json(entity);
  });

  function create(req: Request, body: Record<string, unknown>): Entity | undefined {
    const service = services.get(String(body.service));
    if (!service) return undefined;
    const fqn = `${service.name}.${String(body.name)}`;
    const entity: Entity = {
      id: randomUUID(),
      name: String(body.name),
      fullyQualifiedName: fqn,
      version: 0.1,
      updatedAt: Date.now(),
      updatedBy: 'admin',
      deleted: false,
      ...(body.description === undefined ? {} : { description: body.description }),
      owners: [],
      tags: [],
      domains: [],
      followers: [],
      votes: { upVotes: 0, downVotes: 0, upVoters: [], downVoters: [] },
      service: { id: service.id, type: 'storageService', name: service.name, fullyQualifiedName: service.name, deleted: false },
      serviceType: service.serviceType,
    };
    containers.set(entity.id, entity);
    byFqn.set(fqn, entity.id);
    const key = `${fqn}\u0000${entity.id}`;
    ordered.splice(lowerBound(ordered, key), 0, key);
    return entity;
  }

  app.post('/api/v1/containers', (req, res) => {
    const body = req.body as Record<string, unknown>;
    if (byFqn.has(`${String(body.service)}.${String(body.name)}`)) return res.status(409).json({ code: 409, message: 'Entity already exists' });
    const entity = create(req, body);
    if (!entity) return res.status(404).json({ code: 404, message: 'storageService not found' });
    res.status(201).location(href(req, entity.id)).json(show(req, entity));
  });

  app.put('/api/v1/containers', (req, res) => {
    const body = req.body as Record<string, unknown>;
    const id = byFqn.get(`${String(body.service)}.${String(body.name)}`);
    const existing = id === undefined ? undefined : containers.get(id);
    if (!existing) {
      const entity = create(req, body);
      if (!entity) return res.status(404).json({ code: 404, message: 'storageService not found' });
      return res.status(201).json(show(req, entity));
    }
    if (body.description !== existing.description) {
      existing.description = body.description;
      existing.version = Math.round((existing.version + 0.1) * 10) / 10;
      existing.updatedAt = Date.now();
    }
    res.json(show(req, existing));
  });

  app.put('/api/v1/containers/restore', (req, res) => {
    const entity = containers.get(String((req.body as { id?: unknown }).id));
    if (!entity) return notFound(res, String((req.body as { id?: unknown }).id));
    if (!entity.deleted) return res.status(400).json({ code: 400, message: 'not deleted' });
    entity.deleted = false;
    entity.version = Math.round((entity.version + 0.1) * 10) / 10;
    res.json(show(req, entity));
  });

  app.get('/api/v1/containers', (req, res) => {
    const limit = Number(req.query.limit ?? 10);
    const after = typeof req.query.after === 'string' ? Buffer.from(req.query.after, 'base64url').toString('utf8') : undefined;
    let i = after === undefined ? 0 : lowerBound(ordered, after);
    if (after !== undefined && ordered[i] === after) i++;
    const data: unknown[] = [];
    for (; i < ordered.length && data.length < limit; i++) {
      const entity = containers.get(ordered[i]!.slice(ordered[i]!.indexOf('\u0000') + 1))!;
      if (!entity.deleted) data.push(show(req, entity));
    }
    const last = data.at(-1) as Entity | undefined;
    const paging: Record<string, unknown> = { total: containers.size };
    if (last && i < ordered.length) paging.after = Buffer.from(`${last.fullyQualifiedName}\u0000${last.id}`).toString('base64url');
    res.json({ data, paging });
  });

  app.get('/api/v1/containers/name/:fqn', (req, res) => {
    const id = byFqn.get(req.params.fqn);
    const entity = id === undefined ? undefined : containers.get(id);
    if (!entity || entity.deleted) return notFound(res, req.params.fqn);
    res.json(show(req, entity));
  });

  app.get('/api/v1/containers/:id', (req, res) => {
    const entity = containers.get(req.params.id);
    if (!entity || entity.deleted) return notFound(res, req.params.id);
    res.json(show(req, entity));
  });

  app.delete('/api/v1/containers/:id', (req, res) => {
    const entity = containers.get(req.params.id);
    if (!entity) return notFound(res, req.params.id);
    entity.deleted = true;
    entity.version = Math.round((entity.version + 0.1) * 10) / 10;
    res.json(show(req, entity));
  });
  return app;
}

function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
