// The command list. To add a command: create cli/commands/<name>.ts exporting a
// Command, and add one line here.

import type { Command } from '../command';
import { validate } from './validate';
import { sign } from './sign';
import { keygen } from './keygen';
import runCommand from './run';
import { agent } from './agent';
import { mcp } from './mcp';
import { publish } from './publish';
import { add } from './add';
import { search } from './search';
import { info } from './info';

export const commands: Command[] = [validate, runCommand, agent, mcp, sign, keygen, publish, add, search, info];

