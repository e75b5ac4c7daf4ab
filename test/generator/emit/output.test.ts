import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { loadModel } from "../../../generator/load/index.js";
import { renderRevision } from "../../../generator/emit/index.js";
import { format } from "../../../generator/emit/format.js";
import { emitFacts, REVISIONS, ROOT, generatedDir, schemaFile } from "../../helpers/spec.js";
import { NODE_TYPES, STRICT_OPTIONS, tsc } from "../../helpers/tsc.js";

const version = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
).version;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== ".mcp-gen.json")
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe("generated output", () => {
  it("compiles on its own under the strictest settings, every revision", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-gen-strict-"));
    const checked = tsc(dir, {
      compilerOptions: {
        ...STRICT_OPTIONS,
        ...NODE_TYPES,
        noImplicitOverride: true,
        noImplicitReturns: true,
        noEmit: true,
        lib: ["ES2022"],
      },
      files: REVISIONS.flatMap((r) =>
        filesUnder(generatedDir(r))
          .filter((f) => f.endsWith(".ts"))
          .map((f) => join(generatedDir(r), f)),
      ),
    });
    expect(checked.output, "tsc").toBe("");
    expect(checked.status).toBe(0);
  });

  describe.each(REVISIONS)("%s", (revision) => {
    it("is byte-identical when generated again in another process", async () => {
      const model = loadModel(schemaFile(revision), { revision });
      const files = await renderRevision(model, version, { ...emitFacts(model), auth: true });
      expect(files.map((f) => f.path).sort()).toEqual(filesUnder(generatedDir(revision)));
      for (const file of files)
        expect(file.content, file.path).toBe(
          readFileSync(join(generatedDir(revision), file.path), "utf8"),
        );
    });

    it("stays dependency-free without --auth: no adapter module, no import of a package", async () => {
      const model = loadModel(schemaFile(revision), { revision });
      const files = await renderRevision(model, version, emitFacts(model));
      expect(files.map((f) => f.path)).not.toContain("runtime/auth/oauth-client.ts");
      expect(files.map((f) => f.path)).not.toContain("runtime/auth/jwt-verifier.ts");
      for (const file of files.filter((f) => f.path.endsWith(".ts")))
        expect(file.content, file.path).not.toMatch(/from "(?![.]|node:)[^"]+"/);
      const withAuth = await renderRevision(model, version, { ...emitFacts(model), auth: true });
      // Regenerating as the header says keeps the adapters.
      // A revision that could serve initialize-era clients says it serves none: the CLI's default would.
      const none = model.lifecycle.kind === "stateless" ? " --legacy none" : "";
      expect(withAuth.find((f) => f.path === "types.ts")!.content).toContain(
        `mcp-gen --revision ${revision}${none} --auth\``,
      );
      expect(withAuth.map((f) => f.path).filter((p) => !files.some((f) => f.path === p))).toEqual(
        files.some((f) => f.path === "client.ts")
          ? [
              "runtime/auth/oauth-client.ts",
              "runtime/auth/jwt-verifier.ts",
              // The OAuth client's steps, which it imports (the import closure brings them).
              ...[
                "challenge",
                "discovery",
                "errors",
                "grants",
                "http",
                "options",
                "registration",
                "store",
              ].map((step) => `runtime/auth/oauth-${step}.ts`),
            ]
          : [],
      );
    });

    it("with --store redis: runtime/server/store-redis.ts too, the one module importing a package (ioredis, as pinned), listed in the README and named in the header", async () => {
      const model = loadModel(schemaFile(revision), { revision });
      const files = await renderRevision(model, version, emitFacts(model));
      const withStore = await renderRevision(model, version, {
        ...emitFacts(model),
        store: "redis",
      });
      const added = withStore.map((f) => f.path).filter((p) => !files.some((f) => f.path === p));
      if (!files.some((f) => f.path === "server.ts")) return expect(added).toEqual([]);
      expect(added).toEqual(["runtime/server/store-redis.ts"]);
      // The interface and its in-memory form are always there: the server imports them.
      expect(files.map((f) => f.path)).toContain("runtime/server/store.ts");
      const importing = withStore.filter(
        (f) => f.path.endsWith(".ts") && /from "(?![.]|node:)[^"]+"/.test(f.content),
      );
      expect(importing.map((f) => f.path)).toEqual(["runtime/server/store-redis.ts"]);
      expect(importing[0]!.content).toContain('from "ioredis"');
      const pinned = (
        JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
          devDependencies: Record<string, string>;
        }
      ).devDependencies.ioredis;
      // Listed by the README's package table (read off the imports), at the version package.json pins.
      expect(withStore.find((f) => f.path === "README.md")!.content).toContain(
        `| \`ioredis\` | ${pinned} | \`runtime/server/store-redis.ts\` |`,
      );
      expect(files.find((f) => f.path === "README.md")!.content).not.toContain("ioredis");
      const none = model.lifecycle.kind === "stateless" ? " --legacy none" : "";
      expect(withStore.find((f) => f.path === "types.ts")!.content).toContain(
        `mcp-gen --revision ${revision}${none} --store redis\``,
      );
    });

    it("with --telemetry otel: runtime/telemetry/otel.ts too, imported by the server and client, the one module importing a package (@opentelemetry/api, as pinned), named in the header", async () => {
      const model = loadModel(schemaFile(revision), { revision });
      const files = await renderRevision(model, version, emitFacts(model));
      const traced = await renderRevision(model, version, {
        ...emitFacts(model),
        telemetry: "otel",
      });
      const added = traced.map((f) => f.path).filter((p) => !files.some((f) => f.path === p));
      const roles = ["server.ts", "client.ts"].filter((p) => files.some((f) => f.path === p));
      if (roles.length === 0) return expect(added).toEqual([]);
      expect(added).toEqual(["runtime/telemetry/otel.ts"]);
      for (const role of roles)
        expect(traced.find((f) => f.path === role)!.content).toMatch(
          /import \{ otel(Server|Client)Telemetry \} from "\.\/runtime\/telemetry\/otel\.js";/,
        );
      const importing = traced.filter(
        (f) => f.path.endsWith(".ts") && /from "(?![.]|node:)[^"]+"/.test(f.content),
      );
      expect(importing.map((f) => f.path)).toEqual(["runtime/telemetry/otel.ts"]);
      const pinned = (
        JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
          devDependencies: Record<string, string>;
        }
      ).devDependencies["@opentelemetry/api"];
      expect(traced.find((f) => f.path === "README.md")!.content).toContain(
        `| \`@opentelemetry/api\` | ${pinned} | \`runtime/telemetry/otel.ts\` |`,
      );
      const none = model.lifecycle.kind === "stateless" ? " --legacy none" : "";
      expect(traced.find((f) => f.path === "types.ts")!.content).toContain(
        `mcp-gen --revision ${revision}${none} --telemetry otel\``,
      );
    });

    it("starts every file with a header naming the revision, the schema's sha256 and the generator version", () => {
      const sha = loadModel(schemaFile(revision), { revision }).source.sha256;
      for (const file of filesUnder(generatedDir(revision)).filter((f) => f.endsWith(".ts"))) {
        const head = readFileSync(join(generatedDir(revision), file), "utf8")
          .split("\n")
          .slice(0, 3)
          .join("\n");
        expect(head, file).toContain(`mcp-gen ${version}`);
        expect(head, file).toContain(`revision ${revision}`);
        expect(head, file).toContain(sha);
      }
    });

    it("re-exports types, validators and the server from index.ts", () => {
      const index = readFileSync(join(generatedDir(revision), "index.ts"), "utf8");
      expect(index).toContain('export * from "./types.js"');
      expect(index).toContain('export * from "./validators.js"');
      expect(index).toContain('export * from "./server.js"');
      if (existsSync(join(generatedDir(revision), "client.ts")))
        expect(index).toContain('export * as client from "./client.js"');
    });
  });
});

describe("the runtime's sources", () => {
  // renderRevision copies them without running prettier, which is sound only while they are formatted.
  it.each(
    readdirSync(join(ROOT, "runtime"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .sort(),
  )("%s is prettier-formatted (npm run format)", async (file) => {
    const content = `// header\n\n${readFileSync(join(ROOT, "runtime", file), "utf8")}`;
    expect(await format(content)).toBe(content);
  });
});
