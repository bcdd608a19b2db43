/**
 * The countries of the TABULA data set: ISO 3166-1 alpha-2 code, the lower-case name the API
 * uses (also the source file name, `data/tabula/city2tabula/<name>.csv`) and the store table.
 */

/** A country with a TABULA typology. */
export interface Country {
  /** ISO 3166-1 alpha-2 code as used in the variant codes, upper case (`GB`, `GR`, `RS`). */
  readonly iso2: string;
  /** Lower-case name, words joined by `_` (`united_kingdom`). */
  readonly name: string;
  /** Store table holding the country's variants (`tabula_gb`). */
  readonly table: string;
}

const entry = (iso2: string, name: string): Country => ({
  iso2,
  name,
  table: `tabula_${iso2.toLowerCase()}`,
});

/** The 20 countries of the data set, by name. */
export const COUNTRIES: readonly Country[] = [
  entry("AT", "austria"),
  entry("BE", "belgium"),
  entry("BG", "bulgaria"),
  entry("CY", "cyprus"),
  entry("CZ", "czechia"),
  entry("DK", "denmark"),
  entry("FR", "france"),
  entry("DE", "germany"),
  entry("GR", "greece"),
  entry("HU", "hungary"),
  entry("IE", "ireland"),
  entry("IT", "italy"),
  entry("NL", "netherlands"),
  entry("NO", "norway"),
  entry("PL", "poland"),
  entry("RS", "serbia"),
  entry("SI", "slovenia"),
  entry("ES", "spain"),
  entry("SE", "sweden"),
  entry("GB", "united_kingdom"),
];

const BY_ISO2 = new Map(COUNTRIES.map((c) => [c.iso2, c]));
const BY_NAME = new Map(COUNTRIES.map((c) => [c.name, c]));

/** The country of an ISO2 code, upper or lower case (`de`, `DE`); undefined if unknown. */
export function countryByIso2(iso2: string): Country | undefined {
  return BY_ISO2.get(iso2.toUpperCase());
}

/** The country of a lower-case name (`germany`); undefined if unknown. */
export function countryByName(name: string): Country | undefined {
  return BY_NAME.get(name);
}

/** The country of a variant code: its first two characters, upper case; undefined if unknown. */
export function countryOfVariant(code: string): Country | undefined {
  return BY_ISO2.get(code.slice(0, 2));
}

/** Store table name of a country code (`DE` -> `tabula_de`). */
export function tableName(iso2: string): string {
  return `tabula_${iso2.toLowerCase()}`;
}
