import { afterAll } from 'vitest';
import { cleanUpFile } from './testRun';

// Every test file: whatever it started or made goes when it ends, passed or not.
afterAll(cleanUpFile);
