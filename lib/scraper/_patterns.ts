/**
 * The regular expressions and word tables of the pattern extractor (`extract.ts`).
 *
 * Numbers: `1,200`, `1200`, `1.2`, ranges `800–1,200` / `800 to 1,200`. Money: a currency
 * before (`USD 1,200/kW`, `€850 per kW`) or after (`1.2 million EUR/MW`) the number, then a
 * capacity unit. The flags are `gi`; context words are matched within one sentence.
 */
const NUM = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const RANGE = String
  .raw`(?<lo>${NUM})(?:\s?(?:-|–|—|to)\s?(?:US\$|USD|EUR|€|\$|£)?\s?(?<hi>${NUM}))?`;
const CURRENCY = String.raw`US\$|USD|EUR|GBP|CNY|RMB|JPY|INR|AUD|CAD|CHF|\$|€|£`;
const SCALE = String.raw`(?:\s?(?<scale>million|mn|billion|bn|thousand|k|m)(?![a-z]))?`;
const PER = String.raw`\s?(?:/|per\s+)\s?`;
const UNIT = String.raw`(?<unit>kWh|MWh|GWh|kW|MW|GW|(?:kilo|mega|giga)watt(?:[- ]?hours?|s)?)` +
  String.raw`(?:_?el|_?e|p|\(e\))?(?![a-z])`;

/** Money with the currency first: `USD 1,200/kW`, `€850 per kW`, `$2000/kWe`. */
export const MONEY_PREFIX = new RegExp(
  String.raw`(?<![\w$€£])(?<cur>${CURRENCY})(?<gap>\s?)${RANGE}${SCALE}${PER}\(?\s?${UNIT}`,
  "gi",
);
/** Money with the currency after the number: `1.2 million EUR/MW`, `900 EUR2020/kW`. */
export const MONEY_SUFFIX = new RegExp(
  String.raw`(?<![\w.,])${RANGE}${SCALE}\s?(?<cur>${CURRENCY}|(?:US\s)?dollars?|euros?)` +
    String.raw`(?:[\s_-]?(?:19|20)\d{2}(?!\d))?${PER}\(?\s?${UNIT}`,
  "gi",
);
/** A percentage or a range of them: `65%`, `85 %`, `60-70 percent`. */
export const PERCENT = new RegExp(
  String.raw`(?<![\w.,])${RANGE}\s?(?:%|percent\b|per\s?cent\b)`,
  "gi",
);
/** "lifetime of 25 years", "economic life of 20-30 years". */
export const LIFETIME_AFTER = new RegExp(
  String
    .raw`\b(?:life[- ]?times?|life[- ]?spans?|(?:service|economic|technical|operational|useful|design)\s+life)\b` +
    String.raw`(?<between>[^.;:\d]{0,30}?)${RANGE}\s?(?:years?|yrs?)\b`,
  "gi",
);
/** "a 25-year lifetime", "20 years service life". */
export const LIFETIME_BEFORE = new RegExp(
  String.raw`(?<![\w.,])${RANGE}[- ]?(?:years?|yrs?)[- ]` +
    String.raw`(?:(?:technical|economic|operational|service|useful|design|expected)\s+)?` +
    String.raw`(?:life[- ]?time|life[- ]?span|life)\b`,
  "gi",
);
/** An emission factor: `450 gCO2/kWh`, `0.35 tCO2/MWh`, `820 kg CO2-eq per MWh`. */
export const CO2 = new RegExp(
  String.raw`(?<![\w.,])${RANGE}\s?(?<mass>g|kg|t|tonnes?|tons?)\s?(?:of\s+)?CO2` +
    String.raw`(?:[- ]?e(?:q(?:uivalent)?)?\.?)?${PER}(?<energy>kWh|MWh|GWh)(?:_?el|_?e)?(?![a-z])`,
  "gi",
);

/** Words that name a capital cost (global: the last one before a match counts). */
export const CAPEX_WORDS =
  /\b(?:capex|capital\s+(?:costs?|expenditures?|investments?)|investment\s+costs?|investments?|installed\s+costs?|installation\s+costs?|overnight\s+(?:capital\s+)?costs?|specific\s+costs?|system\s+costs?|stack\s+costs?|upfront\s+costs?|total\s+installed)\b/gi;
/** Words that name operation and maintenance costs (global, like CAPEX_WORDS). */
export const OM_WORDS =
  /\b(?:o\s?&\s?m|operations?\s+and\s+maintenance|operational\s+and\s+maintenance|maintenance|opex|operating\s+costs?|fom)\b/gi;
