// Loads Prisma's WebAssembly schema engine (the npm package @prisma/schema-engine-wasm,
// pinned to the version `prisma` depends on) without a bundler, so migrations can be
// generated and checked on machines that cannot download Prisma's native engine.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';

type Engine = Awaited<ReturnType<typeof bg.SchemaEngine.new>>;

let loaded = false;
function loadWasm() {
  if (loaded) return;
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  const bytes = fs.readFileSync(path.join(dir, 'schema_engine_bg.wasm'));
  const module = new WebAssembly.Module(bytes);
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports });
  bg.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  loaded = true;
}

export const SCHEMA_PATH = 'prisma/schema.prisma';
export const MIGRATIONS_DIR = 'prisma/migrations';

export function readSchema(root = process.cwd()): { path: string; content: string } {
  return { path: SCHEMA_PATH, content: fs.readFileSync(path.join(root, SCHEMA_PATH), 'utf8') };
}

const PG_CHAR = 18;
const PG_TEXT = 25;

/**
 * The engine introspects Postgres catalogs whose `"char"` columns the pg adapter cannot
 * type (a known Prisma issue); report them as text, which is what their values are.
 */
function catalogFriendlyPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 2 });
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  (pool as unknown as { query: unknown }).query = async (...args: unknown[]) => {
    const result = await query(...args);
    for (const field of result?.fields ?? []) if (field.dataTypeID === PG_CHAR) field.dataTypeID = PG_TEXT;
    return result;
  };
  return pool;
}

export async function openSchemaEngine(connectionString: string): Promise<Engine> {
  loadWasm();
  const schema = readSchema();
  // The engine expects Result-wrapped, bound methods: Prisma's own wrapper provides them.
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(catalogFriendlyPool(connectionString)));
  return bg.SchemaEngine.new({ datamodels: [[schema.path, schema.content]] }, () => {}, adapter);
}

const noFilters = { externalTables: [], externalEnums: [] };

/**
 * SQL that takes the engine's database (for the drift check: a scratch database with
 * every migration applied) to the state `schema.prisma` describes; '' when they agree.
 */
export async function diffDatabaseToSchema(engine: Engine): Promise<string> {
  const schema = readSchema();
  const result = await engine.diff({
    from: { tag: 'schemaDatasource', files: [schema], configDir: process.cwd() },
    to: { tag: 'schemaDatamodel', files: [schema] },
    script: true,
    exitCode: null,
    filters: noFilters,
  });
  const sql = (result.stdout ?? '').trim();
  return sql === '-- This is an empty migration.' ? '' : sql;
}

/** SQL that creates everything `schema.prisma` describes, from an empty database. */
export async function diffEmptyToSchema(engine: Engine): Promise<string> {
  const schema = readSchema();
  const result = await engine.diff({
    from: { tag: 'empty' },
    to: { tag: 'schemaDatamodel', files: [schema] },
    script: true,
    exitCode: null,
    filters: noFilters,
  });
  return (result.stdout ?? '').trim();
}
