-- Row triggers do not fire on TRUNCATE: announce it as '*', and every instance forgets
-- every cached API token (lib/auth/api-token-cache.ts).
CREATE OR REPLACE FUNCTION "skillyard_api_tokens_truncated"() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('skillyard_api_tokens', '*');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "ApiToken_truncated" AFTER TRUNCATE ON "ApiToken" FOR EACH STATEMENT
  EXECUTE FUNCTION "skillyard_api_tokens_truncated"();
