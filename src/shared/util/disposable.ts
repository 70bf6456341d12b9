/** Something that holds a resource (socket, timer, listener) until disposed. Idempotent. */
export interface Disposable {
  dispose(): void;
}
