/**
 * What every page render knows besides its own props: the CSP nonce for the one script
 * tag, the form outcome to announce (a no-JS post's result) and the request path.
 * Provided by routes/pages/render.tsx; read by Layout and forms with useContext.
 */
import { createContext } from "preact";
import type { FormOutcome } from "../lib/dashboard/flash.ts";

export type PageContextValue = {
  nonce?: string;
  flash?: FormOutcome | null;
  path: string;
};

export const PageContext = createContext<PageContextValue>({ path: "/" });
