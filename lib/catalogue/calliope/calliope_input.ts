/** What the Calliope adapter reads of a technology and its instances; a served `Technology` fits. */
import type { AdapterOptionalFields } from "../adapters/pick_instance.ts";
import type { Instance, Technology } from "../schema/technology_schema.ts";

/** The instance figures the adapter reads. */
export type CalliopeInstanceInput =
  & Pick<
    Instance,
    | "typical_capacity_mw"
    | "capex_usd_per_kw"
    | "opex_fixed_usd_per_kw_yr"
    | "opex_var_usd_per_mwh"
    | "efficiency_percent"
    | "lifetime_years"
    | "ramping_rate_percent_per_min"
  >
  & AdapterOptionalFields;

/** The technology fields the adapter reads; a served `Technology` fits. */
export type CalliopeTechnologyInput =
  & Pick<Technology, "technology_id" | "technology_name" | "domain" | "carrier">
  & Partial<Pick<Technology, "carrier_in" | "tags" | "profile_key">>
  & { instances: readonly CalliopeInstanceInput[] };
