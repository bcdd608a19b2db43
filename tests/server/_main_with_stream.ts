/** server/main.ts's main() over every real service plus the stream module, for a child process. */
import { main } from "../../server/main.ts";
import { SERVICE_MODULES } from "../../server/services.ts";
import { streamModule } from "./_stream_module.ts";

await main(Deno.env.toObject(), Deno.args, [...SERVICE_MODULES, streamModule]);
