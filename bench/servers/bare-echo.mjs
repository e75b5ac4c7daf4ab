// The floor: an echo "server" with no validation and no protocol logic at all: JSON.parse each
// message, answer `server/discover` with a canned result and anything else with the echo result,
// JSON.stringify the response. node:readline on stdio, node:http for HTTP.
//
//   node bench/servers/bare-echo.mjs --stdio
//   node bench/servers/bare-echo.mjs --port 0     # prints "listening on <url>" on stderr
import { createServer } from "node:http";
import { createInterface } from "node:readline";

const DISCOVER = {
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: "public",
};

function answer(message) {
  const result =
    message.method === "server/discover"
      ? DISCOVER
      : {
          resultType: "complete",
          content: [{ type: "text", text: message.params?.arguments?.text }],
        };
  return JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
}

const args = process.argv.slice(2);
if (args.includes("--stdio")) {
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    const message = JSON.parse(line);
    if (message.id !== undefined) process.stdout.write(`${answer(message)}\n`);
  });
} else {
  const http = createServer((req, res) => {
    // Only POST carries a message (haproxy's readiness probe in bench/scale.mjs is a GET).
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const body = answer(message);
      res.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  const portAt = args.indexOf("--port");
  http.listen(portAt >= 0 ? Number(args[portAt + 1]) : 3000, "127.0.0.1", () => {
    process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}
