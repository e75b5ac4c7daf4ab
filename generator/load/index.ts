import type { ErrorCode, ProtocolModel } from "../ir/model.js";
import { IR_VERSION } from "../ir/model.js";
import { ModelIndex, walkType } from "../ir/query.js";
import { checkModel } from "../ir/check.js";
import { describeFacts, envelopeFacts } from "../ir/wire.js";
import { GeneratorError } from "../errors.js";
import { CONSTANT_ROLES, JSONRPC_ERROR_RANGE } from "../ir/conventions.js";
import { readDeclarations } from "./declarations.js";
import { resolveInheritance } from "./inherit.js";
import { readLifecycle } from "./lifecycle.js";
import { openSchema, type SchemaProject } from "./source.js";
export { schemaProject, type SchemaProject } from "./source.js";
import { readSurface } from "./surface.js";

/**
 * Reads one revision's `schema.ts` into the IR: declarations, then inheritance, then the protocol
 * surface and lifecycle derived from them. The result is checked before it is returned, so emitters
 * can trust it. Throws `GeneratorError` (with file and line) on anything it does not understand.
 */
export function loadModel(
  schemaFile: string,
  options: { revision: string; integersByDefault?: boolean; project?: SchemaProject },
): ProtocolModel {
  const opened = openSchema(schemaFile, options.project);
  const { definitions, constants, deprecations } = readDeclarations(
    opened.sourceFile,
    schemaFile,
    options.integersByDefault === undefined ? {} : { integersByDefault: options.integersByDefault },
  );
  resolveInheritance(definitions, schemaFile);
  const index = new ModelIndex({ definitions });
  const methods = readSurface(index, schemaFile);
  const constantValue = (pattern: RegExp): string | null => {
    const constant = constants.find((c) => pattern.test(c.name) && typeof c.value === "string");
    return constant ? String(constant.value) : null;
  };
  const model: ProtocolModel = {
    irVersion: IR_VERSION,
    revision: options.revision,
    source: { file: "schema.ts", sha256: opened.sha256 },
    protocolVersion: constantValue(CONSTANT_ROLES.protocolVersion),
    jsonrpcVersion: constantValue(CONSTANT_ROLES.jsonrpcVersion),
    definitions,
    constants,
    errorCodes: [],
    methods,
    lifecycle: readLifecycle(index, methods),
    deprecations: deprecations.sort((a, b) => a.line - b.line),
  };
  model.errorCodes = readErrorCodes(model);
  checkModel(model, schemaFile);
  checkRuntimeResults(model, schemaFile);
  return model;
}

/** A result the generated server writes itself must be one it can fill: else the revision cannot be served. */
function checkRuntimeResults(model: ProtocolModel, file: string): void {
  const [first] = [...describeFacts(model).unfillable, ...envelopeFacts(model).unfillable];
  if (!first) return;
  const { result, property } = first;
  throw new GeneratorError(
    `\`${result}\` requires \`${property.name}\`, which the generated server writes itself and has no source for (known: capabilities, identity, versions, caching hints, instructions, input requests, request state, the honoured subscription filter)`,
    file,
    property.line,
  );
}

function readErrorCodes(model: ProtocolModel): ErrorCode[] {
  return model.constants
    .filter(
      (c) =>
        typeof c.value === "number" &&
        c.value >= JSONRPC_ERROR_RANGE.min &&
        c.value <= JSONRPC_ERROR_RANGE.max,
    )
    .map((c) => ({
      code: c.value as number,
      constant: c.name,
      definitions: model.definitions
        .filter((d) => {
          let uses = false;
          walkType(d.type, (node) => {
            if (node.kind === "literal" && node.constant === c.name) uses = true;
          });
          return uses;
        })
        .map((d) => d.name),
    }));
}
