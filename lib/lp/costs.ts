/**
 * Calliope 0.6 `constraints/costs.py` (+ the cost_var parts of conversion.py,
 * conversion_plus.py and export.py): cost = cost_investment + Σ_τ cost_var per cost class and
 * loc_tech, kept as linear expressions over the LP columns and substituted into the objective.
 *
 * cost_investment = cap·(1 + om_annual_investment_fraction) + om_annual·energy_cap·W, with
 * cap = depreciation·W·Σ (unit capital cost × capacity), halved at each end of a link.
 */
import {
  at,
  type ResolvedCosts,
  type ResolvedLocTech,
} from "../model/preprocess/resolved_model.ts";
import type { BuildContext } from "./build_context.ts";
import { ltc, primaryCarrier, primaryCarrierIn } from "./build_context.ts";
import type { CostExpression, LinearTerms } from "./lp_index.ts";

function add(terms: LinearTerms, col: number | undefined, coef: number): void {
  if (col === undefined || coef === 0) return;
  terms.cols.push(col);
  terms.vals.push(coef);
}

function investment(
  ctx: BuildContext,
  lt: ResolvedLocTech,
  cls: string,
  k: ResolvedCosts,
): LinearTerms {
  const { index, W } = ctx;
  const terms: LinearTerms = { cols: [], vals: [] };
  if (!lt.sets.investmentCost) return terms;
  let capFactor = k.depreciation * W * (1 + k.om_annual_investment_fraction);
  if (lt.type === "transmission") capFactor /= 2;
  add(terms, index.energyCap.get(lt.id), capFactor * k.energy_cap + k.om_annual * W);
  if (lt.sets.store) add(terms, index.storageCap.get(lt.id), capFactor * k.storage_cap);
  if (lt.type === "supply_plus") {
    add(terms, index.resourceCap.get(lt.id), capFactor * k.resource_cap);
  }
  if (lt.sets.area) add(terms, index.resourceArea.get(lt.id), capFactor * k.resource_area);
  // MILP: purchase cost per unit or per purchase; not part of om_annual_investment_fraction.
  const purchase = lt.milp?.purchaseCost[cls];
  if (purchase !== undefined && purchase !== 0) {
    const f = (k.depreciation * W * purchase) / (lt.type === "transmission" ? 2 : 1);
    add(terms, index.units.get(lt.id), f);
    add(terms, index.purchased.get(lt.id), f);
  }
  return terms;
}

function variable(ctx: BuildContext, lt: ResolvedLocTech, k: ResolvedCosts): LinearTerms {
  const { index, T, model } = ctx;
  const terms: LinearTerms = { cols: [], vals: [] };
  if (!lt.sets.omCost) return terms;
  const w = model.weights;
  const c = lt.constraints;
  let prod: number | undefined; // primary output, charged om_prod
  let con: number | undefined; // consumed, charged om_con per unit (already signed below)
  let conSign = 0;
  const out = primaryCarrier(lt);
  if (lt.type === "conversion" || lt.type === "conversion_plus") {
    const cin = lt.type === "conversion" ? lt.carriers.in[0] : primaryCarrierIn(lt);
    prod = out === undefined ? undefined : index.carrierProd.get(ltc(lt, out));
    con = cin === undefined ? undefined : index.carrierCon.get(ltc(lt, cin));
    conSign = -1;
  } else {
    prod = out === undefined ? undefined : index.carrierProd.get(ltc(lt, out));
    if (lt.type === "demand") {
      prod = undefined;
      con = out === undefined ? undefined : index.carrierCon.get(ltc(lt, out));
      conSign = -1;
    }
  }
  const rc = index.resourceCon.get(lt.id);
  const exportCarrier = lt.sets.export && lt.type !== "transmission" ? c.export_carrier : undefined;
  const exp = exportCarrier === undefined
    ? undefined
    : index.carrierExport.get(ltc(lt, exportCarrier));
  for (let t = 0; t < T; t++) {
    const wt = w[t]!;
    const omProd = at(k.om_prod, t);
    const omCon = at(k.om_con, t);
    if (prod !== undefined) add(terms, prod + t, omProd * wt);
    if (omCon !== 0) {
      if (lt.type === "supply_plus") add(terms, rc! + t, omCon * wt);
      else if (lt.type === "supply") {
        // Fuel = output / efficiency.
        const eff = at(c.energy_eff, t);
        if (eff > 0 && prod !== undefined) add(terms, prod + t, (omCon * wt) / eff);
      } else if (con !== undefined) add(terms, con + t, conSign * omCon * wt);
    }
    if (exp !== undefined) add(terms, exp + t, at(k.export, t) * wt);
  }
  return terms;
}

/** Builds every cost expression into the index and adds its weighted terms to the objective. */
export function addCosts(ctx: BuildContext): void {
  const { model, b, index } = ctx;
  for (const lt of model.locTechs) {
    for (const [cls, k] of Object.entries(lt.costs)) {
      const expr: CostExpression = {
        investment: investment(ctx, lt, cls, k),
        variable: variable(ctx, lt, k),
      };
      let byLt = index.costs.get(cls);
      if (!byLt) index.costs.set(cls, byLt = new Map());
      byLt.set(lt.id, expr);
      // A feasibility check (run.objective: check_feasibility) has a constant objective.
      const weight = model.objective === "feasibility" ? 0 : model.objectiveWeights[cls] ?? 0;
      if (weight === 0) continue;
      for (const terms of [expr.investment, expr.variable]) {
        for (let i = 0; i < terms.cols.length; i++) {
          b.addCost(terms.cols[i]!, weight * terms.vals[i]!);
        }
      }
    }
  }
}
