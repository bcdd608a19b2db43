import assert from "node:assert/strict";
import { searchArxiv } from "../../lib/scraper/arxiv.ts";
import { decodeEntities, jatsToText, searchCrossref } from "../../lib/scraper/crossref.ts";
import { abstractFromInvertedIndex, searchOpenAlex } from "../../lib/scraper/openalex.ts";
import { createSourceClients } from "../../lib/scraper/source_clients.ts";
import { fixture, json, startFakeServer } from "./_fake_server.ts";

Deno.test("searchOpenAlex() reads the works list and rebuilds abstracts", async () => {
  const body = await fixture("openalex_works.json");
  const server = startFakeServer(() => new Response(body));
  try {
    const papers = await searchOpenAlex("PEM electrolyzer cost", {
      limit: 5,
      baseUrl: server.url,
      mailto: "admin@example.org",
      apiKey: "oa-test-key",
    });
    const url = server.requests[0] as URL;
    assert.equal(url.pathname, "/works");
    assert.equal(url.searchParams.get("search"), "PEM electrolyzer cost");
    assert.equal(url.searchParams.get("per-page"), "5");
    assert.equal(url.searchParams.get("mailto"), "admin@example.org");
    assert.equal(url.searchParams.get("api_key"), "oa-test-key");
    assert.equal(papers.length, 3);
    const [first, , third] = papers;
    assert.deepEqual(
      { ...first, abstract: undefined },
      {
        source: "openalex",
        source_id: "W4321000001",
        doi: "10.1016/j.ijhydene.2023.01.101",
        title: "Techno-economic assessment of PEM electrolysis for hydrogen production",
        abstract: undefined,
        url: "https://doi.org/10.1016/j.ijhydene.2023.01.101",
        year: 2023,
        authors: ["Anna Weber", "Luis García", "Mei Chen"],
      },
    );
    assert.match(first?.abstract ?? "", /^Proton exchange membrane electrolysis is a candidate/);
    assert.match(first?.abstract ?? "", /capital cost of USD 1,200\/kW in 2023,/);
    assert.equal(third?.abstract, undefined);
    assert.equal(third?.doi, undefined);
    assert.equal(third?.url, "https://openalex.org/W4321000003");
  } finally {
    await server.close();
  }
});

Deno.test("abstractFromInvertedIndex() places repeated words at each position", () => {
  const index = { "the": [0, 3], "cost": [1], "of": [2], "stack": [4] };
  assert.equal(abstractFromInvertedIndex(index), "the cost of the stack");
});

Deno.test("searchCrossref() reads the work list and strips JATS from abstracts", async () => {
  const body = await fixture("crossref_works.json");
  const server = startFakeServer(() => new Response(body));
  try {
    const papers = await searchCrossref("alkaline electrolyzer cost", {
      limit: 2,
      baseUrl: `${server.url}/`,
      apiKey: "plus-token",
    });
    assert.equal(server.headers[0]?.get("crossref-plus-api-token"), "Bearer plus-token");
    const url = server.requests[0] as URL;
    assert.equal(url.pathname, "/works");
    assert.equal(url.searchParams.get("query"), "alkaline electrolyzer cost");
    assert.equal(url.searchParams.get("rows"), "2");
    assert.equal(papers.length, 2);
    const [first, second] = papers;
    assert.equal(first?.source, "crossref");
    assert.equal(first?.doi, "10.1016/j.ijhydene.2023.01.101");
    assert.equal(first?.source_id, "10.1016/j.ijhydene.2023.01.101");
    assert.equal(first?.year, 2023);
    assert.deepEqual(first?.authors, ["Anna Weber", "Luis García", "Mei Chen"]);
    assert.ok(first?.abstract?.startsWith("Proton exchange membrane electrolysis"));
    assert.equal(second?.url, "https://doi.org/10.1016/j.apenergy.2022.119876");
    assert.deepEqual(second?.authors, ["Jonas Lindqvist", "Hydrogen Europe Research"]);
    assert.match(second?.abstract ?? "", /efficiency of 70 % \(LHV\) and installed costs of €850/);
  } finally {
    await server.close();
  }
});

Deno.test("jatsToText() drops tags, the Abstract heading and decodes entities", () => {
  assert.equal(
    jatsToText(
      "<jats:title>Abstract</jats:title><jats:p>Costs &lt; 500&#x2009;&#8364;/kW &amp; more</jats:p>",
    ),
    "Costs < 500 €/kW & more",
  );
});

