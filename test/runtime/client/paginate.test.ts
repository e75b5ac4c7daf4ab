/**
 * Paging in the generated 2026-07-28 client (`runtime/client/paginate.ts`), over a scripted
 * in-memory transport.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../../generated/2026-07-28/client.js";
import { INFO, fakeTransport, results, type Answer, type Msg } from "../../helpers/client-fake.js";

const ok = (result: Msg): Answer => ({ result });

describe("pagination", () => {
  it("walks every page", async () => {
    const pages: Record<string, Msg> = {
      "": results.tools([results.tool("a"), results.tool("b")], "p2"),
      p2: results.tools([results.tool("c")], "p3"),
      p3: results.tools([]),
    };
    const transport = fakeTransport((message) => ok(pages[message.params.cursor ?? ""]!));
    const client = createClient({ transport, info: INFO });
    const names: string[] = [];
    for await (const tool of client.listToolsAll()) names.push(tool.name);
    expect(names).toEqual(["a", "b", "c"]);
    expect(transport.sent.map((s) => s.message.params.cursor)).toEqual([undefined, "p2", "p3"]);
  });
});
