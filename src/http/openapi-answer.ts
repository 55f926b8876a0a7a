// What a route answers, for the OpenAPI document only (no validation at run time): the web app's
// types are generated from that document (web/src/api/openapi.json, scripts/openapi-spec.ts), so a
// record the app reads is described here once, by the zod schema its module types itself with.
import { z } from "zod";

/** `detail` of a route whose 200 answer is `schema` as JSON. */
export function jsonAnswer(schema: z.ZodType, description = "OK") {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
  return { responses: { 200: { description, content: { "application/json": { schema: json } } } } };
}
