// ajv-formats checks most formats with regular expressions that run in linear time, but its
// `url` expression backtracks: quadratic in the length of the string (40,000 characters take
// over a second). No real URL is that long, so `url` refuses a string over MAX_URL_LENGTH
// before its expression runs; at that length the expression takes a few milliseconds at worst.
// In lib/ beside the JSON Schema compiler, its one user.
import type { Ajv } from "ajv";

const MAX_URL_LENGTH = 2_048;

/** Replaces ajv's `url` format (as ajv-formats added it) with the length-bounded one. */
export function boundUrlFormat<T extends Ajv>(ajv: T): T {
  const url = ajv.formats.url;
  if (!(url instanceof RegExp)) return ajv;
  ajv.addFormat("url", (value: string) => value.length <= MAX_URL_LENGTH && url.test(value));
  return ajv;
}
