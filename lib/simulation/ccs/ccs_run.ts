/**
 * One time-stepped run of the capture chain (research notes section 3.2): per step source →
 * absorber (design rate, solvent capacity) → stripper/reboiler → fans and pumps → compression →
 * injection into the store. Series live in typed arrays; the result document is built once.
 */
import type { SimulationRun, StepTelemetry } from "../simulation_model.ts";
import { capturedCo2Tph, solventFlowFromLiquidToGas, type SolventProperties } from "./absorber.ts";
import { DEFAULT_AUXILIARIES, fanPowerKw, gasVolumeFlowM3s, pumpPowerKw } from "./auxiliaries.ts";
import { co2MassFraction, flueGasMolarMass } from "./co2_properties.ts";
import { compressionDuty } from "./co2_compression.ts";
import { ccsResult } from "./ccs_result.ts";
import { CCS_SERIES, type CcsRunState, type CcsSeriesName } from "./ccs_run_state.ts";
import { injectionTph, reservoirPressureBar, type StorageSite } from "./injection.ts";
import type { CcsPayload } from "./payload.ts";
import {
  desorptionGjT,
  gjPerHourToKw,
  type RegenerationParameters,
  sensibleHeatGjH,
  strippingGjT,
} from "./reboiler.ts";
import { sourceSeries } from "./source.ts";

/** A carbon-capture run; the job manager advances it in slices. */
export class CcsRun implements SimulationRun {
  readonly totalSteps: number;
  #done = 0;
  #stored: number;
  readonly #state: CcsRunState;
  readonly #solvent: SolventProperties;
  readonly #regen: RegenerationParameters;
  readonly #srdGiven: number | null;
  readonly #pumpAux = DEFAULT_AUXILIARIES;

