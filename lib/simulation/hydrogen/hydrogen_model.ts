/**
 * The hydrogen plant as a time-stepped simulation (research notes 3.1): a source profile feeds an
 * electrolyser and its compressor from one bus, the compressor fills a real-gas tank to its actual
 * pressure, and a fuel cell draws from the tank. Each step closes the energy balance
 * (source = electrolyser + compressor + curtailed) and the mass balance
 * (Δtank = produced · fill efficiency − consumed) without clipping: the electrolyser is held back
 * by the room left in the tank and the fuel cell by the mass above the minimum pressure.
 */
import type { SimulationModel, SimulationRun, StepTelemetry } from "../simulation_model.ts";
import { H2_LHV_KWH_PER_KG, H2_NORMAL_DENSITY_KG_PER_NM3, KELVIN_OFFSET } from "./constants.ts";
import { CompressionWorkTable, stageCount } from "./compression.ts";
import { Electrolyser, type ElectrolyserPoint } from "./electrolyser.ts";
import { FuelCell, type FuelCellPoint } from "./fuel_cell.ts";
import {
  hydrogenLimits,
  type HydrogenPayload,
  hydrogenPayloadSchema,
  stepCount,
} from "./payload.ts";
import { zeroOrderHold } from "../zero_order_hold.ts";
import { DEFAULT_TANK_HOURS, HydrogenTank, type TankSize } from "./tank.ts";

/** State of charge above which the fuel cell runs (the client's dispatch rule, notes 3.1 step 7). */
export const FC_DISPATCH_SOC = 0.2;

/** Series recorded per step, one typed array each. */
const SERIES = [
  "source_kw",
  "curtailed_kw",
  "elz_kw",
  "elz_kg_h",
  "elz_eff_pct",
  "cell_v",
  "elz_j",
  "comp_kw",
  "comp_out_bar",
  "tank_bar",
  "tank_soc_pct",
  "tank_kg",
  "fc_kw",
  "fc_kg_h",
  "fc_v",
  "fc_j",
  "fc_eff_pct",
] as const;
type SeriesName = typeof SERIES[number];

/** A typed series as a plain array (JSON writes typed arrays as objects), times `factor`. */
function scaled(a: Float64Array, factor: number): number[] {
  const out = new Array<number>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! * factor;
  return out;
}
const toList = (a: Float64Array): number[] => scaled(a, 1);

/** A run of the hydrogen plant. */
export class HydrogenRun implements SimulationRun {
  readonly totalSteps: number;
  readonly payload: HydrogenPayload;
  readonly electrolyser: Electrolyser;
  readonly fuelCell: FuelCell;
  readonly tank: HydrogenTank;
  readonly #series: Record<SeriesName, Float64Array>;
  readonly #source: Float64Array;
  readonly #dtS: number;
  readonly #tEndS: number;
  readonly #fill: number;
  /** Compression work (kWh/kg at the shaft over the motor) by outlet pressure, tabulated. */
  readonly #work: CompressionWorkTable;
  #steps = 0;
  #mass: number;
  #pressure: number;
  readonly initialMassKg: number;
  /** Running totals (kg and kWh) for the balances and KPIs. */
  readonly totals = {
    producedKg: 0,
    fillLossKg: 0,
    consumedKg: 0,
    sourceKwh: 0,
    elzKwh: 0,
    stackKwh: 0,
    compKwh: 0,
    curtailedKwh: 0,
    fcKwh: 0,
  };

