import request from 'supertest';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';

describe('docs: a rendered reference that works offline, and the document itself', () => {
  it('/docs is an HTML page whose assets are served locally', async () => {
    const { app } = await createApp();
    const page = await request(app).get('/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z]/);
    const bundle = await request(app).get('/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toContain('javascript');
  });

  it('/openapi.json and /openapi.yaml serve the same document, pointed at this server', async () => {
    const { app, document } = await createApp();
    const json = await request(app).get('/openapi.json').set('Host', '127.0.0.1:9999');
    expect(Object.keys(json.body.paths)).toEqual(Object.keys(document.paths));
    expect(json.body.servers).toEqual([{ url: 'http://127.0.0.1:9999/api', description: 'this catalog-kit server' }]);
    const yaml = await request(app).get('/openapi.yaml').set('Host', '127.0.0.1:9999');
    expect(parse(yaml.text)).toEqual(json.body);
    const admin = await request(app).get('/__admin/openapi.json');
    expect(Object.keys(admin.body.paths)).toContain('/__admin/reset');
  });
});
