import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { dispatchByCollection } from './collection-router.ts';

const COLLECTIONS = new Set(['containers', 'services/storageServices', 'tables']);

function app() {
  const router = express.Router();
  const seen: string[] = [];
  router.get('/api/v1/system/version', (_req, res) => void res.json({ route: 'system' }));
  router.get('/api/v1/services/storageServices/:id', (req, res) => void res.json({ route: 'storageService', id: req.params.id }));
  router.use((req, _res, next) => {
    seen.push(req.path);
    next();
  });
  router.get('/api/v1/containers/name/:fqn', (req, res) => void res.json({ route: 'container by name', fqn: req.params.fqn }));
  router.get('/api/v1/containers/:id', (req, res) => void res.json({ route: 'container', id: req.params.id }));
  const a = express();
  a.use(dispatchByCollection(router, COLLECTIONS));
  a.use((_req, res) => void res.status(404).json({ route: 'none' }));
  return { a, seen };
}

describe('routes are grouped by collection and answer as one router did (issue 7 hot path)', () => {
  it('dispatch_pathOfACollection_reachesItsRoutesInTheirOrder', async () => {
    const { a } = app();
    expect((await request(a).get('/api/v1/containers/name/svc.c')).body).toEqual({ route: 'container by name', fqn: 'svc.c' });
    expect((await request(a).get('/api/v1/containers/42')).body).toEqual({ route: 'container', id: '42' });
    expect((await request(a).get('/api/v1/services/storageServices/7')).body).toEqual({ route: 'storageService', id: '7' });
    expect((await request(a).get('/api/v1/system/version')).body).toEqual({ route: 'system' });
  });

  it('dispatch_differentCase_matchesLikeExpress', async () => {
    const { a } = app();
    expect((await request(a).get('/API/V1/Containers/42')).body).toEqual({ route: 'container', id: '42' });
  });

  it('dispatch_middlewareWithoutPath_runsForEveryGroupAtItsPlace', async () => {
    const { a, seen } = app();
    await request(a).get('/api/v1/containers/42');
    await request(a).get('/api/v1/system/version');
    expect(seen).toEqual(['/api/v1/containers/42']);
  });

  it('dispatch_unknownCollectionOrOtherPath_fallsThrough', async () => {
    const { a } = app();
    expect((await request(a).get('/api/v1/nothing/1')).status).toBe(404);
    expect((await request(a).get('/docs')).body).toEqual({ route: 'none' });
  });
});
