/**
 * Headless Chromium for page tests, driven over the Chrome DevTools Protocol with Deno's own
 * WebSocket (no puppeteer: nothing to download, the browser is Debian's `chromium` package).
 *
 * ```ts
 * await withBrowser(async (browser) => {
 *   const page = await browser.newPage();
 *   await page.navigate(url);
 *   await page.waitFor("window.mapReady !== undefined");
 *   assert.deepEqual(page.errors(), []);
 * });
 * ```
 *
 * When no browser is installed, `withBrowser` throws a message naming the package, unless
 * `SKIP_BROWSER_TESTS=1`, when it returns without calling the body (callers say so in the log).
 */

/** Where Chromium is looked for when `CHROMIUM` is not set, in order. */
export const CHROMIUM_CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/**
 * Flags for a disposable headless browser. WebGL has no GPU here: SwiftShader draws it in
 * software, which recent Chromium allows only with `--enable-unsafe-swiftshader`.
 */
export const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  // Containers often give /dev/shm only 64 MB, too little for the renderer.
  "--disable-dev-shm-usage",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--ignore-gpu-blocklist",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--mute-audio",
  "--remote-debugging-port=0",
  "--window-size=1024,768",
];

/** How long to wait for the browser to print its DevTools address, ms. */
const LAUNCH_TIMEOUT_MS = 20_000;

/**
 * The Chromium executable: env `CHROMIUM` when set (undefined if no such file), else the first
 * candidate present, else undefined.
 */
export function findChromium(): string | undefined {
  const fromEnv = Deno.env.get("CHROMIUM");
  for (const candidate of fromEnv ? [fromEnv] : CHROMIUM_CANDIDATES) {
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // not there: try the next one
    }
  }
  return undefined;
}

/** What a page reported going wrong: console errors, uncaught exceptions, failed requests. */
export interface PageProblem {
  kind: "console" | "exception" | "log" | "request";
  text: string;
}

/** One tab, attached over a flat CDP session. */
export interface Page {
  /** Sends a CDP command to this tab and resolves with its result. */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** Opens `url` and resolves when its `load` event fired. */
  navigate(url: string): Promise<void>;
  /** Evaluates an expression in the page (promises awaited) and returns its JSON value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Polls `expression` until truthy; returns its value; throws after `timeoutMs`. */
  waitFor<T = unknown>(expression: string, timeoutMs?: number): Promise<T>;
  /** Clicks at viewport coordinates (CSS pixels) with real mouse events. */
  click(x: number, y: number): Promise<void>;
  /** Every problem seen so far. */
  errors(): PageProblem[];
}

/** A running headless browser. */
export interface Browser {
  /** Opens a blank tab with console, log and network reporting enabled. */
  newPage(): Promise<Page>;
}

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

/** A CDP connection: numbered commands, replies matched by id, events to listeners. */
class Cdp {
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  #listeners: ((message: CdpMessage) => void)[] = [];
  readonly closed: Promise<void>;

  constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as CdpMessage;
      if (message.id !== undefined) {
        const waiter = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(`CDP: ${message.error.message}`));
        else waiter?.resolve(message.result ?? {});
      } else {
        for (const listener of this.#listeners) listener(message);
      }
    };
    this.closed = new Promise((resolve) => {
      ws.onclose = () => {
        for (const waiter of this.#pending.values()) {
          waiter.reject(new Error("CDP: the browser closed the connection"));
        }
        this.#pending.clear();
        resolve();
      };
    });
  }

  static async connect(url: string): Promise<Cdp> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`Cannot connect to ${url}`));
    });
    return new Cdp(ws);
  }

  send<T>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    const id = this.#next++;
    const message: CdpMessage & { params: Record<string, unknown> } = { id, method, params };
    if (sessionId !== undefined) message.sessionId = sessionId;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
      this.#ws.send(JSON.stringify(message));
    });
  }

  on(listener: (message: CdpMessage) => void): void {
    this.#listeners.push(listener);
  }

  close(): Promise<void> {
    if (this.#ws.readyState !== WebSocket.CLOSED) this.#ws.close();
    return this.closed;
  }
}

/** Text of a console call's arguments. */
function consoleText(args: unknown): string {
  if (!Array.isArray(args)) return "";
  return args.map((arg: { value?: unknown; description?: string }) =>
    arg.value !== undefined ? String(arg.value) : arg.description ?? ""
  ).join(" ");
}

