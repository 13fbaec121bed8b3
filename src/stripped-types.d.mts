// Types of src/stripped-types.mjs (JavaScript on purpose: see there).
export declare const STRIPPED_DIR: string;
export declare function strippedName(source: string | Buffer): string;
