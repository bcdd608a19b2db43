/**
 * TABULA's estimation of envelope areas from the reference floor area and the storey count.
 *
 * Implements the workbook's "simplified envelope area determination" (IWU, TABULA calculation
 * method, sheet Calc.Set.Building, columns A_Estim_*). The code tables below are the workbook's
 * own; every factor was checked against the estimated areas of all 836 rows of tsib/episcope.csv.
 */
import { codeOf, numberOf, type VariantRow } from "../parameters/variant_row.ts";

/** Envelope areas estimated for one storey count, m2. */
export interface EnvelopeEstimate {
  /** Effective storeys for the storey area: n_Storey + f_CellarCond + 0.7 f_AtticCond. */
  n_Storey_effective: number;
  /** Effective storeys for the envelope: n_Storey + f_CellarEnv + 0.7 f_AtticEnv. */
  n_Storey_effective_envelope: number;
  /** Storey area A_C_Ref / n_eff (0 when there is no effective storey), m2. */
  A_C_Storey: number;
  A_GrossWall_Storey: number;
  A_Roof: number;
  A_UpperCeiling: number;
  A_Wall_ExtAir: number;
  A_Wall_ToCellarOrSoil: number;
  A_Floor: number;
  A_Window: number;
  A_Door: number;
}

/** The geometry codes of a variant that select the factors of the estimation. */
export interface EstimationCodes {
  attic: string;
  cellar: string;
  neighbours: string;
  complexFootprint: string;
  complexRoof: string;
  fCorrCeilingHeight: number;
}

// Attic condition: C conditioned, P partly conditioned, N not conditioned, NI not conditioned but
// insulated roof, PI partly conditioned with insulated roof, "-" no attic (flat roof).
const F_ATTIC_COND: Readonly<Record<string, number>> = { C: 1, P: 0.5, PI: 0.5 };
const F_ATTIC_ENV: Readonly<Record<string, number>> = { C: 1, NI: 1, P: 0.5, PI: 1 };
const F_CELLAR_COND: Readonly<Record<string, number>> = { C: 1, P: 0.5 };
const F_CELLAR_ENV: Readonly<Record<string, number>> = { C: 1, NI: 1, P: 0.5 };

/** Roof and upper-ceiling factors by attic code: area = p * A_storey + q. */
const ROOF_FACTORS: Readonly<
  Record<string, { pRoof: number; qRoof: number; pCeiling: number; qCeiling: number }>
> = {
  "-": { pRoof: 1.2, qRoof: 5, pCeiling: 0, qCeiling: 0 },
  C: { pRoof: 1.6, qRoof: 15, pCeiling: 0, qCeiling: 0 },
  NI: { pRoof: 1.6, qRoof: 15, pCeiling: 0, qCeiling: 0 },
  PI: { pRoof: 1.6, qRoof: 15, pCeiling: 0, qCeiling: 0 },
  P: { pRoof: 0.8, qRoof: 7, pCeiling: 0.6, qCeiling: 3 },
};
// Not conditioned or unknown attic: the heat loss goes through the upper ceiling.
const CEILING_ONLY = { pRoof: 0, qRoof: 0, pCeiling: 1.2, qCeiling: 5 };

/** Gross-wall addition per storey by attached neighbours, m2 (detached when unknown). */
const Q_GROSS_WALL: Readonly<Record<string, number>> = { B_Alone: 50, B_N1: 25, B_N2: 5 };

/** Complexity factors of footprint and roof: "Simple" shapes have 10 % less area. */
const F_COMPLEX: Readonly<Record<string, number>> = { Simple: 0.9 };

/** Reads the geometry codes of a variant row. */
export function estimationCodes(row: VariantRow): EstimationCodes {
  return {
    attic: codeOf(row, "Code_AtticCond"),
    cellar: codeOf(row, "Code_CellarCond"),
    neighbours: codeOf(row, "Code_AttachedNeighbours"),
    complexFootprint: codeOf(row, "Code_ComplexFootprint"),
    complexRoof: codeOf(row, "Code_ComplexRoof"),
    fCorrCeilingHeight: numberOf(row, "f_Corr_CeilingHeight"),
  };
}

/**
 * Estimates the envelope areas (m2) of a building with reference area `aRef` (m2) and
 * `nStorey` full storeys, as TABULA's workbook does when no manual areas are given.
 *
 * For DE.N.AB.02 (`estimationCodes(row)`, 829.4 m2, 5 storeys) the roof area `A_Roof` is 247.81.
 */
export function estimateEnvelope(
  codes: EstimationCodes,
  aRef: number,
  nStorey: number,
): EnvelopeEstimate {
  const nEff = nStorey + (F_CELLAR_COND[codes.cellar] ?? 0) +
    0.7 * (F_ATTIC_COND[codes.attic] ?? 0);
  const fCellarEnv = F_CELLAR_ENV[codes.cellar] ?? 0;
  const nEffEnv = nStorey + fCellarEnv + 0.7 * (F_ATTIC_ENV[codes.attic] ?? 0);
  const aStorey = nEff > 0 ? aRef / nEff : 0;
  const grossWall = codes.fCorrCeilingHeight * (F_COMPLEX[codes.complexFootprint] ?? 1) *
    (0.7 * aStorey + (Q_GROSS_WALL[codes.neighbours] ?? Q_GROSS_WALL.B_Alone!));
  const roof = ROOF_FACTORS[codes.attic] ?? CEILING_ONLY;
  const door = 0.01 * aRef + 1.5;
  const window = 0.18 * aRef - door;
  const wallToCellar = 0.5 * fCellarEnv * grossWall;
  return {
    n_Storey_effective: nEff,
    n_Storey_effective_envelope: nEffEnv,
    A_C_Storey: aStorey,
    A_GrossWall_Storey: grossWall,
    A_Roof: (F_COMPLEX[codes.complexRoof] ?? 1) * (roof.pRoof * aStorey + roof.qRoof),
    A_UpperCeiling: roof.pCeiling * aStorey + roof.qCeiling,
    A_Wall_ExtAir: nEffEnv * grossWall - wallToCellar - window - door,
    A_Wall_ToCellarOrSoil: wallToCellar,
    A_Floor: 1.2 * aStorey + 5,
    A_Window: window,
    A_Door: door,
  };
}