Deno.test("searchArxiv() reads the Atom feed", async () => {
  const body = await fixture("arxiv_query.xml");
  const server = startFakeServer(() =>
    new Response(body, { headers: { "content-type": "application/atom+xml" } })
  );
  try {
    const papers = await searchArxiv("PEM electrolyzer cost", { limit: 10, baseUrl: server.url });
    const url = server.requests[0] as URL;
    assert.equal(url.pathname, "/api/query");
    assert.equal(url.searchParams.get("search_query"), "all:PEM AND all:electrolyzer AND all:cost");
    assert.equal(url.searchParams.get("max_results"), "10");
    assert.equal(papers.length, 2);
    const [first, second] = papers;
    assert.deepEqual(first, {
      source: "arxiv",
      source_id: "2301.01234",
      title: "Degradation-aware sizing of PEM electrolyzers coupled to offshore wind",
      abstract:
        "We size PEM electrolyzers coupled to offshore wind farms under stack degradation. " +
        "With a system cost of 1.1 million EUR/MW and an electrolyzer efficiency of 62 %, the " +
        "levelized cost of hydrogen falls below 4 EUR/kg.",
      url: "http://arxiv.org/abs/2301.01234v2",
      year: 2023,
      authors: ["Sofia Rossi", "Henrik Berg"],
    });
    assert.equal(second?.doi, "10.1109/tpwrs.2023.3270001");
  } finally {
    await server.close();
  }
});

Deno.test("searchArxiv() reports arXiv's error entry as an error", async () => {
  const body = await fixture("arxiv_error.xml");
  const server = startFakeServer(() => new Response(body));
  try {
    await assert.rejects(
      searchArxiv("x", { limit: 1, baseUrl: server.url }),
      /arxiv: query rejected: incorrect id format for 1234/,
    );
  } finally {
    await server.close();
  }
});

Deno.test("source clients fail clearly on HTTP errors, bad payloads and timeouts", async (t) => {
  const server = startFakeServer((_request, url) => {
    if (url.pathname.startsWith("/status500")) {
      return new Response("upstream down", { status: 500 });
    }
    if (url.pathname.startsWith("/html")) return new Response("<html>maintenance</html>");
    if (url.pathname.startsWith("/wrong")) return json({ results: "none" });
    if (url.pathname.startsWith("/items")) return json({ meta: { count: 1 }, results: [{ x: 1 }] });
    return server.hang();
  });
  try {
    await t.step("HTTP 500", async () => {
      await assert.rejects(
        searchOpenAlex("q", { limit: 1, baseUrl: `${server.url}/status500` }),
        /openalex: HTTP 500 from http:\/\/127\.0\.0\.1:\d+: upstream down/,
      );
    });
    await t.step("not JSON", async () => {
      await assert.rejects(
        searchCrossref("q", { limit: 1, baseUrl: `${server.url}/html` }),
        SyntaxError,
      );
    });
    await t.step("not a feed", async () => {
      await assert.rejects(searchArxiv("q", { limit: 1, baseUrl: `${server.url}/html` }), {
        name: "SyntaxError",
        message: /arxiv: answer is not an Atom feed/,
      });
    });
    await t.step("JSON of the wrong shape", async () => {
      await assert.rejects(
        searchOpenAlex("q", { limit: 1, baseUrl: `${server.url}/wrong` }),
        TypeError,
      );
    });
    await t.step("records of the wrong shape", async () => {
      await assert.rejects(
        searchOpenAlex("q", { limit: 1, baseUrl: `${server.url}/items` }),
        /none of the 1 records has the expected shape/,
      );
    });
    await t.step("timeout", async () => {
      await assert.rejects(
        searchCrossref("q", { limit: 1, baseUrl: `${server.url}/slow`, timeoutMs: 100 }),
        /crossref: no answer from http:\/\/127\.0\.0\.1:\d+ within 100 ms/,
      );
    });
  } finally {
    await server.close();
  }
});

Deno.test("createSourceClients() binds base URLs, fetch and limit", async () => {
  const openalex = await fixture("openalex_works.json");
  const server = startFakeServer(() => new Response(openalex));
  const seen: string[] = [];
  const counting: typeof fetch = (input, init) => {
    seen.push(String(input));
    return fetch(input, init);
  };
  try {
    const clients = createSourceClients({ baseUrls: { openalex: server.url }, fetch: counting });
    const papers = await clients.openalex.search("battery", 1);
    assert.equal(papers.length, 1);
    assert.equal(seen.length, 1);
    assert.ok(seen[0]?.startsWith(`${server.url}/works?`));
    assert.equal(clients.crossref.name, "crossref");
  } finally {
    await server.close();
  }
});

Deno.test("createSourceClients() spaces arXiv requests by default", async () => {
  const body = await fixture("arxiv_query.xml");
  const server = startFakeServer(() => new Response(body));
  try {
    const clients = createSourceClients({
      baseUrls: { arxiv: server.url },
      requestIntervalMs: { arxiv: 100 },
    });
    const started = Date.now();
    await Promise.all([clients.arxiv.search("a", 1), clients.arxiv.search("b", 1)]);
    assert.ok(Date.now() - started >= 98);
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("decodeEntities() decodes known entities only, not Object.prototype members", () => {
  assert.equal(decodeEntities("a &amp; b &lt;c&gt; &#8364; &#x20AC;"), "a & b <c> € €");
  assert.equal(
    decodeEntities("&constructor; &toString; &valueof; &proto;"),
    "&constructor; &toString; &valueof; &proto;",
  );
});
