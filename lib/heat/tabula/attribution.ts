/**
 * Where the typology data come from and under which licence; shown by the API and the README.
 */

/** Attribution of the TABULA/EPISCOPE data, as its licence (CC BY 4.0) asks. */
export const TABULA_ATTRIBUTION = {
  name: "TABULA/EPISCOPE building typology data",
  attribution: "TABULA/EPISCOPE building typology data, IWU Darmstadt, CC BY 4.0",
  publisher: "IWU (Institut Wohnen und Umwelt), Darmstadt; IEE projects TABULA and EPISCOPE",
  licence: "CC BY 4.0",
  licence_url: "https://creativecommons.org/licenses/by/4.0/",
  website: "https://www.episcope.eu",
  sources: [
    "THD-Spatial/City2TABULA data/tabula/<country>.csv (commit 9a0feeef): variant inputs",
    "FZJ-IEK3-VSA/tsib tsib/data/episcope/episcope.csv (commit 0c4146de): reference results",
  ],
} as const;

/** The calculation method the service implements. */
export const METHOD = "TABULA seasonal method (IWU tabula-calculator.xlsx, Calc.Set.Building), " +
  "based on EN ISO 13790; results per m2 reference floor area A_C_Ref.";
