/**
 * Calliope 0.6 `constraints/capacity.py`: bounds on energy, storage and resource capacity and
 * resource area, the systemwide energy capacity limits, storage power/energy ratios and the
 * area available at a location. Bounds are rows (as Calliope builds them), not column bounds.
 */
import type { BuildContext } from "./build_context.ts";
import { capacityByMilp, hasUnits } from "./milp.ts";

const INF = Infinity;

/**
 * Calliope's `get_capacity_constraint`: x = equals·scale when equals is set, else
 * min·scale ≤ x ≤ max·scale unless min = 0 and max = ∞ (then no row).
 */
function capacityRow(
  ctx: BuildContext,
  name: string,
  col: number,
  equals: number | undefined,
  min: number,
  max: number,
  scale = 1,
): void {
  if (equals !== undefined) {
    if (!Number.isFinite(equals)) throw new RangeError(`${name}: an _equals value cannot be inf`);
    ctx.b.addRow(name, equals * scale, equals * scale, [col], [1]);
    return;
  }
  if (min === 0 && max === INF) return;
  ctx.b.addRow(name, min * scale, max * scale, [col], [1]);
}

/** Adds every capacity family. */
export function addCapacity(ctx: BuildContext): void {
  const { model, b, index } = ctx;
  for (const lt of model.locTechs) {
    const c = lt.constraints;
    const cap = index.energyCap.get(lt.id)!;
    if (lt.sets.store) {
      const scap = index.storageCap.get(lt.id)!;
      // Integer units fix storage_cap through storage_cap_per_unit instead (milp.ts).
      if (!hasUnits(lt)) {
        capacityRow(
          ctx,
          `storage_capacity[${lt.id}]`,
          scap,
          c.storage_cap_equals,
          c.storage_cap_min,
          c.storage_cap_max,
        );
      }
      // These three exist only when their key is set (and truthy), as in constraint_sets.py.
      if (c.energy_cap_per_storage_cap_equals) {
        b.addRow(`energy_capacity_storage_equals[${lt.id}]`, 0, 0, [cap, scap], [
          1,
          -c.energy_cap_per_storage_cap_equals,
        ]);
      } else {
        if (c.energy_cap_per_storage_cap_min) {
          b.addRow(`energy_capacity_storage_min[${lt.id}]`, 0, INF, [cap, scap], [
            1,
            -c.energy_cap_per_storage_cap_min,
          ]);
        }
        // An infinite ratio (Calliope's default, written out) bounds nothing.
        if (c.energy_cap_per_storage_cap_max && Number.isFinite(c.energy_cap_per_storage_cap_max)) {
          b.addRow(`energy_capacity_storage_max[${lt.id}]`, -INF, 0, [cap, scap], [
            1,
            -c.energy_cap_per_storage_cap_max,
          ]);
        }
      }
    }
    if (lt.type === "supply_plus" && lt.sets.finiteResource) {
      const rcap = index.resourceCap.get(lt.id)!;
      capacityRow(
        ctx,
        `resource_capacity[${lt.id}]`,
        rcap,
        c.resource_cap_equals,
        c.resource_cap_min,
        c.resource_cap_max,
      );
      if (c.resource_cap_equals_energy_cap) {
        b.addRow(`resource_capacity_equals_energy_capacity[${lt.id}]`, 0, 0, [rcap, cap], [1, -1]);
      }
    }
    if (lt.sets.area) {
      const area = index.resourceArea.get(lt.id)!;
      if (c.energy_cap_max === 0 && c.resource_area_per_energy_cap === undefined) {
        // No capacity here: no area either, so area costs cannot accrue.
        b.addRow(`resource_area_constraint[${lt.id}]`, 0, 0, [area], [1]);
      } else {
        capacityRow(
          ctx,
          `resource_area_constraint[${lt.id}]`,
          area,
          c.resource_area_equals,
          c.resource_area_min,
          c.resource_area_max,
        );
      }
      if (c.resource_area_per_energy_cap !== undefined) {
        b.addRow(`resource_area_per_energy_capacity[${lt.id}]`, 0, 0, [area, cap], [
          1,
          -c.resource_area_per_energy_cap,
        ]);
      }
    }
    // Units or a purchase bound energy_cap instead (milp.ts).
    if (!capacityByMilp(lt)) {
      capacityRow(
        ctx,
        `energy_capacity[${lt.id}]`,
        cap,
        c.energy_cap_equals,
        c.energy_cap_min,
        c.energy_cap_max,
        c.energy_cap_scale,
      );
    }
  }
  for (const loc of model.locations) {
    if (loc.available_area === undefined) continue;
    const cols: number[] = [];
    for (const lt of model.locTechs) {
      if (lt.location !== loc.id || lt.type === "demand") continue;
      const area = index.resourceArea.get(lt.id);
      if (area !== undefined) cols.push(area);
    }
    if (cols.length === 0) continue;
    b.addRow(
      `resource_area_capacity_per_loc[${loc.id}]`,
      -INF,
      loc.available_area,
      cols,
      cols.map(() => 1),
    );
  }
  addSystemwide(ctx);
}

/**
 * energy_capacity_systemwide: Σ_locations energy_cap ≤ max (= equals); a link's two ends are
 * both summed, so against twice the value.
 */
function addSystemwide(ctx: BuildContext): void {
  const { model, b, index } = ctx;
  const byTech = new Map<string, typeof model.locTechs[number][]>();
  for (const lt of model.locTechs) {
    const list = byTech.get(lt.tech);
    if (list) list.push(lt);
    else byTech.set(lt.tech, [lt]);
  }
  for (const [tech, lts] of byTech) {
    const c = lts[0]!.constraints;
    const max = c.energy_cap_max_systemwide;
    const equals = c.energy_cap_equals_systemwide;
    if (!max && !equals) continue;
    if ((max === undefined || max === INF) && equals === undefined) continue;
    const mult = lts[0]!.type === "transmission" ? 2 : 1;
    const cols = lts.map((lt) => index.energyCap.get(lt.id)!);
    const ones = cols.map(() => 1);
    const name = `energy_capacity_systemwide[${tech}]`;
    if (equals !== undefined) b.addRow(name, equals * mult, equals * mult, cols, ones);
    else b.addRow(name, -INF, max! * mult, cols, ones);
  }
}
