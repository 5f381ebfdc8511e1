/**
 * Where the app's own code lives (what main.ts and cli.ts load). The source rules
 * (tests/app_sources.ts) read these; the unused-export check reads them with the tests,
 * benches and scripts beside them.
 */
export const APP_DIRS = ["lib", "edge", "routes", "components", "islands", "sdk", "cli"];
export const APP_FILES = ["app.ts", "main.ts", "cli.ts"];
