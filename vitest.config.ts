import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'openapi/**/*.test.ts', 'bench/**/*.test.ts', 'fixtures/**/*.test.ts', 'test/**/*.test.ts'],
    // Both cores of the 2-core CI machine (vitest's default leaves one idle in a run).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
