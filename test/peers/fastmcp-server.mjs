// A small server written with fastmcp 4.20.16 (an initialize-era framework on the official SDK v1),
// the way its documentation writes one: tools with zod parameters (one with an output schema, one
// that asks the user through elicitation, one that reports progress and logs), a resource, a
// resource template with a completer, and a prompt.
//
//   node test/peers/fastmcp-server.mjs                                   # stdio
//   node --import ./test/peers/loopback.mjs test/peers/fastmcp-server.mjs --http   # HTTP, /mcp
import { FastMCP } from "fastmcp";
import { z } from "zod";

const server = new FastMCP({ name: "peer-fastmcp", version: "4.20.16" });

server.addTool({
  name: "add",
  description: "Adds two numbers.",
  parameters: z.object({ a: z.number(), b: z.number() }),
  outputSchema: z.object({ sum: z.number() }),
  execute: async ({ a, b }) => ({ sum: a + b }),
});

server.addTool({
  name: "shout",
  description: "Answers with its text in capitals.",
  parameters: z.object({ text: z.string() }),
  annotations: { readOnlyHint: true, title: "Shout" },
  execute: async ({ text }) => text.toUpperCase(),
});

server.addTool({
  name: "count",
  description: "Counts to n, reporting progress and logging each step.",
  parameters: z.object({ n: z.number().int().min(1).max(5) }),
  execute: async ({ n }, { reportProgress, log }) => {
    for (let i = 1; i <= n; i++) {
      log.info(`step ${i}`);
      await reportProgress({ progress: i, total: n });
    }
    return `counted to ${n}`;
  },
});

server.addTool({
  name: "book",
  description: "Books a table after asking how many guests.",
  parameters: z.object({ restaurant: z.string() }),
  execute: async ({ restaurant }, { elicit }) => {
    const answer = await elicit({
      message: `How many guests at ${restaurant}?`,
      requestedSchema: {
        type: "object",
        properties: { guests: { type: "integer", minimum: 1 } },
        required: ["guests"],
      },
    });
    if (answer.action !== "accept") return `no booking (${answer.action})`;
    return `booked ${restaurant} for ${answer.content.guests}`;
  },
});

server.addResource({
  uri: "notes://today",
  name: "today",
  description: "Today's note.",
  mimeType: "text/plain",
  load: async () => ({ text: "Water the plants." }),
});

server.addResourceTemplate({
  uriTemplate: "notes://day/{day}",
  name: "day",
  description: "The note of a day.",
  mimeType: "text/plain",
  arguments: [
    {
      name: "day",
      description: "A weekday.",
      required: true,
      complete: async (value) => ({
        values: ["monday", "tuesday", "wednesday"].filter((d) => d.startsWith(value)),
      }),
    },
  ],
  load: async ({ day }) => ({ text: `Nothing planned on ${day}.` }),
});

server.addPrompt({
  name: "greet",
  description: "Greets someone.",
  arguments: [{ name: "name", description: "Who to greet.", required: true }],
  load: async ({ name }) => `Say hello to ${name}.`,
});

if (process.argv.includes("--http")) {
  await server.start({ transportType: "httpStream", httpStream: { host: "127.0.0.1", port: 0 } });
  process.on("SIGTERM", () => void server.stop().then(() => process.exit(0)));
} else {
  await server.start({ transportType: "stdio" });
}
