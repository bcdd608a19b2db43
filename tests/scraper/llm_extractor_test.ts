import assert from "node:assert/strict";
import { createExtractors } from "../../lib/scraper/extractors.ts";
import { createLlmExtractor, LLM_MAX_CONFIDENCE } from "../../lib/scraper/llm_extractor.ts";
import type { Paper } from "../../lib/scraper/paper.ts";
import { json, startFakeServer } from "./_fake_server.ts";

const PAPER: Paper = {
  source: "openalex",
  source_id: "W4321000001",
  doi: "10.1016/j.ijhydene.2023.01.101",
  title: "Techno-economic assessment of PEM electrolysis for hydrogen production",
  abstract: "For a 10 MW PEM electrolyser system we estimate a capital cost of USD 1,200/kW. " +
    "The stack reaches an efficiency of 65 percent at rated load.",
  url: "https://doi.org/10.1016/j.ijhydene.2023.01.101",
  year: 2023,
};

/** A chat completion in the OpenAI API's response format, carrying `answer` as its content. */
function chatCompletion(answer: unknown, finish_reason = "stop") {
  return {
    id: "chatcmpl-test0001",
    object: "chat.completion",
    created: 1_714_000_000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{
      index: 0,
      message: { role: "assistant", content: JSON.stringify(answer), refusal: null },
      logprobs: null,
      finish_reason,
    }],
    usage: { prompt_tokens: 212, completion_tokens: 61, total_tokens: 273 },
    system_fingerprint: "fp_test",
  };
}

const ANSWER = {
  parameters: [
    {
      parameter: "capex",
      value: 1200,
      unit: "USD/kW",
      currency: "USD",
      matched_text: "capital cost of USD 1,200/kW",
      confidence: 0.95,
    },
    {
      parameter: "efficiency",
      value: 65,
      unit: "%",
      currency: null,
      matched_text: "an efficiency of 65 percent",
      confidence: 0.5,
    },
    {
      parameter: "lifetime",
      value: 30,
      unit: "years",
      currency: null,
      matched_text: "a lifetime of 30 years",
      confidence: 0.9,
    },
  ],
};

Deno.test("createLlmExtractor() asks the chat completions API with a JSON schema", async () => {
  const server = startFakeServer(() => json(chatCompletion(ANSWER)));
  try {
    const extractor = createLlmExtractor({
      apiKey: "test-key",
      baseUrl: server.url,
      model: "gpt-4o-mini",
    });
    const found = await extractor.extract(PAPER, "pem_electrolyzer");
    assert.equal(server.requests[0]?.pathname, "/v1/chat/completions");
    assert.equal(server.headers[0]?.get("authorization"), "Bearer test-key");
    const body = JSON.parse(server.bodies[0] ?? "{}");
    assert.equal(body.model, "gpt-4o-mini");
    assert.equal(body.response_format.type, "json_schema");
    assert.equal(body.response_format.json_schema.strict, true);
    assert.deepEqual(body.response_format.json_schema.schema.required, ["parameters"]);
    assert.match(body.messages[1].content, /Technology: pem_electrolyzer/);
    // The lifetime quote is not in the paper: dropped as invented.
    assert.deepEqual(found.map((f) => f.parameter), ["capex", "efficiency"]);
    assert.deepEqual(found[0], {
      parameter: "capex",
      value: 1200,
      unit: "USD/kW",
      currency: "USD",
      matched_text: "capital cost of USD 1,200/kW",
      confidence: LLM_MAX_CONFIDENCE,
      catalogue_field: "capex_usd_per_kw",
      catalogue_value: 1200,
    });
    assert.equal(found[1]?.confidence, 0.5);
    assert.equal(found[1]?.catalogue_value, 65);
  } finally {
    await server.close();
  }
});

Deno.test("createLlmExtractor() fails on API errors, refusals and cut-off answers", async (t) => {
  const server = startFakeServer((_request, url) => {
    if (url.pathname.startsWith("/unauthorized")) {
      return json({
        error: {
          message: "Incorrect API key provided.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      }, 401);
    }
    if (url.pathname.startsWith("/refusal")) {
      const completion = chatCompletion(ANSWER);
      const message = completion.choices[0]?.message as Record<string, unknown>;
      message.content = null;
      message.refusal = "I can't help with that.";
      return json(completion);
    }
    if (url.pathname.startsWith("/length")) return json(chatCompletion(ANSWER, "length"));
    return json(chatCompletion({ parameters: [{ parameter: "capex" }] }));
  });
  const extract = (path: string) =>
    createLlmExtractor({ apiKey: "k", baseUrl: `${server.url}${path}` }).extract(PAPER, "x");
  try {
    await t.step("401", () => assert.rejects(extract("/unauthorized"), /llm: HTTP 401/));
    await t.step("refusal", () => assert.rejects(extract("/refusal"), /llm: refused/));
    await t.step("cut off", () => assert.rejects(extract("/length"), /cut off/));
    await t.step("schema broken", () => assert.rejects(extract("/bad"), TypeError));
  } finally {
    await server.close();
  }
});

Deno.test("createExtractors() adds the language model only when a key is configured", async () => {
  const server = startFakeServer(() => json(chatCompletion(ANSWER)));
  try {
    const without = createExtractors({ llm: { baseUrl: server.url } });
    const blank = createExtractors({ llm: { apiKey: "  ", baseUrl: server.url } });
    assert.deepEqual(without.map((e) => e.name), ["pattern"]);
    assert.deepEqual(blank.map((e) => e.name), ["pattern"]);
    for (const extractor of [...without, ...blank]) await extractor.extract(PAPER, "x");
    assert.equal(server.requests.length, 0);

    const withKey = createExtractors({ llm: { apiKey: "k", baseUrl: server.url } });
    assert.deepEqual(withKey.map((e) => e.name), ["pattern", "llm"]);
    for (const extractor of withKey) await extractor.extract(PAPER, "pem_electrolyzer");
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});
