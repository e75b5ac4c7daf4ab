import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // 2 cores: more workers only contend with the compiler runs some tests make.
    maxWorkers: 2,
  },
});