  constructor(payload: HydrogenPayload) {
    this.payload = payload;
    const { simulation, source, electrolyzer: e, compressor: c, storage: s, fuel_cell: f } =
      payload;
    this.totalSteps = stepCount(payload);
    this.#dtS = simulation.dt_s;
    this.#tEndS = simulation.t_end_s;
    this.#fill = s.round_trip_efficiency_pct / 100;
    this.electrolyser = new Electrolyser({
      tech: e.tech_type,
      capacityKw: e.capacity_kw,
      nominalEfficiencyHhv: e.nominal_efficiency_pct_hhv / 100,
      temperatureC: e.operating_temperature_c,
      cathodePressureBar: c.inlet_pressure_bar,
      rectifierEfficiency: e.power_electronics_efficiency_pct / 100,
      bopShare: e.bop_load_pct / 100,
      maxLoadShare: e.max_load_pct / 100,
      hhvKwhPerKg: e.h2_hhv_kwh_per_kg,
    });
    this.fuelCell = new FuelCell(f.rated_power_kw, f.nominal_efficiency_pct / 100);
    const ratedKgH = (e.capacity_kw * e.nominal_efficiency_pct_hhv / 100) / e.h2_hhv_kwh_per_kg;
    const size: TankSize = s.volume_m3 !== undefined
      ? { volumeM3: s.volume_m3 }
      : s.capacity_kg !== undefined
      ? { capacityKg: s.capacity_kg }
      : { hours: DEFAULT_TANK_HOURS, productionKgPerH: ratedKgH };
    this.tank = new HydrogenTank(size, s.min_pressure_bar, s.max_pressure_bar);
    this.#mass = this.tank.massAtSoc(s.initial_soc_pct / 100);
    this.initialMassKg = this.#mass;
    this.#pressure = this.tank.pressureBar(this.#mass);
    // The work depends on the outlet pressure alone; a table from the inlet to the tank's
    // maximum saves the real-gas stage sums per step (interpolated within one stage count).
    this.#work = new CompressionWorkTable({
      inletBar: c.inlet_pressure_bar,
      maxOutletBar: Math.max(s.max_pressure_bar, c.inlet_pressure_bar) * 1.01,
      inletTemperatureK: c.inlet_temperature_c + KELVIN_OFFSET,
      isentropicEfficiency: c.isentropic_efficiency_frac,
      scale: 1 / c.motor_efficiency_frac,
    });
    this.#source = zeroOrderHold(
      source.profile.map((p) => p.time_s),
      source.profile.map((p) => p.power_kw),
      this.totalSteps,
      this.#dtS,
      source.capacity_kw,
    );
    const series = {} as Record<SeriesName, Float64Array>;
    for (const name of SERIES) series[name] = new Float64Array(this.totalSteps);
    this.#series = series;
  }

  get stepsDone(): number {
    return this.#steps;
  }

  get t_s(): number {
    return Math.min(this.#steps * this.#dtS, this.#tEndS);
  }

  /** Tank mass now, kg. */
  get massKg(): number {
    return this.#mass;
  }

  advance(maxSteps: number): number {
    const end = Math.min(this.totalSteps, this.#steps + Math.max(0, Math.floor(maxSteps)));
    const done = end - this.#steps;
    for (let k = this.#steps; k < end; k++) this.#step(k);
    this.#steps = end;
    return done;
  }

  #step(k: number): void {
    const { electrolyzer: e, compressor: c, fuel_cell: f } = this.payload;
    const elz = this.electrolyser;
    const tank = this.tank;
    const dtH = Math.min(this.#dtS, this.#tEndS - k * this.#dtS) / 3600;
    const pSrc = Math.max(0, this.#source[k]!);
    const mass = this.#mass;

    // Fuel cell: the client's dispatch rule, held back by the mass above the minimum pressure.
    let fc: FuelCellPoint = FuelCell.off();
    const soc = tank.soc(mass);
    const fcMinKw = (f.min_load_pct / 100) * this.fuelCell.ratedKw;
    if (soc > FC_DISPATCH_SOC && this.fuelCell.ratedKw > 0) {
      const wanted = this.fuelCell.ratedKw * Math.min(2 * soc, 1);
      if (wanted >= fcMinKw) {
        fc = this.fuelCell.atPower(wanted);
        const availableKgH = Math.max(0, mass - tank.minMassKg) / dtH;
        if (fc.h2KgPerH > availableKgH) fc = this.fuelCell.atH2Rate(availableKgH);
        if (fc.powerKw < fcMinKw || fc.h2KgPerH > availableKgH) fc = FuelCell.off();
      }
    }

    // Electrolyser and compressor on one bus, held back by the room left in the tank.
    let pt: ElectrolyserPoint = elz.off();
    let h2 = 0;
    let compKw = 0;
    const outletBar = Math.max(this.#pressure, c.inlet_pressure_bar);
    const minKw = (e.min_load_pct / 100) * e.capacity_kw;
    const available = Math.min(pSrc, (e.max_load_pct / 100) * e.capacity_kw);
    const roomKgH = Math.max(0, tank.maxMassKg - mass + fc.h2KgPerH * dtH) / (this.#fill * dtH);
    if (available > 0 && available >= minKw && roomKgH > 0) {
      const kwhPerKg = this.#work.at(outletBar);
      // P_av = P_elz + ṁ(P_elz)·w: a contraction (ṁ·w is a few % of P), then one correction
      // that keeps the sum at or below P_av since its slope is at least 1.
      let x = available;
      for (let i = 0; i < 4; i++) x = available - elz.h2RateAt(x) * kwhPerKg;
      const excess = x + elz.h2RateAt(x) * kwhPerKg - available;
      if (excess > 0) x -= excess;
      pt = elz.atPower(Math.max(0, x));
      if (pt.h2KgPerH > roomKgH) pt = elz.atH2Rate(roomKgH);
      h2 = Math.min(pt.h2KgPerH, roomKgH);
      if (!(h2 > 0) || pt.powerKw < minKw) {
        pt = elz.off();
        h2 = 0;
      }
      compKw = h2 * kwhPerKg;
      if (pt.powerKw + compKw > pSrc) compKw = Math.max(0, pSrc - pt.powerKw);
    }
    const curtailed = Math.max(0, pSrc - pt.powerKw - compKw);

    // Tank: the mass balance of the step, then pressure from mass.
    const next = Math.max(0, mass + (h2 * this.#fill - fc.h2KgPerH) * dtH);
    this.#mass = next;
    this.#pressure = tank.pressureBar(next, this.#pressure);

    const t = this.totals;
    t.producedKg += h2 * dtH;
    t.fillLossKg += h2 * (1 - this.#fill) * dtH;
    t.consumedKg += fc.h2KgPerH * dtH;
    t.sourceKwh += pSrc * dtH;
    t.elzKwh += pt.powerKw * dtH;
    t.stackKwh += pt.stackPowerKw * dtH;
    t.compKwh += compKw * dtH;
    t.curtailedKwh += curtailed * dtH;
    t.fcKwh += fc.powerKw * dtH;

    const s = this.#series;
    s.source_kw[k] = pSrc;
    s.curtailed_kw[k] = curtailed;
    s.elz_kw[k] = pt.powerKw;
    s.elz_kg_h[k] = h2;
    s.elz_eff_pct[k] = pt.powerKw > 0 ? (100 * h2 * e.h2_hhv_kwh_per_kg) / pt.powerKw : 0;
    s.cell_v[k] = pt.cellVoltageV;
    s.elz_j[k] = pt.currentDensityAcm2;
    s.comp_kw[k] = compKw;
    s.comp_out_bar[k] = outletBar;
    s.tank_bar[k] = this.#pressure;
    s.tank_soc_pct[k] = 100 * Math.min(1, Math.max(0, tank.soc(next)));
    s.tank_kg[k] = next;
    s.fc_kw[k] = fc.powerKw;
    s.fc_kg_h[k] = fc.h2KgPerH;
    s.fc_v[k] = fc.terminalVoltageV;
    s.fc_j[k] = fc.currentDensityAcm2;
    s.fc_eff_pct[k] = 100 * fc.efficiencyLhv;
  }

  telemetry(): StepTelemetry {
    const k = this.#steps - 1;
    if (k < 0) return {};
    const s = this.#series;
    return {
      source_power_kw: s.source_kw[k]!,
      electrolyzer_power_kw: s.elz_kw[k]!,
      h2_production_kg_h: s.elz_kg_h[k]!,
      h2_production_nm3h: s.elz_kg_h[k]! / H2_NORMAL_DENSITY_KG_PER_NM3,
      compressor_power_kw: s.comp_kw[k]!,
      tank_pressure_bar: s.tank_bar[k]!,
      tank_soc_pct: s.tank_soc_pct[k]!,
      h2_mass_kg: s.tank_kg[k]!,
      fc_power_output_kw: s.fc_kw[k]!,
      h2_consumption_nm3h: s.fc_kg_h[k]! / H2_NORMAL_DENSITY_KG_PER_NM3,
    };
  }

  result(): Record<string, unknown> {
    if (this.#steps < this.totalSteps) {
      throw new RangeError(
        `the run is at step ${this.#steps} of ${this.totalSteps}; its result is not ready`,
      );
    }
    const p = this.payload;
    const s = this.#series;
    const n = this.totalSteps;
    const nm3 = 1 / H2_NORMAL_DENSITY_KG_PER_NM3;
    const time = new Array<number>(n);
    for (let k = 0; k < n; k++) time[k] = k * this.#dtS;
    const source = toList(s.source_kw);
    const curtailed = toList(s.curtailed_kw);
    const elzKw = toList(s.elz_kw);
    const elzKgH = toList(s.elz_kg_h);
    const elzNm3h = scaled(s.elz_kg_h, nm3);
    const elzEff = toList(s.elz_eff_pct);
    const compKw = toList(s.comp_kw);
    const compOut = toList(s.comp_out_bar);
    const tankBar = toList(s.tank_bar);
    const soc = toList(s.tank_soc_pct);
    const mass = toList(s.tank_kg);
    const fcKw = toList(s.fc_kw);
    const fcNm3h = scaled(s.fc_kg_h, nm3);
    const fcV = toList(s.fc_v);
    const fcJ = toList(s.fc_j);
    const fcEff = toList(s.fc_eff_pct);
    return {
      schema_version: "2.0",
      model: "hydrogen",
      time_s: time,
      dt_s: this.#dtS,
      source: {
        power_output_kw: source,
        curtailed_power_kw: curtailed,
        capacity_kw: p.source.capacity_kw,
      },
      electrolyzer: {
        power_in_kw: elzKw,
        h2_production_nm3h: elzNm3h,
        h2_production_kg_h: elzKgH,
        efficiency_pct: elzEff,
        stack_temperature_c: new Array<number>(n).fill(p.electrolyzer.operating_temperature_c),
        cell_voltage_v: toList(s.cell_v),
        current_density_acm2: toList(s.elz_j),
        capacity_kw: p.electrolyzer.capacity_kw,
      },
      compressor: {
        power_consumed_kw: compKw,
        outlet_pressure_bar: compOut,
        stages_at_max_pressure: stageCount(
          p.compressor.inlet_pressure_bar,
          p.storage.max_pressure_bar,
        ),
      },
      storage: {
        pressure_bar: tankBar,
        soc_pct: soc,
        h2_mass_kg: mass,
        volume_m3: this.tank.volumeM3,
        min_mass_kg: this.tank.minMassKg,
        max_mass_kg: this.tank.maxMassKg,
      },
      fuel_cell: {
        power_output_kw: fcKw,
        h2_consumed_nm3h: fcNm3h,
        h2_consumed_kg_h: toList(s.fc_kg_h),
        terminal_voltage_v: fcV,
        current_density_acm2: fcJ,
        efficiency_pct: fcEff,
        rated_power_kw: this.fuelCell.ratedKw,
      },
      source_power_kw: source,
      curtailed_power_kw: curtailed,
      electrolyzer_power_kw: elzKw,
      h2_production_nm3h: elzNm3h,
      h2_production_kg_h: elzKgH,
      elz_efficiency_pct: elzEff,
      compressor_power_kw: compKw,
      compressor_outlet_pressure_bar: compOut,
      tank_pressure_bar: tankBar,
      tank_soc_pct: soc,
      h2_mass_kg: mass,
      fc_power_output_kw: fcKw,
      h2_consumption_nm3h: fcNm3h,
      fc_terminal_voltage_v: fcV,
      fc_current_density_acm2: fcJ,
      fc_efficiency_pct: fcEff,
      kpi: this.#kpi(),
      balance: this.balance(),
    };
  }

  /** Mass (kg) and energy (kWh) balances of the run so far; residuals are float noise. */
  balance(): {
    mass: Record<string, number>;
    energy: Record<string, number>;
  } {
    const t = this.totals;
    return {
      mass: {
        initial_kg: this.initialMassKg,
        final_kg: this.#mass,
        produced_kg: t.producedKg,
        fill_loss_kg: t.fillLossKg,
        consumed_kg: t.consumedKg,
        residual_kg: this.#mass - this.initialMassKg -
          (t.producedKg - t.fillLossKg - t.consumedKg),
      },
      energy: {
        source_kwh: t.sourceKwh,
        electrolyzer_kwh: t.elzKwh,
        compressor_kwh: t.compKwh,
        curtailed_kwh: t.curtailedKwh,
        residual_kwh: t.sourceKwh - t.elzKwh - t.compKwh - t.curtailedKwh,
      },
    };
  }

  #kpi(): Record<string, number> {
    const t = this.totals;
    const s = this.#series;
    const p = this.payload;
    const hours = this.#tEndS / 3600;
    const max = (a: Float64Array) => a.reduce((m, x) => (x > m ? x : m), 0);
    const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
    const consumed = t.elzKwh + t.compKwh;
    const netKg = t.producedKg - t.fillLossKg - t.consumedKg;
    const systemEff = 100 * ratio(netKg * H2_LHV_KWH_PER_KG + t.fcKwh, consumed);
    const nm3 = 1 / H2_NORMAL_DENSITY_KG_PER_NM3;
    return {
      total_h2_produced_kg: t.producedKg,
      total_h2_consumed_kg: t.consumedKg,
      total_h2_produced_nm3: t.producedKg * nm3,
      total_h2_consumed_nm3: t.consumedKg * nm3,
      total_fill_loss_kg: t.fillLossKg,
      total_source_energy_kwh: t.sourceKwh,
      total_elz_energy_kwh: t.elzKwh,
      total_stack_energy_kwh: t.stackKwh,
      total_compressor_energy_kwh: t.compKwh,
      total_energy_consumed_kwh: consumed,
      total_curtailed_energy_kwh: t.curtailedKwh,
      total_fc_energy_kwh: t.fcKwh,
      specific_energy_kwh_kg: ratio(consumed, t.producedKg),
      specific_energy_elz_kwh_kg: ratio(t.elzKwh, t.producedKg),
      specific_energy_stack_kwh_kg: ratio(t.stackKwh, t.producedKg),
      overall_system_efficiency_pct: systemEff,
      system_efficiency_pct: systemEff,
      peak_h2_production_kg_h: max(s.elz_kg_h),
      avg_h2_production_kg_h: ratio(t.producedKg, hours),
      avg_h2_production_nm3h: ratio(t.producedKg, hours) * nm3,
      avg_electrolyzer_load_pct: 100 * ratio(t.elzKwh / hours, p.electrolyzer.capacity_kw),
      capacity_factor_pct: 100 * ratio(t.sourceKwh / hours, p.source.capacity_kw),
      fuel_cell_capacity_factor_pct: 100 * ratio(t.fcKwh / hours, this.fuelCell.ratedKw),
      avg_source_power_kw: t.sourceKwh / hours,
      peak_source_power_kw: max(s.source_kw),
      avg_elz_power_kw: t.elzKwh / hours,
      peak_elz_power_kw: max(s.elz_kw),
      avg_compressor_power_kw: t.compKwh / hours,
      avg_fc_power_kw: t.fcKwh / hours,
      peak_fc_power_kw: max(s.fc_kw),
      peak_tank_pressure_bar: Math.max(max(s.tank_bar), this.tank.pressureBar(this.initialMassKg)),
      final_tank_soc_pct: 100 * this.tank.soc(this.#mass),
      tank_volume_m3: this.tank.volumeM3,
      tank_usable_capacity_kg: this.tank.usableKg,
    };
  }
}

/**
 * Series per step in a hydrogen result (what it weighs, with the steps): `time_s`, source 2,
 * electrolyzer 7, compressor 2, storage 3, fuel cell 6, and the 16 flat keys the charts read.
 */
export const HYDROGEN_RESULT_SERIES = 37;

/** The hydrogen plant model: the client's schema-2.0 payload, the physics of notes 2 and 3.1. */
export const hydrogenModel: SimulationModel<HydrogenPayload> = {
  name: "hydrogen",
  title: "Hydrogen plant: electrolyser, compressor, real-gas tank and fuel cell",
  payloadSchema: hydrogenPayloadSchema,
  limits: hydrogenLimits,
  steps: stepCount,
  resultSeries: HYDROGEN_RESULT_SERIES,
  start: (payload) => new HydrogenRun(payload),
};
