// Where the client connects and with which token: flags first, then YARDMASTER_URL and
// YARDMASTER_TOKEN, then the address `yardmaster serve` listens on by default.
import type { CliIo } from "../cli-io.ts";
import { type ParsedArgs, stringOption, UsageError } from "../parse-args.ts";
import { ApiClient, type ClientSettings } from "./api-client.ts";
import { envOf } from "./client-io.ts";

export const DEFAULT_URL = "http://127.0.0.1:8420";
/** Longest wait for one response; long enough for a slow registration, short for a script. */
export const REQUEST_TIMEOUT_MS = 30_000;

export function connectionSettings(parsed: ParsedArgs, io: CliIo): ClientSettings {
  const env = envOf(io);
  const raw = stringOption(parsed, "url") ?? nonEmpty(env.YARDMASTER_URL) ?? DEFAULT_URL;
  const token = stringOption(parsed, "token") ?? nonEmpty(env.YARDMASTER_TOKEN);
  return { baseUrl: checkedUrl(raw), token, timeoutMs: REQUEST_TIMEOUT_MS };
}

export function clientFor(parsed: ParsedArgs, io: CliIo): ApiClient {
  return new ApiClient(connectionSettings(parsed, io));
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** The base address without a trailing slash; a URL that cannot work is a usage error. */
function checkedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`server URL ${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`server URL ${raw} must start with http:// or https://`);
  }
  return url.toString().replace(/\/+$/, "");
}
