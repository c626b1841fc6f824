-- The filters beside the documents in one GIN index each: a word and a format, a signature
-- or a token gate are matched in one index scan (GIN skips through the filter's long
-- posting list), not a word's bitmap ANDed with a filter's 20,000-row bitmap.
-- btree_gin (Postgres contrib, shipped with embedded-postgres; a trusted extension, so any
-- user who may create in the database may add it) gives GIN its b-tree comparisons for
-- text and boolean. Its operator classes are the defaults for their types, which
-- schema.prisma cannot name (Prisma asks for an operator class on a scalar column of a GIN
-- index, then sees none on a default one), so a superuser (the embedded server's user)
-- makes copies that are not defaults and indexes with those. Creating an operator class
-- takes a superuser: any other user (a managed Postgres) gets the same indexes with
-- btree_gin's own classes (the same index to the planner; `prisma migrate diff` would
-- show it as differing from schema.prisma).
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- DropIndex
DROP INDEX "SkillSearch_nameVector_idx";

-- DropIndex
DROP INDEX "SkillSearch_textVector_idx";

DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    CREATE OPERATOR CLASS skill_search_text_ops FOR TYPE text USING gin AS
      OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
      FUNCTION 1 bttextcmp(text, text),
      FUNCTION 2 gin_extract_value_text(text, internal),
      FUNCTION 3 gin_extract_query_text(text, internal, int2, internal, internal),
      FUNCTION 4 gin_btree_consistent(internal, int2, anyelement, int4, internal, internal),
      FUNCTION 5 gin_compare_prefix_text(text, text, int2, internal),
      STORAGE text;
    CREATE OPERATOR CLASS skill_search_bool_ops FOR TYPE boolean USING gin AS
      OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
      FUNCTION 1 btboolcmp(boolean, boolean),
      FUNCTION 2 gin_extract_value_bool(boolean, internal),
      FUNCTION 3 gin_extract_query_bool(boolean, internal, int2, internal, internal),
      FUNCTION 4 gin_btree_consistent(internal, int2, anyelement, int4, internal, internal),
      FUNCTION 5 gin_compare_prefix_bool(boolean, boolean, int2, internal),
      STORAGE boolean;
    CREATE INDEX "SkillSearch_nameVector_format_signed_tokenGated_idx" ON "SkillSearch" USING GIN ("nameVector", "format" skill_search_text_ops, "signed" skill_search_bool_ops, "tokenGated" skill_search_bool_ops);
    CREATE INDEX "SkillSearch_textVector_format_signed_tokenGated_idx" ON "SkillSearch" USING GIN ("textVector", "format" skill_search_text_ops, "signed" skill_search_bool_ops, "tokenGated" skill_search_bool_ops);
  ELSE
    CREATE INDEX "SkillSearch_nameVector_format_signed_tokenGated_idx" ON "SkillSearch" USING GIN ("nameVector", "format", "signed", "tokenGated");
    CREATE INDEX "SkillSearch_textVector_format_signed_tokenGated_idx" ON "SkillSearch" USING GIN ("textVector", "format", "signed", "tokenGated");
  END IF;
END
$$;
