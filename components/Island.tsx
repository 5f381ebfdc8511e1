/**
 * Server side of an island: renders the component to HTML and marks it with its
 * name and JSON props, so islands/client.tsx can hydrate it in the browser.
 */
import type { FunctionComponent } from "preact";
import { type IslandName, type IslandProps, ISLANDS } from "../islands/registry.ts";

export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps[N] }) {
  const Component = ISLANDS[name] as unknown as FunctionComponent<Record<string, unknown>>;
  return (
    <div data-island={name} data-props={JSON.stringify(props)}>
      <Component {...(props as Record<string, unknown>)} />
    </div>
  );
}
