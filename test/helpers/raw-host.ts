import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/**
 * A stand-in for the raw-content host on 127.0.0.1 (port 0): `GET /<commit>/schema/<rev>/<path>`
 * answers the file `<root>/<rev>/<path>`, anything else 404, whatever the commit. Point mcp-gen at
 * it with MCP_SPEC_BASE_URL. Every URL asked is recorded in `served`.
 */
export interface RawHost {
  base: string;
  served: string[];
  close(): Promise<void>;
}

export async function rawHost(root: string, served: string[] = []): Promise<RawHost> {
  const server: Server = createServer((req, res) => {
    served.push(req.url ?? "");
    const m = /^\/[0-9a-f]{40}\/schema\/([^/]+)\/(.+)$/.exec(req.url ?? "");
    try {
      res.end(readFileSync(join(root, m![1]!, ...decodeURIComponent(m![2]!).split("/"))));
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
