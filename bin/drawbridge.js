#!/usr/bin/env node
// The CLI runs the TypeScript sources directly through tsx's loader: no build step, nothing compiled to commit.
import { register } from 'tsx/esm/api';

register();
await import('../src/adapters/cli/main.ts');
