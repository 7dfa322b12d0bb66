// Plugin assets: JavaScript modules a workflow ships beside its file (custom panel elements).
// Each manifest URL carries `?v=` with a hash of the file's current bytes, so a browser may cache
// an asset for good and still picks up an edited file: the URL changes with the bytes.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { AssetRef, CompiledPlugin } from "./types.ts";

/** Hex digits of the SHA-256 kept in `?v=`: plenty to tell versions of one file apart. */
const VERSION_LENGTH = 12;

export function versionOf(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, VERSION_LENGTH);
}

export function assetPath(workflow: string, asset: AssetRef): string {
  return `/plugins/${workflow}/assets/${asset.path}`;
}

export interface AssetBytes {
  bytes: Buffer;
  version: string;
}

async function read(asset: AssetRef): Promise<AssetBytes | null> {
  try {
    const bytes = await readFile(asset.file);
    return { bytes, version: versionOf(bytes) };
  } catch {
    return null;
  }
}

/** Manifest URLs of the plugin's assets; a file that went missing since registration is left out. */
export async function assetUrls(plugin: CompiledPlugin): Promise<string[]> {
  const urls: string[] = [];
  for (const asset of plugin.assets) {
    const found = await read(asset);
    if (found) urls.push(`${assetPath(plugin.workflow, asset)}?v=${found.version}`);
  }
  return urls;
}

/** A declared asset's bytes by its URL path; null for anything the plugin did not declare. */
export async function readAsset(plugin: CompiledPlugin, path: string): Promise<AssetBytes | null> {
  const asset = plugin.assets.find((a) => a.path === path);
  return asset ? read(asset) : null;
}
