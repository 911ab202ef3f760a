export function hooksFromEnv(env: Record<string, string | undefined>): Record<string, unknown>;
