import pkg from '../../package.json' with { type: 'json' };

/** Starlane's version, from package.json (inlined by the build). */
export const APP_VERSION: string = pkg.version;
