// lib/forms: a tool's parameters as form fields (schema-fields.ts), example arguments
// (example-args.ts) and the playground's first task and script (playground-start.ts).
// Client components take schema-fields.ts and playground-start.ts directly: example-args.ts
// brings json-schema-faker and lib/skills' Ajv (lib/dependency-direction.test.ts).
export { describeParams, exampleValue, exampleArgs, initialValues, valuesToArgs, type FieldKind, type SchemaField, type FormValues } from './schema-fields';
export { buildExampleArgs, type ExampleArgs } from './example-args';
export { pickExampleTool, exampleCall, playgroundStart, turnsToScript, scriptToTurns, type ScriptTurnDraft, type StartTool, type PlaygroundStart } from './playground-start';
