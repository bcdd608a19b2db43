/**
 * The `done` event's summary of a result, made where the result is read (in the run's Worker):
 * re-exported here for the service and the backend, which send it.
 */
export {
  summarizeResult,
  SUMMARY_MEMBER_MAX_BYTES,
  SUMMARY_OMITTED_KEYS,
} from "../../lib/runner/result_summary.ts";
