#!/usr/bin/env bash
# Executes every notebooks/*.ipynb headless with the Deno Jupyter kernel (`deno task notebooks`).
#
# - Builds/refreshes the DuckDB store first (`deno task etl`).
# - Type-checks each notebook's code cells (the kernel itself does not type-check).
# - Runs `jupyter nbconvert --execute` with the kernel's cwd = notebooks/, so the kernel finds the
#   project's deno.json (import map) and `../lib/...` imports resolve. Executed copies go to
#   notebooks/.out/ (git-ignored; NOTEBOOKS_OUT_DIR overrides); the committed notebooks stay
#   without outputs.
# - Stops at the first failing notebook. Prints one line per notebook, "notebook ok: NAME" or
#   "notebook FAILED: NAME", which .ci/run counts.
#
# The kernel is the pinned Deno: a private kernelspec named "deno" (put first on JUPYTER_PATH)
# points at the pinned binary, whatever `deno jupyter --install` registered for the user.
# Needs jupyter-nbconvert and jupyter-client (Debian: jupyter-nbconvert, jupyter-client).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PINNED="2.9.6"
OUT_DIR="${NOTEBOOKS_OUT_DIR:-$ROOT/notebooks/.out}"
TIMEOUT="${NOTEBOOK_TIMEOUT:-600}"

# The real path of a deno binary of the pinned version: $DENO, `deno` on PATH, else npm's.
resolve_deno() {
  local candidate
  for candidate in "${DENO:-}" "$(command -v deno 2>/dev/null || true)"; do
    [[ -n "$candidate" && -x "$candidate" ]] || continue
    if [[ "$("$candidate" --version 2>/dev/null | head -n1)" == "deno ${PINNED} "* ]]; then
      "$candidate" eval --no-config 'console.log(Deno.execPath())'
      return 0
    fi
  done
  npx -y "deno@${PINNED}" eval --no-config 'console.log(Deno.execPath())' </dev/null
}

DENO_BIN="$(resolve_deno)"
[[ -x "$DENO_BIN" ]] || {
  echo "notebooks: no deno ${PINNED} binary found" >&2
  exit 1
}
JUPYTER="${JUPYTER:-jupyter}"
if ! "$JUPYTER" nbconvert --version >/dev/null 2>&1; then
  echo "notebooks: 'jupyter nbconvert' is missing (apt-get install jupyter-nbconvert jupyter-client)" >&2
  exit 1
fi

shopt -s nullglob
notebooks=(notebooks/*.ipynb)
if [[ ${#notebooks[@]} -eq 0 ]]; then
  echo "notebooks: no notebooks/*.ipynb found"
  exit 0
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/notebooks.XXXXXX")"
CHECK_FILES=()
cleanup() {
  rm -rf "$WORK"
  if [[ ${#CHECK_FILES[@]} -gt 0 ]]; then rm -f "${CHECK_FILES[@]}"; fi
}
trap cleanup EXIT

# Private kernelspec for the pinned deno (same argv as `deno jupyter --install` writes).
mkdir -p "$WORK/jupyter/kernels/deno"
cat >"$WORK/jupyter/kernels/deno/kernel.json" <<EOF
{
  "argv": ["${DENO_BIN}", "jupyter", "--kernel", "--conn", "{connection_file}"],
  "display_name": "Deno",
  "language": "typescript"
}
EOF
export JUPYTER_PATH="$WORK/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
echo "notebooks: kernel 'deno' -> ${DENO_BIN} ($("$DENO_BIN" --version | head -n1))"

# The kernel runs in notebooks/: hand it an absolute store path when one is configured.
if [[ -n "${STORE_PATH:-}" && "${STORE_PATH}" != /* ]]; then
  export STORE_PATH="$ROOT/$STORE_PATH"
fi

echo "notebooks: ensuring the store (deno task etl)"
"$DENO_BIN" task etl </dev/null

mkdir -p "$OUT_DIR"
for nb in "${notebooks[@]}"; do
  name="$(basename "$nb")"
  stem="${name%.ipynb}"
  start=$SECONDS

  # The committed notebook must carry no outputs. Its code cells are type-checked, concatenated
  # into one module next to the notebook so that relative imports and the import map resolve as
  # in the kernel.
  check_file="notebooks/.check.${stem}.ts"
  CHECK_FILES+=("$check_file")
  # shellcheck disable=SC2016 # the single-quoted program is TypeScript, not shell
  if ! "$DENO_BIN" eval --no-config '
    const [src, dst] = Deno.args;
    const nb = JSON.parse(Deno.readTextFileSync(src));
    const code = nb.cells.filter((c) => c.cell_type === "code");
    if (code.some((c) => (c.outputs ?? []).length > 0 || c.execution_count != null)) {
      console.error(`${src} is committed with outputs; clear them first:`);
      console.error(`  jupyter nbconvert --clear-output --inplace ${src}`);
      Deno.exit(1);
    }
    const text = code
      .map((c, i) => `// --- code cell ${i + 1}\n` +
        (Array.isArray(c.source) ? c.source.join("") : c.source))
      .join("\n\n");
    Deno.writeTextFileSync(dst, text + "\n\nexport {};\n");
  ' "$nb" "$check_file"; then
    echo "notebook FAILED: ${name} (not a clean notebook without outputs)"
    exit 1
  fi
  echo "notebooks: type-checking ${name}"
  if ! "$DENO_BIN" check "$check_file" </dev/null; then
    echo "notebook FAILED: ${name} (type check of its code cells)"
    exit 1
  fi
  rm -f "$check_file"

  echo "notebooks: executing ${name}"
  if "$JUPYTER" nbconvert --to notebook --execute \
    --ExecutePreprocessor.kernel_name=deno \
    --ExecutePreprocessor.timeout="$TIMEOUT" \
    --output-dir "$OUT_DIR" "$nb" </dev/null; then
    echo "notebook ok: ${name} ($((SECONDS - start))s, executed copy in ${OUT_DIR}/${name})"
  else
    echo "notebook FAILED: ${name} ($((SECONDS - start))s)"
    exit 1
  fi
done
