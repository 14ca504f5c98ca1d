/**
 * Reads the payload of a compact JWS (a JWT) without verifying it: the kit checks the claims a
 * client relies on (`exp`), not the signature, which only the service can verify.
 */
export function decodeJwtPayload(token: string): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error(`a JWT has 3 dot-separated parts, this has ${parts.length}`);
  const [header, payload] = parts as [string, string, string];
  for (const [name, part] of [['header', header], ['payload', payload]] as const) {
    if (!/^[A-Za-z0-9_-]+$/.test(part)) throw new Error(`the JWT ${name} is not base64url`);
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new Error('the JWT payload is not JSON');
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    throw new Error('the JWT payload is not a JSON object');
  }
  return decoded as Record<string, unknown>;
}
