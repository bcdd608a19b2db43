/**
 * Optional language-model extractor: asks an OpenAI-compatible chat completions endpoint
 * (`POST {base}/v1/chat/completions`) for the parameters of one technology in a paper, with a
 * JSON-schema answer format. Used only when an API key is configured (see createExtractors).
 *
 * Its findings are checked against the paper: a value whose quoted text does not occur in the
 * title or abstract is dropped as invented, and its confidence is capped below the patterns'
 * strongest matches, since the model's own score is not calibrated.
 */
import { z } from "zod";
import { message, parseJson } from "./_http.ts";
import { collapseSpace, type Paper, paperText } from "./paper.ts";
import {
  type ExtractedParameter,
  type Extractor,
  type FxTable,
  PARAMETER_NAMES,
  toCatalogueValue,
} from "./parameters.ts";
import { DEFAULT_TIMEOUT_MS } from "./source.ts";

/** Default endpoint base of the language-model API. */
export const DEFAULT_LLM_BASE_URL = "https://api.openai.com";

/** Default model name. */
export const DEFAULT_LLM_MODEL = "gpt-4o-mini";

/** Highest confidence a language-model finding can get. */
export const LLM_MAX_CONFIDENCE = 0.7;

/** Configuration of the language-model extractor. */
export interface LlmConfig {
  apiKey: string;
  /** Base URL without `/v1`; DEFAULT_LLM_BASE_URL when omitted. */
  baseUrl?: string;
  /** DEFAULT_LLM_MODEL when omitted. */
  model?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** USD per unit of currency, for catalogue values of non-USD amounts. */
  fx?: FxTable;
}

/** The answer the model must give; its JSON Schema is sent as the response format. */
export const LlmAnswerSchema = z.strictObject({
  parameters: z.array(z.strictObject({
    parameter: z.enum(PARAMETER_NAMES),
    value: z.number().describe("The number as stated; the midpoint for a range"),
    unit: z.string().describe(
      "One of: <CUR>/kW, <CUR>/MW, <CUR>/kWh, <CUR>/MW/km (capex); <CUR>/kW/yr, <CUR>/kWh/yr " +
        "or %capex/yr (opex_fixed); " +
        "<CUR>/MWh (opex_var); % (efficiency); years (lifetime); gCO2/kWh, kgCO2/MWh or " +
        "tCO2/MWh (co2_factor); <CUR> is an ISO 4217 code",
    ),
    currency: z.string().nullable().describe("ISO 4217 code for money, else null"),
    matched_text: z.string().describe("The exact words of the paper that state the value"),
    confidence: z.number().describe("0 to 1"),
  })),
});

const RESPONSE_FORMAT = {
  type: "json_schema",
  json_schema: {
    name: "extracted_parameters",
    strict: true,
    schema: (({ $schema: _, ...schema }) => schema)(z.toJSONSchema(LlmAnswerSchema)),
  },
};

const ChatCompletionSchema = z.object({
  choices: z.array(z.object({
    message: z.object({
      content: z.string().nullable(),
      refusal: z.string().nullish(),
    }),
    finish_reason: z.string().nullish(),
  })).min(1),
});

const SYSTEM_PROMPT =
  "You extract techno-economic parameters of one energy technology from a paper's title and " +
  "abstract: capex (capital cost per unit of capacity), opex_fixed (fixed O&M), opex_var " +
  "(variable O&M), efficiency, lifetime, co2_factor (operational CO2 emissions per unit of " +
  "output). Report only values stated in the text for the named technology, quote the words " +
  "that state each value in matched_text, and return an empty list when there are none.";

function comparable(text: string): string {
  return collapseSpace(text).toLowerCase();
}

/** Builds the chat completions request body for one paper and technology. */
export function llmRequestBody(model: string, paper: Paper, technology_id: string): unknown {
  return {
    model,
    temperature: 0,
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      {
        role: "user",
        content: `Technology: ${technology_id}\nTitle: ${paper.title}\nAbstract: ${
          paper.abstract ?? "(none)"
        }`,
      },
    ],
    response_format: RESPONSE_FORMAT,
  };
}

/** An extractor that asks the configured language model. */
export function createLlmExtractor(config: LlmConfig): Extractor {
  const base = (config.baseUrl ?? DEFAULT_LLM_BASE_URL).replace(/\/+$/, "");
  const url = `${base}/v1/chat/completions`;
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const model = config.model ?? DEFAULT_LLM_MODEL;
  return {
    name: "llm",
    async extract(paper, technology_id) {
      let status: number;
      let body: string;
      try {
        const response = await doFetch(url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${config.apiKey}`,
            "content-type": "application/json",
          },
          body: JSON.stringify(llmRequestBody(model, paper, technology_id)),
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        body = await response.text();
      } catch (error) {
        throw new Error(`llm: request to ${new URL(url).origin} failed: ${message(error)}`);
      }
      if (status < 200 || status > 299) {
        throw new Error(`llm: HTTP ${status}: ${body.replace(/\s+/g, " ").slice(0, 200)}`);
      }
      const completion = ChatCompletionSchema.safeParse(parseJson(body, "llm"));
      if (!completion.success) {
        throw new TypeError(`llm: not a chat completion: ${z.prettifyError(completion.error)}`);
      }
      const choice = completion.data.choices[0];
      if (choice?.message.refusal) throw new Error(`llm: refused: ${choice.message.refusal}`);
      if (choice?.finish_reason === "length") throw new Error("llm: answer was cut off");
      let content: unknown;
      try {
        content = JSON.parse(choice?.message.content ?? "");
      } catch {
        throw new SyntaxError("llm: answer content is not JSON");
      }
      const answer = LlmAnswerSchema.safeParse(content);
      if (!answer.success) {
        throw new TypeError(`llm: answer breaks the schema: ${z.prettifyError(answer.error)}`);
      }
      const text = comparable(paperText(paper));
      const found: ExtractedParameter[] = [];
      for (const item of answer.data.parameters) {
        const quoted = collapseSpace(item.matched_text);
        // A quote that is not in the paper means the value was not read from it.
        if (quoted === "" || !text.includes(quoted.toLowerCase())) continue;
        if (!Number.isFinite(item.value)) continue;
        const confidence = Math.min(LLM_MAX_CONFIDENCE, Math.max(0.05, item.confidence));
        const unit = item.unit.trim();
        const parameter: ExtractedParameter = {
          parameter: item.parameter,
          value: item.value,
          unit,
          matched_text: quoted,
          confidence: Math.round(confidence * 100) / 100,
        };
        if (item.currency) parameter.currency = item.currency.toUpperCase();
        const catalogue = toCatalogueValue(item.parameter, item.value, unit, config.fx ?? {});
        if (catalogue) {
          parameter.catalogue_field = catalogue.field;
          parameter.catalogue_value = catalogue.value;
        }
        found.push(parameter);
      }
      return found;
    },
  };
}
