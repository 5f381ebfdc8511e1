/** ENCRYPTION_KEY for the embedded default: generated once under DATA_DIR, and said so. */
import { type Config, ConfigError } from "./config.ts";
import { toBase64 } from "./crypto/mod.ts";

export async function ensureEncryptionKey(config: Config): Promise<Config> {
  if (config.encryptionKey) return config;
  if (config.databaseUrl || config.denoDeploy) {
    throw new ConfigError(
      "Invalid environment:\n  ENCRYPTION_KEY: is required when DATABASE_URL is set or on Deno Deploy (32 bytes, base64)",
    );
  }
  const path = `${config.dataDir}/encryption.key`;
  let key: string;
  try {
    key = (await Deno.readTextFile(path)).trim();
  } catch {
    await Deno.mkdir(config.dataDir, { recursive: true });
    key = toBase64(crypto.getRandomValues(new Uint8Array(32)));
    await Deno.writeTextFile(path, key + "\n", { mode: 0o600 });
    console.error(`Generated ENCRYPTION_KEY in ${path} (embedded default; keep this file)`);
  }
  return { ...config, encryptionKey: key };
}
