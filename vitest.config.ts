import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'openapi/**/*.test.ts', 'bench/**/*.test.ts', 'fixtures/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
