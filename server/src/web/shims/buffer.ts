/** `Buffer` in the web worker: the template library handles bytes as Node's Buffer (the `buffer` package, its browser twin). */
export { Buffer } from 'buffer';
