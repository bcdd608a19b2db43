/**
 * The TABULA typology in memory: every country's variants and the reference rows, read from the
 * store once (server start-up, batch recalculation) so lookups never touch DuckDB.
 */
import { quoteIdent, type Store } from "../../store/store.ts";
import { type Country, countryByIso2, countryOfVariant } from "../tabula/countries.ts";
import type { ReferenceRow } from "../parameters/reference_row.ts";
import {
  COUNTRY_COLUMN,
  COUNTRY_TABLE,
  REFERENCE_TABLE,
  ROW_COLUMN,
  VARIANT_TABLE,
} from "../tabula/tabula_tables.ts";
import { variantCodeOf, type VariantRow } from "../parameters/variant_row.ts";

/** A country with data in the typology. */
export interface CountryInfo extends Country {
  /** Number of variants of the country. */
  readonly variantCount: number;
}

/** Read-only access to the loaded TABULA data. */
export interface Typology {
  /** Countries with at least one variant, by name. */
  countries(): readonly CountryInfo[];
  /** The country of an ISO2 code, upper or lower case; undefined if it has no data. */
  country(iso2: string): CountryInfo | undefined;
  /** Variant codes of a country (upper or lower case ISO2) in source-file order; [] if none. */
  variantCodes(iso2: string): readonly string[];
  /** A variant by its exact code. */
  variant(code: string): VariantRow | undefined;
  /** The reference row (TABULA's own intermediates and q_h_nd) of a variant code, if any. */
  reference(code: string): ReferenceRow | undefined;
  /** Every variant, countries by name, each in source-file order. */
  allVariants(): readonly VariantRow[];
}

/** Builds a typology from rows; throws a RangeError for a duplicate code or unknown country. */
export function typologyFromRows(
  variants: readonly VariantRow[],
  references: readonly ReferenceRow[] = [],
): Typology {
  // The caller keeps its own row objects unfrozen: the typology holds frozen copies.
  const copy = <T extends object>(row: T): T => ({ ...row });
  return buildTypology(variants.map(copy), references.map(copy));
}

/** Builds a typology that takes ownership of the rows and freezes them in place. */
function buildTypology(
  variants: readonly VariantRow[],
  references: readonly ReferenceRow[],
): Typology {
  const byCode = new Map<string, VariantRow>();
  const codesByCountry = new Map<string, string[]>();
  for (const row of variants) {
    const code = variantCodeOf(row);
    if (byCode.has(code)) throw new RangeError(`Duplicate variant code ${code}`);
    const country = countryOfVariant(code);
    if (!country) throw new RangeError(`Variant ${code}: unknown country ${code.slice(0, 2)}`);
    byCode.set(code, Object.freeze(row));
    const codes = codesByCountry.get(country.iso2) ?? [];
    codes.push(code);
    codesByCountry.set(country.iso2, codes);
  }
  const countries: CountryInfo[] = [...codesByCountry.entries()]
    .map(([iso2, codes]) => ({ ...(countryByIso2(iso2) as Country), variantCount: codes.length }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const countryByCode = new Map(countries.map((c) => [c.iso2, c]));
  const frozenCodes = new Map(
    [...codesByCountry].map(([iso2, codes]) => [iso2, Object.freeze([...codes])]),
  );
  const all = Object.freeze(
    countries.flatMap((c) => (frozenCodes.get(c.iso2) ?? []).map((code) => byCode.get(code)!)),
  );

  const referenceByCode = new Map<string, ReferenceRow>();
  for (const row of references) {
    const code = variantCodeOf(row);
    if (referenceByCode.has(code)) throw new RangeError(`Duplicate reference code ${code}`);
    referenceByCode.set(code, Object.freeze(row));
  }

  return {
    countries: () => countries,
    country: (iso2) => countryByCode.get(iso2.toUpperCase()),
    variantCodes: (iso2) => frozenCodes.get(iso2.toUpperCase()) ?? [],
    variant: (code) => byCode.get(code),
    reference: (code) => referenceByCode.get(code),
    allVariants: () => all,
  };
}

/** Reads every variant and reference row of the store into memory. */
export async function loadTypology(store: Store): Promise<Typology> {
  const bookkeeping = `${quoteIdent(ROW_COLUMN)}, ${quoteIdent(COUNTRY_COLUMN)}`;
  // Countries by name, each in source-file order, as typologyFromRows keeps them.
  const variants = await store.all<VariantRow>(
    `SELECT v.* EXCLUDE (${bookkeeping}) FROM ${quoteIdent(VARIANT_TABLE)} v` +
      ` JOIN ${quoteIdent(COUNTRY_TABLE)} c ON v.${quoteIdent(COUNTRY_COLUMN)} = c.iso2` +
      ` ORDER BY c.name, v.${quoteIdent(ROW_COLUMN)}`,
  );
  const references = await store.all<ReferenceRow>(
    `SELECT * EXCLUDE (${quoteIdent(ROW_COLUMN)}) FROM ${quoteIdent(REFERENCE_TABLE)}` +
      ` ORDER BY ${quoteIdent(ROW_COLUMN)}`,
  );
  // The rows are fresh objects of ours: frozen in place, not copied.
  return buildTypology(variants, references);
}
