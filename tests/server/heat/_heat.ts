/** The heat app over the real test typology, and a small helper to call it in-process. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { createHeatApp } from "../../../server/heat/app.ts";
import type { CalculateFn } from "../../../server/heat/deps.ts";
import { testTypology } from "../../heat/_typology.ts";

export const typology = await testTypology();

/** The heat app; `calculate` replaces the TABULA calculation. */
export function heatApp(calculate?: CalculateFn): OpenAPIHono {
  return createHeatApp(calculate ? { typology, calculate } : { typology });
}

/** A response's status, content type and parsed JSON body. */
export interface JsonReply {
  status: number;
  type: string;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Calls the app and parses the JSON reply. */
export async function call(
  app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> },
  path: string,
  init?: RequestInit,
): Promise<JsonReply> {
  const res = await app.request(path, init);
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  return { status: res.status, type, body: type.includes("json") ? JSON.parse(text) : text };
}

/** A POST with a JSON body. */
export function postJson(body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}
