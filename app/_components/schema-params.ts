// Re-exported for pages: the JSON Schema field descriptions live in lib/forms (pure, tested).
export { describeParams, exampleArgs, type SchemaField } from '@/lib/forms';
