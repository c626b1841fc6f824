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
let lastPanic = '';
function loadWasm() {
  if (loaded) return;
  // The engine reports a Rust panic's message here before it throws.
  (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = {
    set_message: (message: string) => {
      lastPanic = message;
      if (process.env.DEBUG_SCHEMA_ENGINE) console.error('schema engine panic:', message);
    },
  };
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
const COLUMN_TYPE_CHARACTER = 6; // ColumnTypeEnum.Character in @prisma/driver-adapter-utils

/**
 * The engine reads Postgres catalog columns of type `"char"` (constraint kinds and the
 * like), which the pg adapter cannot type (a known Prisma issue). Let pg hand them over
 * as text, remember which columns they were (by query text), and report those columns
 * to the engine as single characters.
 */
function catalogFriendlyAdapter(connectionString: string) {
  const charColumns = new Map<string, Set<string>>();
  const pool = new pg.Pool({ connectionString, max: 2 });
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  (pool as unknown as { query: unknown }).query = async (...args: unknown[]) => {
    const result = await query(...args);
    const chars = new Set<string>();
    for (const field of result?.fields ?? []) {
      if (field.dataTypeID === PG_CHAR) {
        field.dataTypeID = PG_TEXT;
        chars.add(field.name);
      }
    }
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
    if (chars.size > 0 && text) charColumns.set(text, chars);
    return result;
  };
  const factory = new PrismaPg(pool);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const queryRaw = adapter.queryRaw.bind(adapter);
    adapter.queryRaw = async (q) => {
      const result = await queryRaw(q);
      const chars = charColumns.get(q.sql);
      if (chars) {
        result.columnNames.forEach((name, i) => {
          if (chars.has(name)) result.columnTypes[i] = COLUMN_TYPE_CHARACTER as (typeof result.columnTypes)[number];
        });
      }
      return result;
    };
    return adapter;
  };
  return factory;
}

export async function openSchemaEngine(connectionString: string): Promise<Engine> {
  loadWasm();
  const schema = readSchema();
  // The engine expects Result-wrapped, bound methods: Prisma's own wrapper provides them.
  const adapter = bindMigrationAwareSqlAdapterFactory(catalogFriendlyAdapter(connectionString));
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

export function lastEnginePanic(): string {
  return lastPanic;
}
