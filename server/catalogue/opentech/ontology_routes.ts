/**
 * `GET /api/v1/ontology/schema`: the vocabularies OpenTech-DB's contributor forms offer, taken
 * from the served catalogue: the four domains, the carriers, the Open Energy Ontology classes
 * (full IRIs) and the reference sources the catalogue's instances cite.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { DOMAINS } from "../../../lib/catalogue/schema/technology_schema.ts";
import type { CatalogueSnapshot } from "../../../lib/catalogue/served/catalogue_snapshot.ts";
import { createOpenAPIApp } from "../../middleware/errors.ts";
import type { CatalogueDeps, CatalogueEnv } from "../deps.ts";
import { OPENTECH_NOTE, OPENTECH_TAGS } from "./frontend_tag.ts";

const ontologySchema = z.object({
  allowed_domains: z.array(z.string()),
  allowed_carriers: z.array(z.string()).describe("Carriers of the served technologies"),
  allowed_oeo_classes: z.array(z.string()).describe("Class IRIs of the served technologies"),
  allowed_reference_sources: z.array(z.string()).describe("Sources the instances cite"),
}).openapi("OntologySchema");

const schemaRoute = createRoute({
  method: "get",
  path: "/schema",
  tags: OPENTECH_TAGS,
  summary: "Vocabularies of the contributor forms",
  description: OPENTECH_NOTE + "Derived from the served catalogue.",
  responses: {
    200: {
      description: "Domains, carriers, class IRIs and reference sources, each sorted",
      content: { "application/json": { schema: ontologySchema } },
    },
  },
});

/** The vocabularies of a snapshot. */
export function vocabularies(snapshot: CatalogueSnapshot): z.infer<typeof ontologySchema> {
  const carriers = new Set<string>();
  const classes = new Set<string>();
  const sources = new Set<string>();
  for (const t of snapshot.technologies) {
    carriers.add(t.carrier);
    for (const c of [...(t.carrier_in ?? []), ...(t.carrier_out ?? [])]) carriers.add(c);
    if (t.oeo_uri) classes.add(t.oeo_uri);
    for (const i of t.instances) if (i.reference_source) sources.add(i.reference_source);
  }
  const sorted = (set: Set<string>) => [...set].sort();
  return {
    allowed_domains: [...DOMAINS],
    allowed_carriers: sorted(carriers),
    allowed_oeo_classes: sorted(classes),
    allowed_reference_sources: sorted(sources),
  };
}

/** The ontology route, to mount at `/api/v1/ontology`. */
export function ontologyRoutes({ catalogue }: CatalogueDeps): OpenAPIHono<CatalogueEnv> {
  const app = createOpenAPIApp<CatalogueEnv>({ details: true });
  app.openapi(schemaRoute, (c) => c.json(vocabularies(catalogue.current()), 200));
  return app;
}
