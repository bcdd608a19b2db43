import assert from "node:assert/strict";
import {
  MAX_FILE_PROBLEMS,
  parseProfileFile,
} from "../../../lib/catalogue/opentech/profile_file.ts";
import { MAX_TIMESTEPS } from "../../../lib/profiles/profile_schema.ts";
import { deSolarHours, hourOf2016, uploadCsv } from "./_fixtures.ts";

/** The problems of a file that must be refused. */
function problems(fileName: string, text: string): string[] {
  const parsed = parseProfileFile(fileName, text);
  assert.equal(parsed.ok, false, "refused");
  return parsed.ok ? [] : parsed.problems;
}

/** The points of a file that must be read. */
function points(fileName: string, text: string): [string, number][] {
  const parsed = parseProfileFile(fileName, text);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.problems.join("\n"));
  return parsed.timestamps.map((t, i) => [t, parsed.values[i]!]);
}

const FIRST_THREE: [string, number][] = [
  ["2019-01-01T00:00:00Z", 0.142],
  ["2019-01-01T01:00:00Z", 0.198],
  ["2019-01-01T02:00:00Z", 0.231],
];

Deno.test("parseProfileFile() reads 48 hours of DE solar PV 2016 as a CSV with BOM and CRLF", async () => {
  const values = await deSolarHours();
  const parsed = parseProfileFile("DE_solar_pv_2016.csv", uploadCsv(values));
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.values, values);
  assert.equal(parsed.timestamps.length, 48);
  assert.equal(parsed.timestamps[0], "2016-01-01T00:00:00Z");
  assert.equal(parsed.timestamps[47], "2016-01-02T23:00:00Z");
  assert.equal(parsed.times[1]! - parsed.times[0]!, 3_600_000);
  assert.deepEqual(parsed.rows.slice(0, 3), [2, 3, 4], "rows are file lines, header is line 1");
});

Deno.test("parseProfileFile() reads the CSV layouts a spreadsheet or script writes", async (t) => {
  const cases: [string, string][] = [
    [
      "the frontend's template",
      "timestamp,value\n2019-01-01 00:00:00,0.142\n2019-01-01 01:00:00,0.198\n" +
      "2019-01-01 02:00:00,0.231\n",
    ],
    [
      "no header",
      "2019-01-01 00:00:00,0.142\n2019-01-01 01:00:00,0.198\n2019-01-01 02:00:00,0.231",
    ],
    [
      "`time` header in capitals, blank lines, CR line ends",
      "Time,Value\r\r2019-01-01T00:00:00Z,0.142\r2019-01-01T01:00:00Z,0.198\r\r" +
      "2019-01-01T02:00:00Z,0.231\r",
    ],
    [
      "semicolons and decimal commas (a German spreadsheet)",
      "datetime;value\n2019-01-01 00:00:00;0,142\n2019-01-01 01:00:00;0,198\n" +
      "2019-01-01 02:00:00;0,231\n",
    ],
    [
      "tabs",
      "timestamp\tvalue\n2019-01-01 00:00:00\t0.142\n2019-01-01 01:00:00\t0.198\n" +
      "2019-01-01 02:00:00\t0.231\n",
    ],
    [
      "the value in a third column named `value`",
      "timestamp,unit,value\n2019-01-01 00:00:00,p.u.,0.142\n2019-01-01 01:00:00,p.u.,0.198\n" +
      "2019-01-01 02:00:00,p.u.,0.231\n",
    ],
    [
      "two columns, value first",
      "value,date\n0.142,2019-01-01T00:00\n0.198,2019-01-01T01:00\n0.231,2019-01-01T02:00\n",
    ],
    [
      "quoted cells",
      '"timestamp","value"\n"2019-01-01 00:00:00","0.142"\n"2019-01-01 01:00:00","0.198"\n' +
      '"2019-01-01 02:00:00","0.231"\n',
    ],
    [
      "local times with their offset",
      "timestamp,value\n2019-01-01 01:00:00+01:00,0.142\n2019-01-01 02:00:00+01:00,0.198\n" +
      "2019-01-01 03:00:00+01:00,2.31e-1\n",
    ],
  ];
  for (const [name, text] of cases) {
    await t.step(name, () => assert.deepEqual(points("profile.csv", text), FIRST_THREE));
  }
});

Deno.test("parseProfileFile() reads the four JSON shapes the frontend offers", async (t) => {
  const cases: [string, unknown][] = [
    [
      "an array of {timestamp, value}",
      [
        { timestamp: "2019-01-01 00:00:00", value: 0.142 },
        { timestamp: "2019-01-01 01:00:00", value: 0.198 },
        { timestamp: "2019-01-01 02:00:00", value: 0.231 },
      ],
    ],
    [
      "{points: [...]} with `time` and `v` and a numeric string",
      {
        points: [
          { time: "2019-01-01T00:00:00Z", v: 0.142 },
          { time: "2019-01-01T01:00:00Z", v: "0.198" },
          { time: "2019-01-01T02:00:00Z", v: 0.231 },
        ],
      },
    ],
    [
      "[timestamp, value] pairs",
      [["2019-01-01 00:00:00", 0.142], ["2019-01-01 01:00:00", 0.198], [
        "2019-01-01 02:00:00",
        0.231,
      ]],
    ],
    [
      "{timestamp: value}",
      { "2019-01-01 00:00:00": 0.142, "2019-01-01 01:00:00": 0.198, "2019-01-01 02:00:00": 0.231 },
    ],
  ];
  for (const [name, json] of cases) {
    await t.step(name, () => {
      assert.deepEqual(points("profile.json", JSON.stringify(json)), FIRST_THREE);
      // Without a telling name the first character tells JSON from CSV.
      assert.deepEqual(points("upload", "\uFEFF " + JSON.stringify(json)), FIRST_THREE);
    });
  }
  await t.step("a value of 0 is a value (the original read it as missing)", () => {
    const json = [{ timestamp: "2019-01-01T00:00Z", value: 0 }, {
      timestamp: "2019-01-01T01:00Z",
      value: 0,
    }];
    assert.deepEqual(points("zero.json", JSON.stringify(json)).map(([, v]) => v), [0, 0]);
  });
});

