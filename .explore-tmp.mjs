import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { spawn } from "node:child_process";

const mode = process.argv[2] ?? "stdio";
const client = new Client({ name: "interop", version: "1.0.0" }, {
  capabilities: { elicitation: { form: {} } },
  versionNegotiation: { mode: process.env.MODE === "auto" ? "auto" : { pin: "2026-07-28" } },
});
client.onerror = (e) => console.error("onerror", e);
client.setRequestHandler("elicitation/create", async (req) => { console.log("elicit", JSON.stringify(req.params)); return { action: "accept", content: { name: "Ada" } }; });
let child;
let transport;
if (mode === "stdio") {
  transport = new StdioClientTransport({ command: process.execPath, args: ["dist/examples/conformance-server.js", "--stdio"], stderr: "inherit" });
} else {
  child = spawn(process.execPath, ["dist/examples/conformance-server.js", "--port", "38123"], { stdio: ["ignore", "inherit", "pipe"] });
  await new Promise((r) => child.stderr.once("data", (d) => { process.stderr.write(d); r(); }));
  transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:38123/mcp"));
}
const step = async (name, fn) => { try { const r = await fn(); console.log("OK", name, JSON.stringify(r).slice(0, 400)); } catch (e) { console.log("FAIL", name, e?.constructor?.name, e?.code, e?.message, JSON.stringify(e?.data)); } };
await step("connect", () => client.connect(transport));
console.log("era", client.getProtocolEra(), client.getNegotiatedProtocolVersion(), JSON.stringify(client.getServerVersion()), JSON.stringify(client.getServerCapabilities()));
await step("listTools", async () => (await client.listTools()).tools.map((t) => t.name));
await step("simple", () => client.callTool({ name: "test_simple_text", arguments: {} }));
await step("progress", () => client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress: (p) => console.log("progress", JSON.stringify(p)) }));
await step("read", () => client.readResource({ uri: "test://static-text" }));
await step("listPrompts", async () => (await client.listPrompts()).prompts.map((p) => p.name));
await step("getPrompt", () => client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } }));
await step("complete", () => client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "tes" } }));
await step("mrtr", () => client.callTool({ name: "test_input_required_result_elicitation", arguments: {} }));
await step("mrtr-prompt", () => client.getPrompt({ name: "test_input_required_result_prompt" }));
await step("mrtr-multi", () => client.callTool({ name: "test_input_required_result_multi_round", arguments: {} }));
await client.close();
child?.kill();
