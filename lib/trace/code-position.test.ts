import { describe, expect, it } from 'vitest';
import { agentModuleSource } from '../agent/agent-code';
import { AGENT_CODE_LINE_OFFSET, userCodePosition } from './code-position';

describe('userCodePosition', () => {
  it('uses the same offset as the module wrapper of agent code', () => {
    const lines = agentModuleSource('/*FIRST*/').split('\n');
    expect(lines.findIndex((l) => l.includes('/*FIRST*/')) + 1 - AGENT_CODE_LINE_OFFSET).toBe(1);
  });

  it('maps the wrapper position to the line and column of the user’s code', () => {
    const out = userCodePosition("the module does not compile: Unexpected token ';' [file:///sandbox/module.js:6:11]", 3);
    expect(out).toEqual({ position: { line: 2, column: 11 }, message: "the module does not compile: Unexpected token ';'" });
  });

  it('leaves messages without a position, and positions outside the code, alone', () => {
    expect(userCodePosition('Error: boom', 1)).toEqual({ position: null, message: 'Error: boom' });
    expect(userCodePosition('x [file:///sandbox/module.js:40:1]', 2).position).toBeNull();
  });
});
