/** domains list|add|verify: a tenant's custom domains. */
import { seg } from "../api.ts";
import { type Command, table } from "../command.ts";

type Domain = {
  id: number;
  hostname: string;
  status: string;
  failureReason: string | null;
  verification: { txt: { name: string; value: string }; cname: { name: string; target: string } };
};

function instructions(d: Domain): string {
  return `${d.hostname}: ${d.status}${d.failureReason ? ` (${d.failureReason})` : ""}
  TXT   ${d.verification.txt.name}  ${d.verification.txt.value}
  CNAME ${d.verification.cname.name}  ${d.verification.cname.target}`;
}

const list: Command = {
  path: ["domains", "list"],
  args: "<slug>",
  minArgs: 1,
  summary: "list a tenant's custom domains",
  async run(ctx) {
    const r = await (await ctx.api()).get<{ domains: Domain[] }>(
      `/api/tenants/${seg(ctx.args[0])}/domains`,
    );
    ctx.print(r, () => table(r.domains, ["id", "hostname", "status", "failureReason"]));
  },
};

const add: Command = {
  path: ["domains", "add"],
  args: "<slug> <hostname>",
  minArgs: 2,
  summary: "add a custom domain and print the DNS records to create",
  async run(ctx) {
    const d = await (await ctx.api()).post<Domain>(
      `/api/tenants/${seg(ctx.args[0])}/domains`,
      { hostname: ctx.args[1] },
    );
    ctx.print(
      d,
      () =>
        `${instructions(d)}\nThen run: deno task cli domains verify ${ctx.args[0]} ${d.hostname}`,
    );
  },
};

const verify: Command = {
  path: ["domains", "verify"],
  args: "<slug> <hostname>",
  minArgs: 2,
  summary: "check a custom domain's DNS records now",
  async run(ctx) {
    const d = await (await ctx.api()).post<Domain>(
      `/api/tenants/${seg(ctx.args[0])}/domains/verify`,
      { hostname: ctx.args[1] },
    );
    ctx.print(d, () => instructions(d));
    // A domain that is not verified yet is a failed check for scripts.
    return d.status === "active" ? 0 : 1;
  },
};

export const domainCommands: Command[] = [list, add, verify];
