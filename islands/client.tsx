/** Browser entry: hydrates every `[data-island]` element with its JSON props. */
import { type FunctionComponent, hydrate } from "preact";
import { type IslandName, ISLANDS } from "./registry.ts";

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const Component = ISLANDS[el.dataset.island as IslandName] as
    | FunctionComponent<Record<string, unknown>>
    | undefined;
  if (!Component) continue;
  hydrate(<Component {...JSON.parse(el.dataset.props ?? "{}")} />, el);
}
