// A CI job's OIDC token, verified: signed by a key of the issuer it names (one the skill's
// owner configured), for this registry's audience, not expired (and not issued in the
// future), then its claims compared with the publisher's: every configured claim equal.
import 'server-only';
import { decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { AppError } from '../errors';
import { issuerKeys } from './issuer-keys';
import type { OidcSettings } from './oidc-settings';

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

/** The `iss` a token claims, read before verifying (only to pick the configured publisher to verify against). */
export function claimedIssuer(token: string): string {
  try {
    const iss = decodeJwt(token).iss;
    if (typeof iss === 'string' && iss) return iss;
  } catch {
    // below
  }
  throw new AppError('publish/oidc-invalid-token', 'The token is not a JWT with an issuer (iss).');
}

export async function verifyCiToken(token: string, issuer: string, settings: OidcSettings): Promise<JWTPayload> {
  const options = { issuer, audience: settings.audience, algorithms: ALGORITHMS, requiredClaims: ['exp', 'iat'], clockTolerance: 30 };
  try {
    return (await jwtVerify(token, await issuerKeys(issuer, settings), options)).payload;
  } catch (err) {
    if (err instanceof joseErrors.JWKSNoMatchingKey) {
      // the issuer rotated its keys since they were cached
      try {
        return (await jwtVerify(token, await issuerKeys(issuer, settings, true), options)).payload;
      } catch (again) {
        throw refusal(again);
      }
    }
    throw refusal(err);
  }
}

function refusal(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof joseErrors.JWTExpired) return new AppError('publish/oidc-invalid-token', 'The token has expired.');
  if (err instanceof joseErrors.JWTClaimValidationFailed)
    return new AppError(
      'publish/oidc-invalid-token',
      `The token's "${err.claim}" claim is not accepted: ${err.reason === 'check_failed' ? 'it is not what this registry expects' : err.reason}${err.claim === 'aud' ? " (request the token for this registry's audience)" : ''}.`,
    );
  return new AppError('publish/oidc-invalid-token', 'The token is not signed by a key of its issuer.');
}

/** The configured claims the token does not match (empty: it matches). */
export function mismatchedClaims(payload: JWTPayload, required: Record<string, string>): string[] {
  return Object.entries(required)
    .filter(([k, v]) => payload[k] !== v)
    .map(([k]) => k);
}
