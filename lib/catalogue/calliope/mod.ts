/**
 * The catalogue's Calliope 0.6 adapter: technology instances as Calliope technologies
 * (`to_calliope.ts`), the shapes of its answer (`calliope_answer.ts`), the keys Calliope 0.6
 * knows (`calliope_keys.ts`) and caller overrides (`calliope_overrides.ts`).
 */
export {
  CALLIOPE_ANSWER_MEMBERS,
  type CalliopeAnswer,
  calliopeAnswer,
  calliopeAnswerSchema,
  type CalliopeConfig,
  calliopeConfigSchema,
  type CalliopeReport,
  type CalliopeTech,
  type CalliopeTechs,
  calliopeTechSchema,
  calliopeTechsSchema,
  capacityConversionSchema,
} from "./calliope_answer.ts";
export { calliopeParent, isVariableRenewable, technologyColor } from "./calliope_essentials.ts";
export type { CalliopeInstanceInput, CalliopeTechnologyInput } from "./calliope_input.ts";
export {
  CALLIOPE_ALLOWED,
  CALLIOPE_CONSTRAINT_KEYS,
  CALLIOPE_COST_KEYS,
  CALLIOPE_ESSENTIALS_KEYS,
  CALLIOPE_PARENTS,
  type CalliopeConstraintKey,
  type CalliopeCostKey,
  type CalliopeParent,
} from "./calliope_keys.ts";
export {
  applyCalliopeOverrides,
  CALLIOPE_FILE_REFERENCE,
  CALLIOPE_RESOURCE_UNITS,
  type CalliopeOverrides,
  CalliopeOverridesSchema,
} from "./calliope_overrides.ts";
export { COST_CLASS } from "./cost_class.ts";
export { CALLIOPE_CO2_CLASS } from "./fuel_costs.ts";
export {
  type CalliopeOptions,
  toCalliope,
  toCalliopeReport,
  toCalliopeTechs,
} from "./to_calliope.ts";
