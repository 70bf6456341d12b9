/**
 * Peer-to-peer protocol core (Parsec 1998 design): start-up with connect and
 * slot-request loops, slot tables, rank-delayed connect replies and alive
 * counters, as a pure state machine. Message ids are its connections' (the
 * session's connection layer numbers what it sends and admits what it
 * receives). See STATE-MACHINE.md in this folder.
 */
export { P2pPeer, DEFAULT_PLAYER_NAME } from './peer';
export type { P2pNotice, P2pTransport, PeerState } from './core';
export { DEFAULT_P2P_CONFIG, resolveConfig, STARTUP_MARGIN_MS, type P2pConfig } from './config';
export { idNewer, idMax } from '../net/replayWindow';
export { planAssignment, SlotTable, UNKNOWN_NAME, type AssignmentPlan } from './slotTable';
export { formatAddr, NEUTRAL_STATE, sanitizeName } from './packets';
