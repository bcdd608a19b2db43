/** How the OpenAPI document marks the routes that exist for OpenTech-DB's own frontend. */

/** Tag of the OpenTech-DB frontend's compatibility routes. */
export const OPENTECH_TAGS = ["OpenTech-DB frontend"];

/** Opening of every compatibility route's description. */
export const OPENTECH_NOTE = "Compatibility route for OpenTech-DB's own frontend (the original " +
  "backend's wire form of the same operation; errors also carry `detail`). ";
