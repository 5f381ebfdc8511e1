/** An active experiment as the edge sees it (owned by lib/experiments). */
export type ExperimentSnapshot = {
  id: number;
  routePattern: string;
  routeMatch: "prefix" | "exact";
  variants: Array<{ id: number; key: string; weight: number; transformProfile: string | null }>;
};
