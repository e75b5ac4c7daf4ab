/**
 * Resources and prompts from definitions on a generated server (2026-07-28): resources by URI and URI
 * template, prompts, and their completions.
 */
import { describe, expect, it } from "vitest";
import {
  createServer,
  ServerDefinitions,
  type McpServer,
} from "../../../generated/2026-07-28/server.js";
import { INFO, rpc } from "../../helpers/server-fixture.js";
import { send } from "../../helpers/definitions-fixture.js";

describe("resources and prompts from definitions", () => {
  function library(): McpServer {
    const definitions = new ServerDefinitions();
    definitions.resource({
      uri: "file:///readme",
      name: "readme",
      read: (uri) => ({ contents: [{ uri, text: "hello" }] }),
    });
    definitions.resourceTemplate({
      uriTemplate: "books://{shelf}/{id}{?lang}",
      name: "book",
      read: (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }] }),
      complete: {
        shelf: (value) => ["fiction", "fables", "history"].filter((s) => s.startsWith(value)),
      },
    });
    definitions.prompt({
      name: "greet",
      arguments: [{ name: "who", required: true }, { name: "tone" }],
      get: (args) => ({
        messages: [{ role: "user", content: { type: "text", text: `hello ${args.who}` } }],
      }),
      complete: { tone: () => Array.from({ length: 150 }, (_, i) => `tone${i}`) },
    });
    return createServer({
      info: INFO,
      capabilities: { resources: {}, prompts: {}, completions: {} },
      definitions,
    });
  }

  it("reads a static resource and one matched by a URI template, with its variables", async () => {
    const server = library();
    expect(
      (await send(server, rpc("resources/read", { uri: "file:///readme" }))).result.contents[0]
        .text,
    ).toBe("hello");
    const read = await send(server, rpc("resources/read", { uri: "books://fiction/42?lang=en" }));
    expect(JSON.parse(read.result.contents[0].text)).toEqual({
      shelf: "fiction",
      id: "42",
      lang: "en",
    });
    expect((await send(server, rpc("resources/templates/list"))).result.resourceTemplates).toEqual([
      { uriTemplate: "books://{shelf}/{id}{?lang}", name: "book" },
    ]);
    expect((await send(server, rpc("resources/list"))).result.resources).toEqual([
      { uri: "file:///readme", name: "readme" },
    ]);
  });

  it("answers a URI no definition matches with invalid params", async () => {
    const response = await send(library(), rpc("resources/read", { uri: "books://only-a-shelf" }));
    expect(response.error).toMatchObject({ code: -32602, message: "Resource not found" });
  });

  it("gets a prompt, refusing one whose required argument is missing", async () => {
    const server = library();
    expect(
      (await send(server, rpc("prompts/get", { name: "greet", arguments: { who: "Ada" } }))).result
        .messages[0].content.text,
    ).toBe("hello Ada");
    expect(
      (await send(server, rpc("prompts/get", { name: "greet", arguments: {} }))).error,
    ).toMatchObject({ code: -32602, message: expect.stringContaining('"who"') });
  });

  it("completes template variables and prompt arguments, at most the schema's maximum of values", async () => {
    const server = library();
    const shelf = await send(
      server,
      rpc("completion/complete", {
        ref: { type: "ref/resource", uri: "books://{shelf}/{id}{?lang}" },
        argument: { name: "shelf", value: "f" },
      }),
    );
    expect(shelf.result.completion).toEqual({
      values: ["fiction", "fables"],
      total: 2,
      hasMore: false,
    });
    const tone = await send(
      server,
      rpc("completion/complete", {
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "tone", value: "" },
      }),
    );
    expect(tone.result.completion.values).toHaveLength(100);
    expect(tone.result.completion).toMatchObject({ total: 150, hasMore: true });
    const none = await send(
      server,
      rpc("completion/complete", {
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "who", value: "" },
      }),
    );
    expect(none.result.completion.values).toEqual([]);
  });
});
