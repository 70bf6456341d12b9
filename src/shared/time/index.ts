/**
 * Time synchronisation: the TimeRequest/TimeReply datagrams, Simpson's
 * estimate, the client state machine and the responder.
 */
export * from './timeWire';
export * from './timeSync';
