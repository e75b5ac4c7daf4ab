import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { spawn } from "node:child_process";
const mode = process.argv[2] ?? "stdio";
const client = new Client({ name: "interop", version: "1.0.0" }, {
  capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
  versionNegotiation: { mode: { pin: "2026-07-28" } },
});
client.onerror = (e) => console.error("onerror", e?.message);
client.setRequestHandler("elicitation/create", async (req) => ({ action: "accept", content: req.params.message.includes("Go ahead") ? { ok: true } : req.params.message.includes("context") ? { context: "ctx" } : { name: "Ada" } }));
client.setRequestHandler("sampling/createMessage", async () => ({ model: "m", role: "assistant", content: { type: "text", text: "hi there" } }));
client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///tmp", name: "tmp" }] }));
client.setNotificationHandler("notifications/tools/list_changed", (n) => console.log("NOTIF tools changed", JSON.stringify(n)));
let child, transport;
if (mode === "stdio") transport = new StdioClientTransport({ command: process.execPath, args: ["dist/examples/conformance-server.js", "--stdio"], stderr: "inherit" });
else {
  child = spawn(process.execPath, ["dist/examples/conformance-server.js", "--port", "38124"], { stdio: ["ignore", "inherit", "pipe"] });
  await new Promise((r) => child.stderr.once("data", r));
  transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:38124/mcp"));
}
const step = async (name, fn) => { try { const r = await fn(); console.log("OK", name, JSON.stringify(r ?? null).slice(0, 300)); } catch (e) { console.log("FAIL", name, e?.constructor?.name, e?.code, e?.message, JSON.stringify(e?.data)?.slice(0,300)); } };
await step("connect", () => client.connect(transport));
await step("discover", () => client.discover());
await step("templates", () => client.listResourceTemplates());
await step("listResources", () => client.listResources());
await step("sampling", () => client.callTool({ name: "test_input_required_result_sampling", arguments: {} }));
await step("roots", () => client.callTool({ name: "test_input_required_result_list_roots", arguments: {} }));
await step("state", () => client.callTool({ name: "test_input_required_result_request_state", arguments: {} }));
await step("multiple", () => client.callTool({ name: "test_input_required_result_multiple_inputs", arguments: {} }));
await step("prompt-mrtr", () => client.getPrompt({ name: "test_input_required_result_prompt" }));
await step("error tool", () => client.callTool({ name: "test_error_handling", arguments: {} }));
await step("unknown tool", () => client.callTool({ name: "nope", arguments: {} }));
await step("unknown resource", () => client.readResource({ uri: "test://nope" }));
await step("template read", () => client.readResource({ uri: "test://template/42/data" }));
await step("image", () => client.callTool({ name: "test_image_content", arguments: {} }));
let sub;
await step("listen", async () => { sub = await client.listen({ toolsListChanged: true }); return sub.honoredFilter; });
await step("trigger", () => client.callTool({ name: "test_trigger_tool_change", arguments: {} }));
await new Promise((r) => setTimeout(r, 300));
await step("sub close", () => sub?.close());
await step("logging", () => client.callTool({ name: "test_logging_tool", arguments: {} }));
await client.close();
child?.kill();
