/**
 * Levelised cost per tonne of CO2 captured.
 *
 * Source: research notes section 2.5 ("Avoided CO2 and costs"):
 * `c = [CAPEX·CRF + FOM]/M_year + p_heat·q_reb + p_el·w_el + c_transport + c_storage` with
 * `CRF = r(1+r)^n/((1+r)^n − 1)`. Defaults are the DEA 2030 capture-plant numbers via PyPSA
 * technology-data (3.27 M EUR per t/h, FOM 3 %/yr, 25 yr), 7 %, 8000 full-load hours, heat
 * 20 EUR/MWh, electricity 60 EUR/MWh, storage 30 EUR/t (PyPSA-Eur `co2_sequestration_cost`);
 * the worked example there (2.6 GJ/t, 0.107 MWh_el/t) gives ≈ 98 EUR/t.
 */

/** Cost parameters; every one is overridable in the payload's `economics`. */
export interface CostParameters {
  /** Investment per t/h of capture capacity, EUR. */
  readonly capexEurPerTph: number;
  /** Fixed O&M, % of investment per year. */
  readonly fomPctPerYr: number;
  /** Economic lifetime, years. */
  readonly lifetimeYr: number;
  /** Discount rate, %. */
  readonly discountRatePct: number;
  /**
   * Hours a year the capture plant runs with the run's pattern: the annual capture is the run's
   * mean rate times these hours (capital per t = annuity / (hours x mean / peak rate), the plant
   * sized for the peak). At a constant rate they are full-load hours.
   */
  readonly fullLoadHours: number;
  /** Price of reboiler heat, EUR/MWh_th. */
  readonly heatPriceEurMwh: number;
  /** Price of electricity, EUR/MWh_el. */
  readonly electricityPriceEurMwh: number;
  /** Transport, EUR per t CO2. */
  readonly transportEurT: number;
  /** Storage, EUR per t CO2. */
  readonly storageEurT: number;
}

/** The research notes' defaults (DEA 2030 via PyPSA technology-data). */
export const DEFAULT_COST_PARAMETERS: CostParameters = {
  capexEurPerTph: 3.27e6,
  fomPctPerYr: 3,
  lifetimeYr: 25,
  discountRatePct: 7,
  fullLoadHours: 8000,
  heatPriceEurMwh: 20,
  electricityPriceEurMwh: 60,
  transportEurT: 0,
  storageEurT: 30,
};

/** Capital recovery factor `r(1+r)^n/((1+r)^n − 1)`; 1/n when r = 0. */
export function capitalRecoveryFactor(ratePct: number, years: number): number {
  const r = ratePct / 100;
  if (r === 0) return 1 / years;
  const f = (1 + r) ** years;
  return r * f / (f - 1);
}

/** The parts of the levelised cost, EUR per t captured. */
export interface CaptureCost {
  readonly capitalEurT: number;
  readonly heatEurT: number;
  readonly electricityEurT: number;
  readonly transportEurT: number;
  readonly storageEurT: number;
  readonly totalEurT: number;
}

/**
 * Levelised capture cost, EUR/t. `utilisation` is the mean captured rate over the plant's
 * capacity (1 when it runs at capacity every full-load hour); heat and electricity are per t
 * captured, MWh/t.
 */
export function captureCost(
  heatMwhT: number,
  electricityMwhT: number,
  utilisation: number,
  p: CostParameters,
): CaptureCost {
  const annuity = p.capexEurPerTph *
    (capitalRecoveryFactor(p.discountRatePct, p.lifetimeYr) + p.fomPctPerYr / 100);
  const capitalEurT = utilisation > 0 ? annuity / (p.fullLoadHours * utilisation) : 0;
  const heatEurT = heatMwhT * p.heatPriceEurMwh;
  const electricityEurT = electricityMwhT * p.electricityPriceEurMwh;
  return {
    capitalEurT,
    heatEurT,
    electricityEurT,
    transportEurT: p.transportEurT,
    storageEurT: p.storageEurT,
    totalEurT: capitalEurT + heatEurT + electricityEurT + p.transportEurT + p.storageEurT,
  };
}
