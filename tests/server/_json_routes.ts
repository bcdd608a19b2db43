/** The operations of an OpenAPI document that take a JSON body, as `[METHOD, path template]`. */
export function jsonBodyRoutes(doc: { paths: Record<string, unknown> }): [string, string][] {
  const routes: [string, string][] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations as Record<string, unknown>)) {
      const content = (operation as { requestBody?: { content?: Record<string, unknown> } })
        .requestBody?.content;
      if (content?.["application/json"]) routes.push([method.toUpperCase(), path]);
    }
  }
  return routes;
}
