/** The heat gateway key of the test environment. */
export const TEST_HEAT_API_KEY = "services-test-key";

/** An environment that keeps every file of the start in `dir` and every port free. */
export function testEnv(dir: string): Record<string, string> {
  return {
    HOST: "127.0.0.1",
    HEAT_PORT: "0",
    CATALOGUE_PORT: "0",
    RUNNER_PORT: "0",
    BACKEND_PORT: "0",
    BACKEND_STATE_PATH: `${dir}/backend.duckdb`,
    EXTRACTION_PORT: "0",
    HYDROGEN_PORT: "0",
    CCS_PORT: "0",
    EXTRACTION_STATE_PATH: `${dir}/extraction.duckdb`,
    OSM_STORE_PATH: `${dir}/osm.duckdb`,
    OSM_SEED: "",
    STORE_PATH: `${dir}/store.duckdb`,
    STATE_PATH: `${dir}/state.duckdb`,
    JWT_SECRET_FILE: "",
    JWT_SECRET_KEY: "a-test-secret-of-at-least-32-bytes-long",
    HEAT_API_KEY: TEST_HEAT_API_KEY,
    SHUTDOWN_GRACE_SECONDS: "5",
  };
}
