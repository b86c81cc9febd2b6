import { describe, expect, it } from 'vitest';
import { ownerOf, summarise } from './profile-summary.ts';

const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });
const profile = {
  startTime: 1_000,
  nodes: [
    { id: 1, callFrame: frame('(idle)', '') },
    { id: 2, callFrame: frame('lookupRoute', 'file:///w/node_modules/express-openapi-validator/dist/x.js', 56) },
    { id: 3, callFrame: frame('render', 'file:///w/src/core/projection.ts', 9) },
  ],
  samples: [2, 2, 3, 1],
  timeDeltas: [1000, 1000, 1000, 1000],
};

describe('profile summary attributes self time to functions and packages', () => {
  it('owner_of_a_url_is_its_package_or_repository_file', () => {
    expect(ownerOf('file:///w/node_modules/@scope/pkg/a.js')).toBe('@scope/pkg');
    expect(ownerOf('file:///w/src/core/projection.ts')).toBe('src/core/projection.ts');
    expect(ownerOf('node:internal/http')).toBe('node internals');
    expect(ownerOf('')).toBe('(native/VM)');
  });

  it('self_time_sums_the_time_deltas_of_each_sample', () => {
    const { total, functions, owners } = summarise(profile);
    expect(total).toBe(4);
    expect(functions[0]).toEqual({ name: 'lookupRoute express-openapi-validator:57', ms: 2, share: 0.5 });
    expect(owners.map((o) => [o.name, o.ms])).toEqual([
      ['express-openapi-validator', 2],
      ['src/core/projection.ts', 1],
      ['(native/VM)', 1],
    ]);
  });

  it('a_window_keeps_only_the_samples_taken_inside_it', () => {
    // Sample times: 2000, 3000, 4000, 5000 µs.
    const { total, functions } = summarise(profile, { from: 3500, to: 5000 });
    expect(total).toBe(2);
    expect(functions.map((f) => f.name).sort()).toEqual(['(idle)', 'render src/core/projection.ts:10']);
  });
});
