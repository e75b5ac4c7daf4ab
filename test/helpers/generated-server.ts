import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { renderRevision } from "../../generator/emit/index.js";
import { GOLDEN_VERSION, loadSchemaText, writeToTemp } from "./golden.js";
import { emitFacts } from "./spec.js";

export interface GeneratedServer {
  server: Record<string, unknown>;
  client: Record<string, unknown>;
  validators: Record<string, unknown>;
  /** The generated `server.ts` and `client.ts` as text. */
  serverSource: string;
  clientSource: string;
  /** The folder it was generated into. */
  dir: string;
}

/**
 * Generates a schema's text into a temp folder and imports its server and validators (vitest
 * compiles the TypeScript); `dispose` removes every folder made so far (call it in `afterAll`).
 */
export function serverGenerator(prefix: string): {
  generate(schema: string, revision: string): Promise<GeneratedServer>;
  dispose(): void;
} {
  const dirs: string[] = [];
  return {
    async generate(schema, revision) {
      const model = loadSchemaText(schema, revision);
      const dir = writeToTemp(
        await renderRevision(model, GOLDEN_VERSION, emitFacts(model)),
        prefix,
      );
      dirs.push(dir);
      const load = (file: string) =>
        import(/* @vite-ignore */ pathToFileURL(join(dir, file)).href) as Promise<
          Record<string, unknown>
        >;
      return {
        server: await load("server.ts"),
        client: await load("client.ts"),
        validators: await load("validators.ts"),
        serverSource: readFileSync(join(dir, "server.ts"), "utf8"),
        clientSource: readFileSync(join(dir, "client.ts"), "utf8"),
        dir,
      };
    },
    dispose() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