  constructor(payload: CcsPayload) {
    const dtS = payload.simulation.dt_s;
    const tEnd = payload.simulation.t_end_s;
    const steps = Math.ceil(tEnd / dtS);
    this.totalSteps = steps;
    const stepH = new Float64Array(steps);
    for (let k = 0; k < steps; k++) stepH[k] = (Math.min(tEnd, (k + 1) * dtS) - k * dtS) / 3600;
    const series = {} as Record<CcsSeriesName, Float64Array>;
    for (const name of CCS_SERIES) series[name] = new Float64Array(steps);
    const src = sourceSeries(payload.source, steps, dtS);
    series.source_co2_tph.set(src.co2Tph);
    series.source_co2_pct.set(src.co2Pct);
    const a = payload.absorber;
    this.#solvent = {
      amineKmolM3: a.amine_concentration_kmol_m3,
      deltaAlpha: a.cyclic_loading_mol_mol,
      densityKgM3: a.solvent_density_kg_m3,
    };
    const st = payload.stripper;
    this.#regen = {
      heatOfAbsorptionKjMol: st.heat_of_absorption_kj_mol,
      solventCpKjKgK: st.solvent_cp_kj_kg_k,
      approachK: st.approach_temperature_k,
      strippingSteamRatio: st.stripping_steam_ratio,
    };
    this.#srdGiven = st.regeneration_energy_gj_tco2;
    const c = payload.compressor;
    const compression = compressionDuty({
      inletPressureBar: c.inlet_pressure_bar,
      targetPressureBar: c.target_pressure_bar,
      stages: c.num_stages,
      isentropicEfficiency: c.isentropic_efficiency_frac,
      intercoolingTempC: c.intercooling_temp_c,
      intercoolerEffectiveness: c.intercooler_efficiency_pct / 100,
      pumpAbovePressureBar: 80,
      densePhaseDensityKgM3: 800,
      pumpEfficiency: c.pump_efficiency_frac,
    });
    const s = payload.storage;
    const site: StorageSite = {
      capacityT: s.capacity_tonnes,
      maxInjectionTph: s.injection_rate_tph,
      storageEfficiency: s.storage_efficiency_pct / 100,
      minPressureBar: s.min_pressure_bar,
      maxPressureBar: s.max_pressure_bar,
    };
    this.#stored = s.capacity_tonnes * s.initial_fill_pct / 100;
    this.#state = {
      payload,
      steps,
      dtS,
      stepH,
      series,
      compression,
      site,
      initialStoredT: this.#stored,
    };
  }

  get stepsDone(): number {
    return this.#done;
  }

  get t_s(): number {
    return Math.min(this.#state.payload.simulation.t_end_s, this.#done * this.#state.dtS);
  }

  advance(maxSteps: number): number {
    const { payload, series: S, stepH, compression, site } = this.#state;
    const a = payload.absorber;
    const designFrac = a.capture_efficiency_pct / 100;
    const etaThermal = payload.stripper.thermal_efficiency_pct / 100;
    const desorbStrip = desorptionGjT(this.#regen) + strippingGjT(this.#regen);
    const end = Math.min(this.totalSteps, this.#done + Math.max(0, Math.floor(maxSteps)));
    const start = this.#done;
    for (let k = start; k < end; k++) {
      const co2In = S.source_co2_tph[k]!;
      const x = S.source_co2_pct[k]!;
      // flue gas that carries this CO2 (mass balance on the CO2 mass fraction)
      const gasTph = co2In > 0 ? co2In / co2MassFraction(x) : 0;
      S.flue_gas_flow_kg_s[k] = gasTph / 3.6;
      const solventM3h = co2In <= 0 ? 0 : a.solvent_flow_rate_m3h ??
        solventFlowFromLiquidToGas(a.l_g_ratio ?? 0, gasTph, this.#solvent);
      const captured = capturedCo2Tph(co2In, designFrac, solventM3h, this.#solvent);
      S.absorber_co2_captured_tph[k] = captured;
      S.absorber_capture_efficiency_pct[k] = co2In > 0 ? 100 * captured / co2In : 0;
      S.absorber_solvent_flow_m3h[k] = solventM3h;
      const gasKmolS = gasTph / 3.6 / flueGasMolarMass(x);
      const fan = fanPowerKw(
        gasVolumeFlowM3s(gasKmolS, a.operating_temperature_c, a.operating_pressure_bar),
        this.#pumpAux,
      );
      const pump = pumpPowerKw(solventM3h, this.#pumpAux);
      S.absorber_fan_power_kw[k] = fan;
      S.absorber_pump_power_kw[k] = pump;
      S.absorber_power_kw[k] = fan + pump;
      // steady state: the stripper releases what the absorber took up
      S.stripper_co2_released_tph[k] = captured;
      const dutyGjH = this.#srdGiven != null
        ? captured * this.#srdGiven
        : captured > 0
        ? captured * desorbStrip +
          sensibleHeatGjH(solventM3h * this.#solvent.densityKgM3 / 1000, this.#regen)
        : 0;
      S.stripper_heat_demand_kw[k] = gjPerHourToKw(dutyGjH) / etaThermal;
      const running = captured > 0;
      S.compressor_power_kw[k] = captured * compression.totalKwhT;
      S.compressor_outlet_pressure_bar[k] = running
        ? payload.compressor.target_pressure_bar
        : payload.compressor.inlet_pressure_bar;
      S.compressor_temperature_c[k] = running
        ? compression.dischargeTempC
        : payload.compressor.intercooling_temp_c;
      const dtH = stepH[k]!;
      const inj = injectionTph(captured, this.#stored, dtH, site);
      S.storage_injection_rate_tph[k] = inj;
      S.storage_vented_tph[k] = captured - inj;
      this.#stored = Math.min(site.capacityT, this.#stored + inj * dtH);
      S.storage_co2_mass_tonnes[k] = this.#stored;
      S.storage_pressure_bar[k] = reservoirPressureBar(this.#stored, site);
      S.storage_fill_pct[k] = 100 * this.#stored / site.capacityT;
    }
    this.#done = end;
    return end - start;
  }

  telemetry(): StepTelemetry {
    const k = this.#done - 1;
    if (k < 0) return {};
    const S = this.#state.series;
    return {
      source_co2_tph: S.source_co2_tph[k]!,
      absorber_co2_captured_tph: S.absorber_co2_captured_tph[k]!,
      capture_rate_pct: S.absorber_capture_efficiency_pct[k]!,
      absorber_power_kw: S.absorber_power_kw[k]!,
      stripper_heat_demand_kw: S.stripper_heat_demand_kw[k]!,
      compressor_power_kw: S.compressor_power_kw[k]!,
      storage_injection_rate_tph: S.storage_injection_rate_tph[k]!,
      storage_co2_mass_tonnes: S.storage_co2_mass_tonnes[k]!,
      storage_pressure_bar: S.storage_pressure_bar[k]!,
      storage_fill_pct: S.storage_fill_pct[k]!,
    };
  }

  result(): Record<string, unknown> {
    if (this.#done < this.totalSteps) {
      throw new RangeError(
        `the run is not complete: ${this.#done} of ${this.totalSteps} steps done`,
      );
    }
    return ccsResult(this.#state);
  }
}
