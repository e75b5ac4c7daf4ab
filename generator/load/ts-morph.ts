import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

/**
 * ts-morph, loaded with `require`. It is a CommonJS bundle of about 1 MB; importing it as ESM makes
 * Node scan the whole bundle for export names first, which costs a quarter of a second per process —
 * more than a tenth of generating a revision.
 */
const tsMorph = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;

export const { Node, Project, SyntaxKind, ts } = tsMorph;
export type Node = TsMorph.Node;
export type { JSDocableNode, SourceFile, TypeNode } from "ts-morph";