Deno.test("parseProfileFile() names every bad row", async (t) => {
  await t.step("CSV rows by their line in the file", () => {
    const csv = [
      "timestamp,value",
      "2019-01-01 00:00:00,0.142",
      "",
      "2019-01-01 02:00:00,x",
      "2019-01-01 03:00:00,",
      "01/01/2019 04:00,0.2",
      "2019-01-01 05:00:00",
      "2019-01-01 06:00:00,0x10",
      "2019-01-01 07:00:00,1e999",
    ].join("\n");
    assert.deepEqual(problems("p.csv", csv), [
      'row 4: value "x" is not a number',
      "row 5: the value is missing",
      'row 6: time stamp "01/01/2019 04:00" is not an ISO 8601 time (e.g. 2019-01-01 00:00:00 ' +
      "or 2019-01-01T00:00:00Z)",
      'row 7: expected 2 columns separated by ",", found 1',
      'row 8: value "0x10" is not a number',
      'row 9: value "1e999" is not a finite number',
    ]);
  });
  await t.step("JSON rows by their entry, from 1", () => {
    const json = '[["2019-01-01T00:00Z", 1], {"timestamp": "2019-01-01T01:00Z"}, ' +
      '{"value": 2}, [1546300800, 3], "2019-01-01T04:00Z", ["2019-01-01T05:00Z", null], ' +
      '["2019-01-01T06:00Z", 1e999]]';
    assert.deepEqual(problems("p.json", json), [
      "row 2: the value is missing",
      "row 3: the time stamp is missing",
      "row 4: time stamp 1546300800 is not an ISO 8601 time (e.g. 2019-01-01 00:00:00 or " +
      "2019-01-01T00:00:00Z)",
      "row 5: expected {timestamp, value} or [timestamp, value]",
      "row 6: the value is missing",
      "row 7: value Infinity is not a finite number",
    ]);
  });
  await t.step(`the first ${MAX_FILE_PROBLEMS} one by one, the rest counted`, () => {
    const rows = Array.from({ length: 25 }, (_, k) => `${hourOf2016(k)},n/a`);
    const found = problems("p.csv", ["timestamp,value", ...rows].join("\n"));
    assert.equal(found.length, MAX_FILE_PROBLEMS + 1);
    assert.equal(found[0], 'row 2: value "n/a" is not a number');
    assert.equal(found.at(-1), "... and 5 more problems");
  });
});

Deno.test("parseProfileFile() refuses files it cannot read as a whole", async (t) => {
  const cases: [string, string, string, string[]][] = [
    ["an empty file", "p.csv", "\uFEFF\r\n\r\n", ["file: is empty"]],
    ["a header only", "p.csv", "timestamp,value\n", [
      "file: has 0 data rows, at least 2 are needed",
    ]],
    ["one row (the original asks for 2)", "p.csv", "2019-01-01 00:00:00,1\n", [
      "file: has 1 data rows, at least 2 are needed",
    ]],
    ["a header naming no time column", "p.csv", "Zeit;Wert\n2019-01-01 00:00:00;1\n", [
      'row 1: the header "Zeit;Wert" names no time column: name it `timestamp` (then `value`), ' +
      "as in `timestamp,value`",
    ]],
    ["a header naming no value column", "p.csv", "timestamp,unit,solar\n2019-01-01,p.u.,1\n", [
      'row 1: the header "timestamp,unit,solar" names no value column: name it `value`',
    ]],
    ["JSON that does not parse", "p.json", "[1, 2", []],
    ["JSON of another shape", "p.json", "42", [
      "file: expected {points: [...]}, an array of {timestamp, value} or [timestamp, value], " +
      "or an object {timestamp: value}",
    ]],
    ["points that are not an array", "p.json", '{"points": {}}', [
      "points: must be an array of {timestamp, value}",
    ]],
  ];
  for (const [name, fileName, text, expected] of cases) {
    await t.step(name, () => {
      const found = problems(fileName, text);
      if (expected.length > 0) assert.deepEqual(found, expected);
      else assert.match(found[0] ?? "", /^file: is not valid JSON: /);
    });
  }
  await t.step(`more than ${MAX_TIMESTEPS} rows, before reading them`, () => {
    const rows = new Array(MAX_TIMESTEPS + 1).fill("2019-01-01,1");
    assert.deepEqual(problems("p.csv", rows.join("\n")), [
      `file: has ${MAX_TIMESTEPS + 1} data rows, at most ${MAX_TIMESTEPS} are allowed`,
    ]);
    const json = JSON.stringify(new Array(MAX_TIMESTEPS + 1).fill(["2019-01-01", 1]));
    assert.deepEqual(problems("p.json", json), [
      `file: has ${MAX_TIMESTEPS + 1} data rows, at most ${MAX_TIMESTEPS} are allowed`,
    ]);
  });
});
