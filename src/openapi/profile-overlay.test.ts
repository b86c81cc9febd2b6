/**
 * The document each profile serves says what that profile's server accepts (docs/behaviour.md
 * "Profiles"): given a profile, want the follower body's media types, the name pattern, and the
 * forms of `search_after` and `testCaseStatus` its document lists.
 */
import { describe, expect, it } from 'vitest';
import type { ProfileName } from '../config/profiles.ts';
import { profileByName } from '../config/profiles.ts';
import type { OpenApiDocument } from './document.ts';
import { readDocument } from './document.ts';

type Json = Record<string, unknown>;

const doc = (name: ProfileName): OpenApiDocument => readDocument(profileByName(name));
const op = (d: OpenApiDocument, path: string, method: string) => d.paths[path]![method] as Json;
const param = (d: OpenApiDocument, path: string, name: string) => ((op(d, path, 'get').parameters as Json[]) ?? []).find((p) => p.name === name)!;
const followerTypes = (d: OpenApiDocument) =>
  Object.entries(d.paths)
    .filter(([path]) => path.endsWith('/followers'))
    .map(([path, item]) => [
      path,
      Object.keys(((item.put as Json).requestBody as Json).content as Json)
        .sort()
        .join(' '),
    ]);

describe('the served document per profile', () => {
  it.each([
    { profile: 'contract' as const, want: 'application/json text/plain' },
    { profile: 'openmetadata' as const, want: 'application/json' },
    { profile: 'openmetadata-1.10' as const, want: 'application/json' },
  ])('$profile: the add-follower body is $want', ({ profile, want }) => {
    const types = followerTypes(doc(profile));
    expect(types.length).toBeGreaterThan(10);
    expect(types.filter(([, t]) => t !== want)).toEqual([]);
  });

  it.each([
    { profile: 'contract' as const, name: 'a>b', valid: false },
    { profile: 'openmetadata' as const, name: 'a>b', valid: false },
    { profile: 'openmetadata' as const, name: 'a\tb', valid: false },
    { profile: 'openmetadata' as const, name: 'orders v2.csv', valid: true },
    { profile: 'openmetadata-1.10' as const, name: 'a>b', valid: true },
    { profile: 'openmetadata-1.10' as const, name: 'a::b', valid: false },
  ])('$profile: the name $name matches EntityName: $valid', ({ profile, name, valid }) => {
    const pattern = doc(profile).components.schemas.EntityName!.pattern as string;
    expect(new RegExp(pattern, 'u').test(name)).toBe(valid);
  });

  it('search_after and testCaseStatus take several values in 2.0, one in 1.x', () => {
    const several = (schema: unknown) => JSON.stringify(schema).includes('"type":"array"');
    for (const [profile, want] of [
      ['openmetadata', true],
      ['contract', true],
      ['openmetadata-1.10', false],
    ] as const) {
      const d = doc(profile);
      expect(several(param(d, '/v1/search/query', 'search_after').schema), profile).toBe(want);
      const status = param(d, '/v1/dataQuality/testCases', 'testCaseStatus').schema as Json;
      const resolved = status.$ref ? d.components.schemas[String(status.$ref).split('/').pop()!] : status;
      expect(several(resolved), profile).toBe(want);
    }
  });

  it.each([
    {
      profile: 'contract' as const,
      path: '/v1/tables/{id}',
      takes: ['columns', 'owners,tags', ' followers , votes ', '*', 'usageSummary,testSuite'],
      refuses: ['nope', 'columns,nope', 'dataModel'],
    },
    { profile: 'openmetadata' as const, path: '/v1/tables/{id}', takes: ['schemaDefinition,dataModel', 'columns'], refuses: ['customMetricz'] },
    { profile: 'openmetadata' as const, path: '/v1/users', takes: ['teams,roles,follows,owns'], refuses: ['owners', 'tags'] },
    { profile: 'contract' as const, path: '/v1/classifications/{id}', takes: ['owners,usageCount'], refuses: ['tags', 'domains'] },
  ])('$profile $path: fields lists the names it takes', ({ profile, path, takes, refuses }) => {
    const fields = param(doc(profile), path, 'fields').schema as Json;
    const pattern = new RegExp(String(fields.pattern), 'u');
    for (const value of takes) expect(pattern.test(value), value).toBe(true);
    for (const value of refuses) expect(pattern.test(value), value).toBe(false);
  });
});
