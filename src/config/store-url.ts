// The store URL's password: put in from YARDMASTER_STORE_PASSWORD, so the URL in the file or in
// YARDMASTER_STORE can stay free of secrets, and masked wherever the URL is shown.

export const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** The store URL as it may be shown: a postgres URL's password becomes `***`. */
export function redactStoreUrl(url: string): string {
  if (!POSTGRES_URL.test(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password === "") return url;
    parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^/@]*):[^/@]*@/, "//$1:***@");
  }
}

/**
 * `url` with `password` as its password; null when `url` is not a PostgreSQL URL. With
 * `keepWritten`, a password the URL already has is kept (it was typed where it wins).
 */
export function withStorePassword(
  url: string,
  password: string,
  keepWritten: boolean,
): string | null {
  if (!POSTGRES_URL.test(url)) return null;
  const parsed = new URL(url);
  if (keepWritten && parsed.password !== "") return url;
  // The setter leaves `%` alone, and the driver decodes the password: encode it whole first,
  // so a password holding `%41` or `@` reaches the server as written.
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}
