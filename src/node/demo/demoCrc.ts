/**
 * The CRC-32 of demo chunks in Node: zlib's (node:zlib crc32, the sum of
 * zlib, gzip and PNG), handed to the demo format (src/shared/demo).
 */
import { crc32 as zlibCrc32 } from 'node:zlib';
import type { Crc32 } from '../../shared/demo/demoFormat';

export const crc32: Crc32 = (bytes) => zlibCrc32(bytes) >>> 0;
