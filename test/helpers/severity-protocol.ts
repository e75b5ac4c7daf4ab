import { diffModels } from "../../generator/diff/index.js";
import { loadSchemaText } from "./golden.js";

/*
 * The small protocol the severity tests (test/generator/diff/severity*.test.ts) vary one edit at a
 * time, and the diff between two of its variants as rows of rule, severity, location, before and
 * after.
 */

/** Each `/*X*\/` marker is a place a case edits; the base leaves them empty. */
export const BASE = `
export const LATEST_PROTOCOL_VERSION = "2099-01-01";
export const GADGET_GONE = -32050; /*CONST*/
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Notification { method: string; params?: { [key: string]: unknown } }
export interface Result { _meta?: { [key: string]: unknown } }
export interface ClientCapabilities { colors?: object; /*CC*/ }
export interface ServerCapabilities { gadgets?: object; /*SC*/ }
export interface GadgetGoneError { code: typeof GADGET_GONE; message: string }
export interface GetParams { name: string; mode?: "fast" | "slow"; /*GP*/ }
/** @category \`gadgets/get\` */
export interface GetRequest extends Request { method: "gadgets/get"; params: GetParams }
/** @category \`gadgets/get\` */
export interface GetResultResponse { jsonrpc: "2.0"; id: number; result: GetResult /*RES*/ }
export interface GetLaterResult extends Result { later: boolean }
export interface GetResult extends Result { gadget: string; state: "on" | "off"; /*GR*/ }
export interface AskParams { question: string; /*AP*/ }
export interface AskRequest extends Request { method: "client/ask"; params: AskParams }
export interface AskResult extends Result { answer: string; /*AR*/ }
export interface PingRequest extends Request { method: "ping" }
export type EmptyResult = Result;
export interface HelloNotification extends Notification { method: "notifications/hello"; params: { greeting: string } }
export interface ChangedNotification extends Notification { method: "notifications/changed" }
/*DEFS*/
export type ClientRequest = GetRequest | PingRequest /*CR*/;
export type ServerRequest = AskRequest | PingRequest /*SR*/;
export type ServerResult = GetResult | EmptyResult /*SRES*/;
export type ClientResult = AskResult | EmptyResult;
export type ClientNotification = HelloNotification /*CN*/;
export type ServerNotification = ChangedNotification /*SN*/;
`;

export type Edits = Record<string, string>;
/** The base with each edit applied: a `/*X*\/` key fills that marker, any other key is replaced text. */
export function variant(edits: Edits): string {
  let text = BASE;
  for (const [from, to] of Object.entries(edits)) {
    if (!text.includes(from)) throw new Error(`no ${from} in the base`);
    text = text.replace(from, to);
  }
  return text;
}

export type Row = [string, string, string, string | null, string | null];
export function diff(before: Edits, after: Edits): Row[] {
  const from = loadSchemaText(variant(before), "from");
  const to = loadSchemaText(variant(after), "to");
  return diffModels(from, to).map((c) => [
    c.ruleId,
    c.severity,
    c.location,
    c.from ?? null,
    c.to ?? null,
  ]);
}
