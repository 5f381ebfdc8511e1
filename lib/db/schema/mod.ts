/** Every table, re-exported for Drizzle. Each area keeps its tables in its own file. */
export * from "./core.ts";
export * from "./ai.ts";
export * from "./experiments.ts";
export * from "./billing.ts";
export * from "./edge.ts";
export * from "./usage.ts";
