// Reads exported metadata from JS/TS sources through the TypeScript parser's AST
// (createSourceFile only: nothing is imported, transpiled or evaluated).

import { createRequire } from 'node:module';
import type * as TS from 'typescript';

// typescript is large (seconds to load on a busy machine): loaded on the first JS/TS file.
let ts: typeof TS;
function loadTypeScript(): void {
  ts ??= createRequire(import.meta.url)('typescript') as typeof TS;
}
import { ptr, type LineMap } from './diagnostic-sink';
import { setOwn } from './located-json';

export type TsExport = { value: unknown; line: number; lines: LineMap } | { nonLiteral: string; line: number };

export type TsModule = {
  /** `export const NAME = <literal>` (and `export let/var`) */
  exports: Map<string, TsExport>;
  hasDefaultExport: boolean;
  /** line of the default export, when present */
  defaultLine: number | null;
  /** exported or top-level function names (execute, main, handler...) */
  functions: Set<string>;
  syntaxErrors: { message: string; line: number }[];
};

class NotLiteral extends Error {}

export function parseTsModule(text: string, fileName: string, opts: { maxDepth: number }): TsModule {
  loadTypeScript();
  const kind = /\.(m|c)?js$/i.test(fileName) ? ts.ScriptKind.JS : /x$/i.test(fileName) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false, kind);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const mod: TsModule = { exports: new Map(), hasDefaultExport: false, defaultLine: null, functions: new Set(), syntaxErrors: [] };
  const parseDiagnostics = (sf as unknown as { parseDiagnostics?: TS.Diagnostic[] }).parseDiagnostics ?? [];
  for (const d of parseDiagnostics.slice(0, 5)) {
    mod.syntaxErrors.push({ message: ts.flattenDiagnosticMessageText(d.messageText, '\n'), line: lineOf(d.start ?? 0) });
  }

  // Top-level const initialisers, so `export const frontmatter = { params: schema }`
  // can refer to a literal `const schema = {...}` declared in the same file.
  const consts = new Map<string, TS.Expression>();
  const hasMod = (n: TS.Node, k: TS.SyntaxKind) => (ts.canHaveModifiers(n) ? ts.getModifiers(n) ?? [] : []).some((m) => m.kind === k);

  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      const exported = hasMod(st, ts.SyntaxKind.ExportKeyword);
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer) continue;
        consts.set(d.name.text, d.initializer);
        const init = unwrap(d.initializer);
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) mod.functions.add(d.name.text);
        if (exported) mod.exports.set(d.name.text, { nonLiteral: 'pending', line: lineOf(d.getStart(sf)) });
      }
    } else if (ts.isFunctionDeclaration(st)) {
      if (st.name) mod.functions.add(st.name.text);
      if (hasMod(st, ts.SyntaxKind.ExportKeyword) && hasMod(st, ts.SyntaxKind.DefaultKeyword)) {
        mod.hasDefaultExport = true;
        mod.defaultLine = lineOf(st.getStart(sf));
      }
    } else if (ts.isClassDeclaration(st)) {
      if (hasMod(st, ts.SyntaxKind.ExportKeyword) && hasMod(st, ts.SyntaxKind.DefaultKeyword)) {
        mod.hasDefaultExport = true;
        mod.defaultLine = lineOf(st.getStart(sf));
      }
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) {
      mod.hasDefaultExport = true;
      mod.defaultLine = lineOf(st.getStart(sf));
    } else if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) {
        if (el.name.text === 'default') {
          mod.hasDefaultExport = true;
          mod.defaultLine = lineOf(el.getStart(sf));
        } else if (!st.moduleSpecifier) {
          const local = (el.propertyName ?? el.name).text;
          if (consts.has(local)) mod.exports.set(el.name.text, { nonLiteral: 'pending:' + local, line: lineOf(el.getStart(sf)) });
        }
      }
    }
  }

  function unwrap(e: TS.Expression): TS.Expression {
    while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e) || ts.isTypeAssertionExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
    return e;
  }

  const evaluate = (expr: TS.Expression, pointer: string, lines: LineMap, depth: number, seen: Set<string>): unknown => {
    const e = unwrap(expr);
    lines.set(pointer, lineOf(e.getStart(sf)));
    if (depth > opts.maxDepth) throw new NotLiteral(`nested deeper than ${opts.maxDepth} levels`);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
    if (ts.isNumericLiteral(e)) return Number(e.text);
    if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (e.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isPrefixUnaryExpression(e) && ts.isNumericLiteral(unwrap(e.operand))) {
      const v = Number((unwrap(e.operand) as TS.NumericLiteral).text);
      if (e.operator === ts.SyntaxKind.MinusToken) return -v;
      if (e.operator === ts.SyntaxKind.PlusToken) return v;
    }
    if (ts.isArrayLiteralExpression(e)) {
      return e.elements.map((el, i) => {
        if (ts.isSpreadElement(el) || ts.isOmittedExpression(el)) throw new NotLiteral('array spread or hole');
        return evaluate(el, ptr(pointer, i), lines, depth + 1, seen);
      });
    }
    if (ts.isObjectLiteralExpression(e)) {
      const obj: Record<string, unknown> = {};
      for (const p of e.properties) {
        if (ts.isPropertyAssignment(p)) {
          const n = p.name;
          const key = ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) ? n.text : null;
          if (key === null) throw new NotLiteral('computed property name');
          const childPtr = ptr(pointer, key);
          setOwn(obj, key, evaluate(p.initializer, childPtr, lines, depth + 1, seen));
          lines.set(childPtr, lineOf(p.getStart(sf)));
        } else if (ts.isShorthandPropertyAssignment(p)) {
          setOwn(obj, p.name.text, evalIdentifier(p.name.text, ptr(pointer, p.name.text), lines, depth + 1, seen));
        } else throw new NotLiteral(ts.isSpreadAssignment(p) ? 'object spread' : 'method or accessor');
      }
      return obj;
    }
    if (ts.isIdentifier(e)) {
      if (e.text === 'undefined') throw new NotLiteral('undefined');
      return evalIdentifier(e.text, pointer, lines, depth, seen);
    }
    throw new NotLiteral(`${ts.SyntaxKind[e.kind]} is not a literal`);
  };
  const evalIdentifier = (name: string, pointer: string, lines: LineMap, depth: number, seen: Set<string>): unknown => {
    const init = consts.get(name);
    if (!init || seen.has(name)) throw new NotLiteral(`${name} is not a literal constant in this file`);
    const inner = new Set(seen).add(name);
    const keep = new Map(lines);
    const v = evaluate(init, pointer, lines, depth, inner);
    // lines inside the referenced constant point at its declaration; keep the use site for the root
    if (keep.has(pointer)) lines.set(pointer, keep.get(pointer)!);
    return v;
  };

  for (const [name, ex] of mod.exports) {
    if (!('nonLiteral' in ex)) continue;
    const local = ex.nonLiteral.startsWith('pending:') ? ex.nonLiteral.slice(8) : name;
    const init = consts.get(local);
    if (!init) continue;
    const lines: LineMap = new Map();
    try {
      const value = evaluate(init, '', lines, 0, new Set([local]));
      lines.set('', ex.line);
      mod.exports.set(name, { value, line: ex.line, lines });
    } catch (e) {
      mod.exports.set(name, { nonLiteral: (e as Error).message, line: ex.line });
    }
  }
  return mod;
}