async function openPage(cdp: Cdp): Promise<Page> {
  const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", {
    url: "about:blank",
  });
  const { sessionId } = await cdp.send<{ sessionId: string }>("Target.attachToTarget", {
    targetId,
    flatten: true,
  });
  const problems: PageProblem[] = [];
  const loaded: (() => void)[] = [];
  cdp.on((message) => {
    if (message.sessionId !== sessionId || !message.params) return;
    const p = message.params;
    switch (message.method) {
      case "Runtime.consoleAPICalled":
        if (p.type === "error" || p.type === "assert") {
          problems.push({ kind: "console", text: consoleText(p.args) });
        }
        break;
      case "Runtime.exceptionThrown": {
        const details = p.exceptionDetails as {
          text: string;
          exception?: { description?: string };
        };
        problems.push({
          kind: "exception",
          text: details.exception?.description ?? details.text,
        });
        break;
      }
      case "Log.entryAdded": {
        const entry = p.entry as { level: string; text: string; url?: string };
        if (entry.level === "error") {
          problems.push({ kind: "log", text: `${entry.text} ${entry.url ?? ""}`.trim() });
        }
        break;
      }
      case "Network.loadingFailed":
        if (p.canceled !== true) {
          problems.push({ kind: "request", text: `${p.errorText} (request ${p.requestId})` });
        }
        break;
      case "Network.responseReceived": {
        const response = p.response as { status: number; url: string };
        if (response.status >= 400) {
          problems.push({ kind: "request", text: `${response.status} ${response.url}` });
        }
        break;
      }
      case "Page.loadEventFired":
        loaded.splice(0).forEach((resolve) => resolve());
        break;
    }
  });
  const send = <T>(method: string, params?: Record<string, unknown>) =>
    cdp.send<T>(method, params, sessionId);
  await Promise.all(
    ["Runtime.enable", "Page.enable", "Log.enable", "Network.enable"].map((m) => send(m)),
  );

  const evaluate = async <T>(expression: string): Promise<T> => {
    const reply = await send<{
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (reply.exceptionDetails) {
      const d = reply.exceptionDetails;
      throw new Error(`In the page: ${d.exception?.description ?? d.text}`);
    }
    return reply.result.value as T;
  };

  return {
    send,
    evaluate,
    async navigate(url) {
      const load = new Promise<void>((resolve) => loaded.push(resolve));
      const reply = await send<{ errorText?: string }>("Page.navigate", { url });
      if (reply.errorText) throw new Error(`Cannot open ${url}: ${reply.errorText}`);
      await load;
    },
    async waitFor<T>(expression: string, timeoutMs = 20_000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await evaluate<T>(expression);
        if (value) return value;
        if (Date.now() > deadline) {
          const seen = problems.map((p) => `${p.kind}: ${p.text}`).join("\n");
          throw new Error(`Timed out after ${timeoutMs} ms waiting for ${expression}\n${seen}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async click(x, y) {
      const base = { x, y, button: "left", clickCount: 1 };
      await send("Input.dispatchMouseEvent", { ...base, type: "mouseMoved", button: "none" });
      await send("Input.dispatchMouseEvent", { ...base, type: "mousePressed" });
      await send("Input.dispatchMouseEvent", { ...base, type: "mouseReleased" });
    },
    errors: () => [...problems],
  };
}

/** Reads stderr lines until the DevTools address appears; the rest is drained in the background. */
async function devToolsUrl(stderr: ReadableStream<Uint8Array>): Promise<{
  url: string;
  drained: Promise<void>;
}> {
  const lines = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const seen: string[] = [];
  const timeout = setTimeout(() => lines.cancel(), LAUNCH_TIMEOUT_MS);
  try {
    for (;;) {
      const { value, done } = await lines.read();
      if (done) {
        throw new Error(`Chromium did not print its DevTools address:\n${seen.join("\n")}`);
      }
      buffer += value;
      const parts = buffer.split("\n");
      buffer = parts.pop() ?? "";
      for (const line of parts) {
        seen.push(line);
        const match = line.match(/DevTools listening on (ws:\/\/\S+)/);
        if (match) {
          // Keep reading so that a chatty browser never blocks on a full pipe.
          const drained = (async () => {
            while (!(await lines.read()).done) { /* discard */ }
          })().catch(() => {});
          return { url: match[1]!, drained };
        }
      }
    }
  } finally {
    clearTimeout(timeout);
  }
}

/**
 * Runs `body` with a fresh headless Chromium and a temporary profile; closes the browser, kills
 * it if it does not exit, and removes the profile in every case.
 */
export async function withBrowser(body: (browser: Browser) => Promise<void>): Promise<void> {
  const executable = findChromium();
  if (executable === undefined) {
    if (Deno.env.get("SKIP_BROWSER_TESTS") === "1") {
      console.warn("SKIP_BROWSER_TESTS=1 and no Chromium: browser test skipped");
      return;
    }
    throw new Error(
      "No Chromium found (looked at " +
        (Deno.env.get("CHROMIUM") ?? CHROMIUM_CANDIDATES.join(", ")) +
        "): install Debian's `chromium` package (or set CHROMIUM to a Chrome/Chromium " +
        "executable), or set SKIP_BROWSER_TESTS=1 to skip page tests",
    );
  }
  const profile = await Deno.makeTempDir({ prefix: "browser_test_" });
  const child = new Deno.Command(executable, {
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, "about:blank"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let cdp: Cdp | undefined;
  let drained: Promise<void> | undefined;
  try {
    const found = await devToolsUrl(child.stderr);
    drained = found.drained;
    cdp = await Cdp.connect(found.url);
    const connection = cdp;
    await body({ newPage: () => openPage(connection) });
  } finally {
    if (cdp) {
      await cdp.send("Browser.close").catch(() => {});
      await cdp.close();
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const exited = await Promise.race([
      child.status.then(() => true),
      new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), 5_000)),
    ]);
    clearTimeout(timer);
    if (!exited) {
      try {
        child.kill("SIGKILL");
      } catch {
        // it exited meanwhile
      }
      await child.status;
    }
    if (drained) await drained;
    else await child.stderr.cancel().catch(() => {});
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}
