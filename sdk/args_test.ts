import { assert, assertEquals, assertThrows } from "../tests/assert.ts";
import { parseArgs, UsageError } from "./args.ts";

const SPEC = { yes: "bool", tenant: "string" } as const;

Deno.test("parseArgs() splits positionals, --flag value, --flag=value and bools", () => {
  assertEquals(parseArgs(["setup", "--tenant", "acme", "--yes", "x"], SPEC), {
    positionals: ["setup", "x"],
    flags: { tenant: "acme", yes: true },
  });
  assertEquals(parseArgs(["--tenant=a=b", "-h", "--", "--yes"], SPEC), {
    positionals: ["--yes"],
    flags: { tenant: "a=b", help: true },
  });
});

Deno.test("parseArgs() names the option it refuses", () => {
  for (
    const [argv, message] of [
      [["--nope"], "Unknown option: --nope"],
      [["--constructor"], "Unknown option: --constructor"],
      [["--yes=1"], "Option --yes takes no value"],
      [["--tenant"], "Option --tenant needs a value"],
      [["--tenant", "--yes"], "Option --tenant needs a value"],
    ] as const
  ) {
    const e = assertThrows(() => parseArgs(argv, SPEC), argv.join(" "));
    assert(e instanceof UsageError, String(e));
    assertEquals(e.message, message);
  }
});
