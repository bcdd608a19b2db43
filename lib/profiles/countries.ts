/**
 * The nine countries of the profile catalogue: ISO code (used in profile ids and `location`),
 * English name and the Dispa-SET folder the series were taken from (data/profiles/SOURCE.md).
 */

/** One catalogue country. */
export interface Country {
  iso: string;
  name: string;
  /** Dispa-SET's own code: `UK` for GB, `EL` for GR, the ISO code elsewhere. */
  dispaset: string;
}

/** The catalogue countries in ISO order. */
export const COUNTRIES: readonly Country[] = [
  { iso: "AT", name: "Austria", dispaset: "AT" },
  { iso: "DE", name: "Germany", dispaset: "DE" },
  { iso: "DK", name: "Denmark", dispaset: "DK" },
  { iso: "ES", name: "Spain", dispaset: "ES" },
  { iso: "FR", name: "France", dispaset: "FR" },
  { iso: "GB", name: "United Kingdom", dispaset: "UK" },
  { iso: "GR", name: "Greece", dispaset: "EL" },
  { iso: "IT", name: "Italy", dispaset: "IT" },
  { iso: "NO", name: "Norway", dispaset: "NO" },
];
