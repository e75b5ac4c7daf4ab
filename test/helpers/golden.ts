import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { renderRevision } from "../../generator/emit/index.js";
import type { GeneratedFile } from "../../generator/emit/file.js";
import type { Property, ProtocolModel } from "../../generator/ir/model.js";
import { loadModel } from "../../generator/load/index.js";
import { emitFacts, RELEASES, ROOT } from "./spec.js";
import { protocolDescription } from "../../generator/derive/protocol.js";
import { deprecationRegistry } from "../../generator/registry/index.js";

/**
 * Golden fixtures: `test/fixtures/<construct>/schema.ts` is a small hand-written schema exercising
 * one construct the loader handles, and `expected/` holds what the generator makes of it.
 */
export const FIXTURES_DIR = join(ROOT, "test", "fixtures");

/** The generator version stamped into golden output: fixed, so a version bump does not churn them. */
export const GOLDEN_VERSION = "0.0.0-golden";

/**
 * The files compared byte for byte, relative to `expected/`. The protocol description
 * (`protocol.json`, as `mcp-gen ir --protocol` prints it), the server and the client exist only
 * for a fixture that describes a protocol (requests, a lifecycle, a protocol version); for the
 * others neither the output nor `expected/` has them.
 */
export const GOLDEN_FILES = [
  "ir.json",
  "types.ts",
  "validators.ts",
  "protocol.json",
  "server.ts",
  "client.ts",
] as const;
export type GoldenFile = (typeof GOLDEN_FILES)[number];
const PROTOCOL_FILES: readonly GoldenFile[] = ["server.ts", "client.ts"];

/** Every fixture folder holding a `schema.ts`, in name order. */
export function fixtureNames(): string[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(join(FIXTURES_DIR, entry.name, "schema.ts")),
    )
    .map((entry) => entry.name)
    .sort();
}

export const fixtureSchema = (name: string): string => join(FIXTURES_DIR, name, "schema.ts");
export const expectedDir = (name: string): string => join(FIXTURES_DIR, name, "expected");

/** The IR of a fixture. Its revision is the fixture's name, which the generated headers then show. */
export function loadFixture(name: string): ProtocolModel {
  return loadModel(fixtureSchema(name), { revision: name });
}

/** The IR as `ir.json` holds it (the same form as `mcp-gen ir` prints). */
export function irJson(model: ProtocolModel): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}

export interface RenderedFixture {
  model: ProtocolModel;
  /** Every generated file (types, validators, index, runtime), formatted. */
  files: GeneratedFile[];
  /** The golden files' current content; `null` for a protocol file the fixture does not get. */
  golden: Record<GoldenFile, string | null>;
}

export async function renderFixture(name: string): Promise<RenderedFixture> {
  const model = loadFixture(name);
  // Render from a copy: the IR must not be changed by emitting it, and ir.json is taken first anyway.
  const ir = irJson(model);
  const files = await renderRevision(structuredClone(model), GOLDEN_VERSION, emitFacts(model));
  const content = (path: GoldenFile): string | null => {
    const file = files.find((f) => f.path === path);
    if (file) return file.content;
    if (PROTOCOL_FILES.includes(path)) return null;
    throw new Error(`fixture ${name}: the generator produced no ${path}`);
  };
  const description = protocolDescription(model, deprecationRegistry(model, RELEASES));
  return {
    model,
    files,
    golden: {
      "ir.json": ir,
      "types.ts": content("types.ts"),
      "validators.ts": content("validators.ts"),
      "protocol.json": description ? `${JSON.stringify(description, null, 2)}\n` : null,
      "server.ts": content("server.ts"),
      "client.ts": content("client.ts"),
    },
  };
}

export function readExpected(name: string, file: GoldenFile): string | null {
  const path = join(expectedDir(name), file);
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

export function writeExpected(name: string, file: GoldenFile, content: string): void {
  mkdirSync(expectedDir(name), { recursive: true });
  writeFileSync(join(expectedDir(name), file), content);
}

/** Writes generated files into a fresh temp folder and returns it. */
export function writeToTemp(files: readonly GeneratedFile[], prefix = "mcp-gen-golden-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.content);
  }
  return dir;
}

/** The generated validators module of a rendered fixture, imported from a temp folder (vitest compiles the TS). */
export async function importValidators<T = Record<string, unknown>>(
  rendered: RenderedFixture,
): Promise<{ module: T; dispose: () => void }> {
  const dir = writeToTemp(rendered.files);
  const module = (await import(
    /* @vite-ignore */ pathToFileURL(join(dir, "validators.ts")).href
  )) as T;
  return { module, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Loads a schema given as text (written to a temp file), for one-off cases that need no fixture folder. */
export function loadSchemaText(text: string, revision = "inline"): ProtocolModel {
  const dir = mkdtempSync(join(tmpdir(), "mcp-gen-inline-"));
  try {
    writeFileSync(join(dir, "schema.ts"), text);
    return loadModel(join(dir, "schema.ts"), { revision });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A definition by name, failing loudly when it is missing. */
export function definition(
  model: ProtocolModel,
  name: string,
): ProtocolModel["definitions"][number] {
  const found = model.definitions.find((d) => d.name === name);
  if (!found) throw new Error(`no definition ${name} in ${model.revision}`);
  return found;
}

/** The properties of an object-typed definition, by name. */
export function propertiesOf(model: ProtocolModel, name: string): Map<string, Property> {
  const type = definition(model, name).type;
  if (type.kind !== "object") throw new Error(`${name} is not an object type`);
  return new Map(type.properties.map((p) => [p.name, p] as const));
}
