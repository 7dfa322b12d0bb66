// The operator credential. A loopback bind needs none unless require_token is set; otherwise
// every operator endpoint wants `Authorization: Bearer <token>`. The token lives in a file that
// `yardmaster token rotate` rewrites; the gate notices the new file on the next request, so a
// rotation takes effect without a restart and the old token stops working at once. A token given
// in the environment (YARDMASTER_TOKEN) is fixed instead: the file is not read.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { dirname } from "node:path";

export type AuthMode = "off" | "token";

export interface AuthGate {
  readonly mode: AuthMode;
  /** Whether `token` is the current operator token (always true when auth is off). */
  check(token: string | undefined): boolean;
  /**
   * The name of the operator whose current token `token` is; null when it is none of them, and
   * always null when auth is off (requests are then anonymous: nobody is recorded).
   */
  identify?(token: string | undefined): string | null;
}

/** Who `token` authenticates, by a gate that may only `check` (the single token's name). */
export function identifyBy(gate: AuthGate, token: string | undefined): string | null {
  if (gate.identify) return gate.identify(token);
  return gate.check(token) ? DEFAULT_OPERATOR : null;
}

/** The operator name of the single token (`token_file`, YARDMASTER_TOKEN). */
export const DEFAULT_OPERATOR = "operator";

/** A named operator: `[operators.<name>] token_file`. */
export interface NamedOperator {
  name: string;
  tokenFile: string;
}

export interface AuthSettings {
  host: string;
  requireToken: boolean;
  tokenFile: string;
  /** A fixed token (from the environment); the file is not read then. */
  token?: string | null;
  /** `[operators.<name>]`: each with its own token file, re-read like `tokenFile`. */
  operators?: readonly NamedOperator[];
}

/** Decided by the configured bind address, never by a request's peer address. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) === 6) {
    if (bare === "::1" || /^(0{1,4}:){7}0{0,3}1$/.test(bare)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    return mapped?.[1].startsWith("127.") ?? false;
  }
  return false;
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Re-reads the token file only when its identity or mtime changed: one stat per request. */
class TokenFile {
  #stamp = "";
  #digest: Buffer | null = null;
  constructor(readonly path: string) {}

  current(): Buffer | null {
    let stamp: string;
    try {
      const st = statSync(this.path);
      stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      this.#stamp = "";
      this.#digest = null;
      return null;
    }
    if (stamp !== this.#stamp) {
      const token = readToken(this.path);
      this.#digest = token ? digest(token) : null;
      this.#stamp = stamp;
    }
    return this.#digest;
  }
}

function readToken(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

export function createAuthGate(settings: AuthSettings): AuthGate {
  if (isLoopbackHost(settings.host) && !settings.requireToken) {
    return { mode: "off", check: () => true, identify: () => null };
  }
  const fixed = settings.token ? digest(settings.token) : null;
  const file = new TokenFile(settings.tokenFile);
  const tokens: Array<{ name: string; current: () => Buffer | null }> = [
    { name: DEFAULT_OPERATOR, current: fixed ? () => fixed : () => file.current() },
    ...(settings.operators ?? []).map((op) => {
      const own = new TokenFile(op.tokenFile);
      return { name: op.name, current: () => own.current() };
    }),
  ];
  const identify = (token: string | undefined): string | null => {
    if (!token) return null;
    const given = digest(token);
    let found: string | null = null;
    // Every token is compared (no early exit), each in constant time: the time taken says
    // nothing about which operator, if any, the token belongs to.
    for (const { name, current } of tokens) {
      const expected = current();
      // No token file (or an empty one) means no token can be right.
      if (expected && timingSafeEqual(given, expected) && found === null) found = name;
    }
    return found;
  };
  return { mode: "token", check: (token) => identify(token) !== null, identify };
}

/** Writes a fresh token (32 random bytes, base64url) atomically with mode 0600; answers it. */
export async function rotateToken(tokenFile: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await mkdir(dirname(tokenFile), { recursive: true, mode: 0o700 });
  const temp = `${tokenFile}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temp, `${token}\n`, { mode: 0o600 });
  await rename(temp, tokenFile);
  return token;
}

/** The current token, generating one first when the file is missing or empty. */
export async function ensureToken(tokenFile: string): Promise<{ token: string; created: boolean }> {
  const existing = readToken(tokenFile);
  if (existing) return { token: existing, created: false };
  return { token: await rotateToken(tokenFile), created: true };
}
