-- Every app instance keeps valid API tokens in memory (lib/auth/api-token-cache.ts) and
-- must hear at once when one stops being valid: a revocation, a new expiry, new scopes or
-- owner, or the row's deletion (also by cascade, when its user or team is deleted) is
-- announced on channel skillyard_api_tokens with the token's hash. The minute-by-minute
-- lastUsedAt write is not announced.
CREATE OR REPLACE FUNCTION "skillyard_api_token_changed"() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('skillyard_api_tokens', OLD.hash);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "ApiToken_changed" AFTER UPDATE ON "ApiToken" FOR EACH ROW
  WHEN (OLD."revokedAt" IS DISTINCT FROM NEW."revokedAt"
     OR OLD."expiresAt" IS DISTINCT FROM NEW."expiresAt"
     OR OLD.scopes IS DISTINCT FROM NEW.scopes
     OR OLD."userId" IS DISTINCT FROM NEW."userId"
     OR OLD."teamId" IS DISTINCT FROM NEW."teamId"
     OR OLD.hash IS DISTINCT FROM NEW.hash)
  EXECUTE FUNCTION "skillyard_api_token_changed"();

CREATE TRIGGER "ApiToken_deleted" AFTER DELETE ON "ApiToken" FOR EACH ROW
  EXECUTE FUNCTION "skillyard_api_token_changed"();
