/**
 * Resource: a variable renewable (supply_plus) gets `resource: file=<profile_key>.csv` with
 * `resource_unit: energy_per_cap`, the catalogue's profile per location (Calliope reads the
 * column named after the location); without them Calliope's default resource is unlimited.
 * With a capacity-factor profile, output per kW already, `energy_eff` is 1 (`energy_eff.ts`).
 */
import { type CalliopeDraft, given } from "./calliope_draft.ts";
import type { CalliopeTechnologyInput } from "./calliope_input.ts";
import type { CALLIOPE_RESOURCE_UNITS } from "./calliope_overrides.ts";
import { DISPASET_SERIES } from "../../profiles/dispaset_series.ts";

/** Calliope's resource unit of a profile per kW of capacity. */
const ENERGY_PER_CAP = "energy_per_cap" satisfies (typeof CALLIOPE_RESOURCE_UNITS)[number];

/** The resource a supply_plus gets: its profile as a per-location series, per kW of capacity. */
export interface SupplyPlusResource {
  /** `file=<series>.csv`: the column named after the location. */
  readonly reference: string;
  readonly series: string;
  /** Whether the series is a capacity factor (output per kW): then energy_eff is 1. */
  readonly capacityFactor: boolean;
  /** The catalogue's built-in series of this profile key, if it is one. */
  readonly known: (typeof DISPASET_SERIES)[number] | undefined;
  readonly unit: string;
  readonly note: string;
}

/**
 * The resource of a variable renewable: its `profile_key` series (the catalogue's profiles are
 * `<ISO2>_<profile_key>_<year>`), or, without one, a series named after the technology that the
 * model must supply.
 */
export function supplyPlusResource(
  technology: Pick<CalliopeTechnologyInput, "technology_id" | "profile_key">,
): SupplyPlusResource {
  const key = technology.profile_key ?? null;
  const series = key ?? technology.technology_id;
  const known = key === null ? undefined : DISPASET_SERIES.find((s) => s.key === key);
  const capacityFactor = known?.type === "capacity_factor";
  const perCap = "kWh per kW of energy_cap in each time step (resource_unit energy_per_cap)";
  const unit = capacityFactor
    ? `${perCap}: a capacity factor, 0 to 1 at hourly steps`
    : known !== undefined
    ? `${perCap}: ${known.label}, ${known.unit}`
    : perCap;
  const where = `resource = file=${series}.csv with resource_unit ${ENERGY_PER_CAP}: one column ` +
    "per location (Calliope reads the column named after the location), in kWh per kW of " +
    "energy_cap in each time step; ";
  const note = key === null
    ? `${where}the catalogue ships no profile for this technology: supply ${series}.csv, or ` +
      "set constraints.resource to a file=ID.csv:column of your own (without a resource " +
      "Calliope's supply_plus output is unlimited)"
    : `${where}the catalogue's profiles of this key are <ISO2>_${key}_<year> ` +
      `(GET /api/v1/timeseries/<id>/data${known === undefined ? "" : `, e.g. DE_${key}_2016`}` +
      `): put one per location in ${series}.csv, or set constraints.resource to a ` +
      "file=ID.csv:column of your own";
  return { reference: `file=${series}.csv`, series, capacityFactor, known, unit, note };
}

/**
 * Sets the draft's resource and its unit, with the note on where the series comes from; `eff`
 * (efficiency_percent) is named when it would scale a series that may be capacity factors.
 */
export function setSupplyPlusResource(
  { constraints, notes }: CalliopeDraft,
  resource: SupplyPlusResource,
  eff: number | null | undefined,
): void {
  constraints.resource = resource.reference;
  constraints.resource_unit = ENERGY_PER_CAP;
  notes.push(resource.note);
  if (!resource.capacityFactor && resource.known === undefined && given(eff)) {
    notes.push(
      `energy_eff = ${eff / 100} multiplies the resource: if ${resource.series}.csv holds ` +
        "capacity factors (output per kW), set energy_eff to 1",
    );
  }
}
