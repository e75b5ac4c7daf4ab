import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { spawn } from "node:child_process";
const mode = process.argv[2] ?? "stdio";
const client = new Client({ name: "interop", version: "1.0.0" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
client.onerror = (e) => console.error("onerror", e?.message);
let child, transport;
if (mode === "stdio") transport = new StdioClientTransport({ command: process.execPath, args: ["dist/examples/conformance-server.js", "--stdio"], stderr: "inherit" });
else {
  child = spawn(process.execPath, ["dist/examples/conformance-server.js", "--port", "0"], { stdio: ["ignore", "inherit", "pipe"] });
  const url = await new Promise((r) => child.stderr.once("data", (d) => r(/http:\S+/.exec(String(d))[0])));
  transport = new StreamableHTTPClientTransport(new URL(url));
}
const step = async (name, fn) => { try { const r = await fn(); console.log("OK", name, JSON.stringify(r ?? null).slice(0, 300)); } catch (e) { console.log("FAIL", name, e?.constructor?.name, e?.code, e?.message, JSON.stringify(e?.data)?.slice(0,300)); } };
await step("connect", () => client.connect(transport));
await step("missing cap", () => client.callTool({ name: "test_missing_capability", arguments: {} }));
await step("mrtr no cap", () => client.callTool({ name: "test_input_required_result_elicitation", arguments: {} }));
await step("mrtr caps", () => client.callTool({ name: "test_input_required_result_capabilities", arguments: {} }));
await step("ping", () => client.ping());
const z = await import("zod"); await step("request raw unknown", () => client.request({ method: "foo/bar", params: {} }, z.object({}).passthrough()));
await step("bad params", () => client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: 5 } }));
await step("after", () => client.callTool({ name: "test_simple_text", arguments: {} }));
await client.close(); child?.kill();
