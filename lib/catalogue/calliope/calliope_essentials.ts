/**
 * The technology-to-Calliope mapping: a technology's `essentials` (name, plotting colour,
 * carriers and the abstract base technology it derives from).
 */
import type { CalliopeTech } from "./calliope_answer.ts";
import type { CalliopeDraft } from "./calliope_draft.ts";
import type { CalliopeTechnologyInput } from "./calliope_input.ts";
import type { CalliopeParent } from "./calliope_keys.ts";

/** Tags that mark a variable renewable (besides a `profile_key`). */
const VARIABLE_TAGS = new Set(["variable", "variable_renewable", "vre"]);

/** Whether a technology is a variable renewable: it has a profile, or a `variable` tag. */
export function isVariableRenewable(
  technology: Pick<CalliopeTechnologyInput, "profile_key" | "tags">,
): boolean {
  return Boolean(technology.profile_key) ||
    (technology.tags ?? []).some((tag) => VARIABLE_TAGS.has(tag.toLowerCase()));
}

/** Calliope parent of a technology: supply, supply_plus (variable renewables), storage, ... */
export function calliopeParent(
  technology: Pick<CalliopeTechnologyInput, "domain" | "profile_key" | "tags">,
): CalliopeParent {
  switch (technology.domain) {
    case "generation":
      return isVariableRenewable(technology) ? "supply_plus" : "supply";
    case "storage":
      return "storage";
    case "transmission":
      return "transmission";
    case "conversion":
      return "conversion";
  }
}

/**
 * A stable plotting colour `#rrggbb` for a technology id: FNV-1a hash -> hue, with saturation and
 * lightness kept in a readable band.
 */
export function technologyColor(technologyId: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(technologyId)) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  const h = hash % 360;
  const s = 0.55 + ((hash >>> 9) % 20) / 100;
  const l = 0.4 + ((hash >>> 17) % 15) / 100;
  // HSL -> RGB (CSS Color 4, "Converting HSL Colors to sRGB").
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255).toString(16).padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/**
 * The essentials of the draft's technology. A conversion's input carrier the catalogue does not
 * give goes to the draft's `omitted`; carriers beyond the first, to its notes.
 */
export function calliopeEssentials(
  technology: Pick<
    CalliopeTechnologyInput,
    "technology_id" | "technology_name" | "carrier" | "carrier_in"
  >,
  { parent, omitted, notes }: CalliopeDraft,
): CalliopeTech["essentials"] {
  const essentials: CalliopeTech["essentials"] = {
    name: technology.technology_name,
    color: technologyColor(technology.technology_id),
    carrier_out: technology.carrier,
    parent,
  };
  if (parent === "storage" || parent === "transmission") {
    // Storage and transmission take in and give out the same carrier.
    essentials.carrier_in = technology.carrier;
  } else if (parent === "conversion") {
    const inputs = technology.carrier_in ?? [];
    if (inputs[0] !== undefined) essentials.carrier_in = inputs[0];
    else {
      omitted.push("essentials.carrier_in");
      notes.push("A Calliope conversion needs essentials.carrier_in; the catalogue does not say");
    }
    if (inputs.length > 1) {
      notes.push(
        `carrier_in ${inputs.slice(1).join(", ")} left out: a Calliope conversion has one ` +
          "input carrier (conversion_plus takes several)",
      );
    }
  }
  return essentials;
}
