// Lint for the project's own TypeScript and scripts, above all the layer boundaries: the generator
// runs load → IR → emit, and the runtime copied into every output stands alone. It lives in
// tools/eslint because typescript-eslint needs TypeScript 5's JavaScript API, which the TypeScript 7
// compiler the project builds with does not have. Run: npm run lint.
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const basePath = fileURLToPath(new URL("../..", import.meta.url));

/** Imports a layer may not make: each entry forbids the folders of `generator/` named in `layers`. */
function forbidLayers(files, layers, why) {
  return {
    basePath,
    files,
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: `(^|/)(${layers.join("|")})/`, message: why }] },
      ],
    },
  };
}

/** Runtime modules the output holds only on request, with the packages each may import. */
const OPTIONAL_ADAPTERS = {
  "runtime/schema/json-schema-ajv.ts": ["ajv", "ajv-formats", "re2js"],
  "runtime/schema/json-schema-cfworker.ts": ["@cfworker/json-schema"],
  // The OAuth client and the steps it runs (discovery, registration, grants, requests).
  "runtime/auth/oauth-client.ts": ["oauth4webapi"],
  "runtime/auth/oauth-discovery.ts": ["oauth4webapi"],
  "runtime/auth/oauth-registration.ts": ["oauth4webapi"],
  "runtime/auth/oauth-grants.ts": ["oauth4webapi"],
  "runtime/auth/oauth-http.ts": ["oauth4webapi"],
  "runtime/auth/jwt-verifier.ts": ["jose"],
  "runtime/server/store-redis.ts": ["ioredis"],
  "runtime/telemetry/otel.ts": ["@opentelemetry/api"],
};

/**
 * The runtime's folders and those each may import. Its pieces build upward (`schema` under `shared`
 * under the roles), the two roles stay apart, and `auth` holds both roles' authorization, the
 * client's on top of its HTTP transport. `telemetry` holds the adapters implementing the hooks both
 * roles declare in `shared/telemetry.ts`.
 */
const RUNTIME_LAYERS = {
  schema: [],
  shared: ["schema"],
  server: ["shared", "schema", "auth"],
  client: ["shared", "schema"],
  auth: ["shared", "client"],
  telemetry: ["shared"],
};

/**
 * The runtime is copied into dependency-free output: node: built-ins, the modules of its own folder
 * and of the folders below it (RUNTIME_LAYERS), and for an optional adapter its library. A module
 * `depth` folders below its layer's (runtime/server/http/) reaches its layer through `../`.
 */
function runtimeImports(file, packages = [], depth = 0) {
  const layer = file.split("/")[1];
  const up = "\\.\\./".repeat(depth);
  const allowed = [
    "node:",
    "\\./",
    ...(depth > 0 ? [`${up}(?!\\.\\./)`] : []),
    ...RUNTIME_LAYERS[layer].map((below) => `${up}\\.\\./${below}/`),
    ...packages.map((p) => `${p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(/|$)`),
  ];
  const why = `the runtime is copied into dependency-free output: runtime/${layer}/ may import node: built-ins and runtime/{${[layer, ...RUNTIME_LAYERS[layer]].join(",")}}/ only`;
  return {
    basePath,
    files: [file],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: `^(?!${allowed.join("|")})`, message: why }] },
      ],
    },
  };
}

export default tseslint.config(
  {
    basePath,
    ignores: [
      "**/node_modules/**",
      "dist/**",
      "generated/**",
      "test/fixtures/**",
      ".bench-tmp*/**",
      ".docs-tmp*/**",
      "tools/**",
    ],
  },
  {
    basePath,
    files: ["**/*.{ts,mjs,js}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  forbidLayers(
    ["generator/ir/**"],
    ["load", "derive", "emit", "spec", "cli", "diff", "registry"],
    "the IR is the bottom layer: it imports nothing above it",
  ),
  forbidLayers(
    ["generator/load/**"],
    ["derive", "emit", "spec", "cli", "diff", "registry"],
    "the loader produces the IR and knows nothing of what reads it",
  ),
  forbidLayers(
    ["generator/derive/**"],
    ["load", "emit", "spec", "cli"],
    "derivations read IRs (and their diff) only",
  ),
  forbidLayers(
    ["generator/emit/**"],
    ["load", "spec", "cli", "diff"],
    "emitters read only the IR, what is derived from it, and facts passed in their context",
  ),
  forbidLayers(
    ["generator/diff/**", "generator/registry/**"],
    ["load", "derive", "emit", "spec", "cli"],
    "the diff and the registry read IRs only",
  ),
  forbidLayers(
    ["generator/spec/**"],
    ["load", "ir", "derive", "emit", "cli", "diff", "registry"],
    "locating and fetching schemas knows nothing of the model",
  ),
  ...Object.keys(RUNTIME_LAYERS).map((layer) => runtimeImports(`runtime/${layer}/**`)),
  ...Object.keys(RUNTIME_LAYERS).map((layer) => runtimeImports(`runtime/${layer}/*/**`, [], 1)),
  // Optional adapters, emitted only when the user asks for them at generation, may import their library.
  ...Object.entries(OPTIONAL_ADAPTERS).map(([file, packages]) => runtimeImports(file, packages)),
);
