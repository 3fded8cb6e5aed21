// The example project's vitest configuration: nothing xrsim-specific is needed.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['*.test.mjs'], testTimeout: 60_000 } });