/** A capital-cost word right after an amount: "1,000 USD/kW capital cost". */
export const CAPEX_AFTER = /^\W{0,3}(?:\w+\s+)?(?:capex|capital|investment|installed|overnight)\b/i;
/** Words that name variable O&M, per unit of energy. */
export const VARIABLE_OM = /\b(?:variable\s+(?:o\s?&\s?m|operations?|operating|costs?)|vom)\b/i;
/** Words that make a money-per-energy figure a price or levelised cost, not capex. */
export const NOT_CAPEX =
  /\b(?:levell?i[sz]ed|lco[ehsx]|prices?|tariffs?|cost\s+of\s+(?:electricity|hydrogen|energy|storage)|fuel\s+costs?|revenues?|savings?|subsid(?:y|ies))\b/i;
/** Words that make a number a change ("improved by 5%"), not a level. */
export const CHANGE_WORDS =
  /\b(?:by|from|increase[sd]?|improve[sd]?|improvements?|gains?|loss(?:es)?|drops?|decrease[sd]?|declines?|reductions?|reduce[sd]?|penalty|higher|lower|degradation|degrade[sd]?|avoid(?:s|ed)?|saves?|saving)\b/i;
/** Life-cycle context: emissions then are not operational ones. */
export const LIFECYCLE = /\b(?:life[- ]?cycle|lca|cradle|embodied)\b/i;
/** Avoided-emission context: "saves 300 gCO2/kWh". */
export const AVOIDED = /\b(?:avoid|sav|reduc|abat|offset|displac)/i;
/** Named efficiencies, which make an efficiency figure more specific. */
export const EFFICIENCY_QUALIFIER =
  /\b(?:round[- ]?trip|electrical|electric|system|stack|net|overall|conversion|cycle|lhv|hhv|energy)\s+efficienc/i;
/** Words that make an O&M share annual without a "per year". */
export const ANNUAL = /\b(?:annual|yearly|fixed)\b/i;
/** A per-year suffix after a capacity unit: `/yr`, `-yr`, `/a`, ` per year`, `yr-1`. */
export const PER_YEAR_AFTER_UNIT =
  /^\s?\)?\s?(?:(?:[-/·⋅*×]\s?|per\s+|\s(?=(?:yr|year)\b))(?:yr|year|y|a|annum)(?![a-z])|(?:yr|y|a)\s?-\s?1\b)|^\s+(?:per\s+(?:year|annum)|annually|a\s+year|yearly|each\s+year)\b/i;
/** A per-km suffix after a capacity unit (lines and pipelines): `/km`. */
export const PER_KM_AFTER_UNIT = /^\s?\)?\s?(?:[-/·⋅*×]\s?|per\s+)km\b/i;
/** "of capex", "of the investment" after an O&M percentage. */
export const OF_CAPEX_AFTER_PERCENT =
  /^\s*of\s+(?:the\s+)?(?:initial\s+|total\s+|overnight\s+)?(?:capex|capital\s+(?:costs?|expenditures?|investments?)|investments?(?:\s+costs?)?|(?:system\s+)?costs?)\b/i;
/** "per year", "/yr", "p.a." after an O&M percentage. */
export const PER_YEAR_AFTER_PERCENT =
  /^\s*(?:per\s+(?:year|annum)|\/\s?(?:yr|year|a)\b|annually|a\s+year|yearly|p\.\s?a\.)/i;
/** "round-trip efficiency" after a percentage: "85% round-trip efficiency". */
export const EFFICIENCY_AFTER_PERCENT =
  /^\s*(?:\(\s*(?:lhv|hhv)\s*\)\s*)?(?<between>(?:[\w-]+\s+){0,2}?)efficien(?:cy|t)\b/i;
/** A preposition before a year: "in 2030 USD/kW" names a price year. */
export const YEAR_PREPOSITION =
  /\b(?:in|by|from|until|till|since|before|after|to|through|year)\s*$/i;

/** ISO 4217 codes of currency symbols and words. */
export const CURRENCY_CODES: Readonly<Record<string, string>> = {
  "us$": "USD",
  "$": "USD",
  dollar: "USD",
  dollars: "USD",
  "€": "EUR",
  euro: "EUR",
  euros: "EUR",
  "£": "GBP",
  rmb: "CNY",
};
/** Multipliers of scale words: `1.2 million`, `3.5 bn`. */
export const SCALES: Readonly<Record<string, number>> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
};
/** SI prefixes of capacity units, by their first letter. */
export const PREFIXES: Readonly<Record<string, string>> = { k: "k", m: "M", g: "G" };
/** Mass units of CO2 factors. */
export const MASSES: Readonly<Record<string, string>> = {
  g: "g",
  kg: "kg",
  t: "t",
  tonne: "t",
  tonnes: "t",
  ton: "t",
  tons: "t",
};
